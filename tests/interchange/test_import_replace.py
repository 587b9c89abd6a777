"""`import_competition --replace` asks first and keeps a backup; `--skip-existing` keeps
what is there (what `dev.py run` uses, so a second run loses no results)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from interchange.exporter import competition_export
from scoring.models import Round
from scoring.services.rounds import round_record
from tests.interchange.documents import SAMPLE, STCB, document, load, row_counts
from tournaments.models import Competition

pytestmark = pytest.mark.django_db

SLUG = "club-evening-sample"


class Terminal(io.StringIO):
    """Standard input as a person at a terminal: what they will type."""

    def isatty(self) -> bool:
        return True


class Pipe(io.StringIO):
    """Standard input from a script or cron: no one to ask."""

    def isatty(self) -> bool:
        return False


def write(path: Path, data: dict) -> Path:
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def import_file(path: Path, *args: str, stdin: io.StringIO | None = None) -> str:
    out = io.StringIO()
    call_command(
        "import_competition", str(path), *args, stdin=stdin or Pipe(), stdout=out, stderr=out
    )
    return out.getvalue()


@pytest.fixture
def played(tmp_path: Path) -> Path:
    """The club-evening sample imported (12 played games, 184 rounds); the file of its
    replacement: the same evening under another name."""
    import_file(SAMPLE)
    data = load(SAMPLE)
    data["competition"]["name"] = "Club evening (replacement)"
    return write(tmp_path / "replacement.json", data)


def exported(slug: str = SLUG) -> dict:
    return competition_export(competition=Competition.objects.get(slug=slug))


def test_replace_on_a_terminal_asks_for_the_slug_writes_a_backup_then_replaces(played, tmp_path):
    before = exported()
    backups = tmp_path / "backups"

    out = import_file(
        played, "--replace", "--backup-dir", str(backups), stdin=Terminal(SLUG + "\n")
    )

    assert (
        f"Replace competition {SLUG} (Club evening (sample)) with 12 played games, 184 rounds?"
        in out
    )
    assert "Type the slug to confirm:" in out
    [backup] = backups.iterdir()
    assert backup.name.startswith(f"{SLUG}-") and backup.suffix == ".json"
    assert f"Wrote a backup of {SLUG} to {backup}" in out
    assert json.loads(backup.read_text(encoding="utf-8")) == before
    assert Competition.objects.get(slug=SLUG).name == "Club evening (replacement)"


@pytest.mark.parametrize("answer", ["", "y", "yes", "club-evening", SLUG.upper()])
def test_replace_on_a_terminal_changes_nothing_unless_the_slug_is_typed(played, tmp_path, answer):
    before = row_counts()

    with pytest.raises(CommandError, match=f"Not confirmed: {SLUG} was left as it is"):
        import_file(
            played, "--replace", "--backup-dir", str(tmp_path / "b"), stdin=Terminal(answer)
        )

    assert row_counts() == before
    assert Competition.objects.get(slug=SLUG).name == "Club evening (sample)"
    assert not (tmp_path / "b").exists()


def test_replace_without_a_terminal_is_refused_and_names_yes(played, tmp_path):
    before = row_counts()

    with pytest.raises(CommandError) as refused:
        import_file(played, "--replace", "--backup-dir", str(tmp_path / "b"), stdin=Pipe(SLUG))

    assert "--yes" in str(refused.value)
    assert "12 played games, 184 rounds" in str(refused.value)
    assert row_counts() == before
    assert not (tmp_path / "b").exists()


def test_replace_of_a_file_on_standard_input_needs_yes_even_on_a_terminal(
    played, tmp_path, monkeypatch
):
    # The file comes through standard input, so it cannot also carry the answer.
    stdin = Terminal(played.read_text(encoding="utf-8"))
    monkeypatch.setattr("sys.stdin", stdin)
    before = row_counts()

    with pytest.raises(CommandError, match="--yes"):
        call_command("import_competition", "-", "--replace", stdout=io.StringIO())

    assert row_counts() == before


def test_reported_match_totals_are_named_in_the_question(tmp_path):
    import_file(STCB)

    with pytest.raises(CommandError) as refused:
        import_file(STCB, "--replace", "--backup-dir", str(tmp_path))

    assert "0 played games, 0 rounds, 4 match results reported as totals or forfeits" in str(
        refused.value
    )


def test_replace_with_yes_keeps_a_backup_that_imports_back(played, tmp_path):
    before = exported()
    backups = tmp_path / "backups"

    out = import_file(played, "--replace", "--yes", "--backup-dir", str(backups))
    assert Competition.objects.get(slug=SLUG).name == "Club evening (replacement)"
    [backup] = backups.iterdir()
    assert str(backup) in out

    import_file(backup, "--replace", "--yes", "--backup-dir", str(tmp_path / "again"))

    assert exported() == before
    assert Round.objects.count() == 184


def test_replace_never_overwrites_an_earlier_backup(played, tmp_path):
    backups = tmp_path / "backups"
    for _ in range(3):  # within one second, mostly: the names must still differ
        import_file(played, "--replace", "--yes", "--backup-dir", str(backups))

    assert len(list(backups.iterdir())) == 3


def test_replace_changes_nothing_when_the_backup_cannot_be_written(played, tmp_path):
    blocked = tmp_path / "a-file"  # a file where the backup directory should be
    blocked.write_text("not a directory")
    before = row_counts()

    with pytest.raises(CommandError) as refused:
        import_file(played, "--replace", "--yes", "--backup-dir", str(blocked / "backups"))

    assert f"Cannot write the backup of {SLUG}" in str(refused.value)
    assert "Nothing was imported" in str(refused.value)
    assert row_counts() == before
    assert Competition.objects.get(slug=SLUG).name == "Club evening (sample)"


def test_replace_of_a_new_slug_just_imports_without_asking(tmp_path):
    out = import_file(
        write(tmp_path / "new.json", document()), "--replace", "--backup-dir", str(tmp_path / "b")
    )

    assert "Imported test-evening" in out
    assert not (tmp_path / "b").exists()


def test_skip_existing_keeps_the_results_entered_since_the_first_import(tmp_path):
    # dev.py run imports data/ on every run: a round entered in between must survive.
    path = write(tmp_path / "evening.json", document(rounds=[]))
    import_file(path, "--skip-existing")
    game = Competition.objects.get(slug="test-evening").matchdays.get().matches.get().games.get()
    round_record(game_id=game.pk, expected_number=1, result="kap", side="a")
    before = row_counts()

    out = import_file(path, "--skip-existing")

    assert "Skipped test-evening: a competition with this slug exists already." in out
    assert row_counts() == before
    assert list(game.rounds.values_list("number", "result")) == [(1, "kap")]


def test_skip_existing_imports_a_competition_that_is_not_there(tmp_path):
    out = import_file(write(tmp_path / "evening.json", document()), "--skip-existing")

    assert "Imported test-evening" in out


def test_replace_and_skip_existing_exclude_each_other(played):
    with pytest.raises(CommandError, match="not allowed with argument"):
        import_file(played, "--replace", "--skip-existing")

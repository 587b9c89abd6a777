"""A wrong entry (issue 10's tester): a club entered in a pairs competition, or a koppel in
a club competition, is refused on every path (the services, the entry's admin page, the
competition page's entries, the importer); and a wrong entry that counts nowhere yet (no
match, no bye, no deduction) is deleted from the admin through `entry_delete`, its
standings rows with it, while one that counts is refused with the service's reason."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.admin.models import LogEntry

from interchange.errors import InterchangeError
from interchange.exporter import competition_export
from interchange.importer import competition_import
from scoring.models import Standing
from scoring.rules import RuleViolation
from scoring.services.standings import standings_rebuild
from tests.admin_pages import (
    admin_url,
    bulk_delete,
    posted_back,
    refused_delete,
    said,
    save_as_shown,
)
from tests.admin_scenes import game_with_totals, pairs_day, settle
from tests.builders import club_competition
from tests.factories import (
    ClubEntryFactory,
    ClubFactory,
    CompetitionFactory,
    MatchdayFactory,
    MatchFactory,
    TeamEntryFactory,
    TeamFactory,
)
from tests.refreshes import queued_refreshes
from tournaments.models import Bye, Competition, Entry
from tournaments.services.deductions import deduction_add, deduction_void
from tournaments.services.entries import entry_add, entry_change, entry_delete
from tournaments.tokens import deductions_token
from troefclub.rule_messages import rule_message

pytestmark = pytest.mark.django_db

PAIRS, CLUBS = Competition.Kind.PAIRS, Competition.Kind.CLUBS


def wrong_kind(kind: str) -> dict[str, Any]:
    """For a competition of `kind`: the entry of the other kind (field → row), the field
    it is refused at, and the words."""
    if kind == PAIRS:
        return {"field": "club", "code": "entry_club_in_pairs_competition", "row": ClubFactory}
    return {"field": "team", "code": "entry_koppel_in_club_competition", "row": TeamFactory}


def words(code: str, competition: Competition) -> str:
    return rule_message(RuleViolation(code, competition=str(competition)))


def field_errors(form: Any, name: str) -> list[tuple[str | None, str]]:
    return [(error.code, " ".join(error.messages)) for error in form.errors.as_data()[name]]


# ---------------------------------------------------------------- the services


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_entry_add_refuses_an_entry_of_the_other_kind(kind):
    competition = CompetitionFactory.create(kind=kind)
    wrong = wrong_kind(kind)
    row = wrong["row"].create()

    with pytest.raises(RuleViolation) as caught:
        entry_add(competition_id=competition.pk, **{f"{wrong['field']}_id": row.pk})

    assert caught.value.code == wrong["code"]
    assert rule_message(caught.value) == words(wrong["code"], competition)
    assert not Entry.objects.exists()


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_entry_change_refuses_an_entry_of_the_other_kind(kind):
    entry = (TeamEntryFactory if kind == PAIRS else ClubEntryFactory).create(competition__kind=kind)
    wrong = wrong_kind(kind)
    row = wrong["row"].create()

    with pytest.raises(RuleViolation) as caught:
        entry_change(
            entry_id=entry.pk,
            competition_id=entry.competition_id,
            **{f"{wrong['field']}_id": row.pk},
        )

    assert caught.value.code == wrong["code"]
    fresh = Entry.objects.get(pk=entry.pk)
    assert (fresh.team_id, fresh.club_id) == (entry.team_id, entry.club_id)


def test_entry_change_refuses_a_koppel_moved_into_a_club_competition():
    entry = TeamEntryFactory.create()
    clubs = CompetitionFactory.create(kind=CLUBS)

    with pytest.raises(RuleViolation) as caught:
        entry_change(entry_id=entry.pk, competition_id=clubs.pk, team_id=entry.team_id)

    assert caught.value.code == "entry_koppel_in_club_competition"
    assert Entry.objects.get(pk=entry.pk).competition_id == entry.competition_id


# ---------------------------------------------------------------- the entry's admin page


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_the_add_page_refuses_an_entry_of_the_other_kind_at_its_field(admin_client, kind):
    competition = CompetitionFactory.create(kind=kind, name="Kampioenschap")
    wrong = wrong_kind(kind)
    row = wrong["row"].create()

    response = admin_client.post(
        admin_url(Entry, "add"), {"competition": competition.pk, wrong["field"]: row.pk}
    )

    assert response.status_code == 200
    form = response.context["adminform"].form
    assert field_errors(form, wrong["field"]) == [
        (wrong["code"], words(wrong["code"], competition))
    ]
    assert not Entry.objects.exists()


def test_the_add_page_enters_a_koppel_in_a_pairs_competition(admin_client):
    competition = CompetitionFactory.create()
    team = TeamFactory.create()

    response = admin_client.post(
        admin_url(Entry, "add"), {"competition": competition.pk, "team": team.pk}
    )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert Entry.objects.get().team == team


def test_the_change_page_refuses_a_club_for_a_koppel_in_a_pairs_competition(admin_client):
    entry = TeamEntryFactory.create()
    club = ClubFactory.create()

    response = save_as_shown(admin_client, entry, team="", club=club.pk)

    assert response.status_code == 200
    form = response.context["adminform"].form
    code = "entry_club_in_pairs_competition"
    assert field_errors(form, "club") == [(code, words(code, entry.competition))]
    assert Entry.objects.get(pk=entry.pk).team_id == entry.team_id


def test_an_unplayed_entry_keeps_an_editable_change_page(admin_client):
    """Only an entry on the schedule (a match or a bye) keeps its competition, koppel and
    club (`EntryAdmin.locked_rows`, the database's `entry_scheduled_fixed`); a row in the
    table makes no difference."""
    matchday, (a, b, c, _d) = pairs_day()
    MatchFactory.create(matchday=matchday, home=a, away=b)
    standings_rebuild(competition_id=matchday.competition_id)
    assert Standing.objects.filter(entry=c).exists()

    unplayed = admin_client.get(admin_url(Entry, "change", c.pk))
    scheduled = admin_client.get(admin_url(Entry, "change", a.pk))

    assert {"competition", "team", "club"} <= unplayed.context["adminform"].form.fields.keys()
    assert unplayed.context["has_delete_permission"]
    assert not {"competition", "team", "club"} & scheduled.context["adminform"].form.fields.keys()


# ---------------------------------------------------------------- the competition page


def entries_with(page: Any, **row: Any) -> dict[str, Any]:
    """The competition page posted back as shown, with one entry row more."""
    data = posted_back(page)
    index = int(data["entries-TOTAL_FORMS"])
    data["entries-TOTAL_FORMS"] = index + 1
    data.update({f"entries-{index}-{name}": value for name, value in row.items()})
    data.setdefault(f"entries-{index}-team", "")
    data.setdefault(f"entries-{index}-club", "")
    return data


def inline_form(response: Any, index: int) -> Any:
    return response.context["inline_admin_formsets"][0].formset.forms[index]


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_the_competition_page_refuses_an_entry_of_the_other_kind(admin_client, kind):
    competition = club_competition(1) if kind == CLUBS else TeamEntryFactory.create().competition
    wrong = wrong_kind(kind)
    row = wrong["row"].create()
    before = list(competition.entries.values_list("pk", "team_id", "club_id"))
    url = admin_url(Competition, "change", competition.pk)
    page = admin_client.get(url)

    response = admin_client.post(url, entries_with(page, **{wrong["field"]: row.pk}))

    assert response.status_code == 200
    form = inline_form(response, len(before))
    assert field_errors(form, wrong["field"]) == [
        (wrong["code"], words(wrong["code"], competition))
    ]
    assert list(competition.entries.values_list("pk", "team_id", "club_id")) == before


def test_a_new_club_competition_with_a_koppel_entered_is_not_saved(admin_client):
    team = TeamFactory.create()
    page = admin_client.get(admin_url(Competition, "add"))
    data = entries_with(page, team=team.pk)
    data.update(name="Clubcompetitie", slug="clubcompetitie", kind=CLUBS)

    response = admin_client.post(admin_url(Competition, "add"), data)

    assert response.status_code == 200
    code = "entry_koppel_in_club_competition"
    assert field_errors(inline_form(response, 0), "team")[0][0] == code
    assert not Competition.objects.exists() and not Entry.objects.exists()


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_the_kind_of_a_competition_with_entries_does_not_change(admin_client, kind):
    competition = club_competition(1) if kind == CLUBS else TeamEntryFactory.create().competition
    other = CLUBS if kind == PAIRS else PAIRS

    response = save_as_shown(admin_client, competition, kind=other)

    assert response.status_code == 200
    assert field_errors(response.context["adminform"].form, "kind")[0][0] == "kind_has_entries"
    assert Competition.objects.get(pk=competition.pk).kind == kind


# ---------------------------------------------------------------- the importer


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_the_importer_refuses_an_entry_of_the_other_kind(kind):
    """A file like the export of a competition the old admin let take a wrong entry."""
    competition = CompetitionFactory.create(kind=kind, slug="wrong")
    right = TeamEntryFactory if kind == PAIRS else ClubEntryFactory
    right.create(competition=competition)
    wrong = wrong_kind(kind)
    Entry.objects.create(competition=competition, **{wrong["field"]: wrong["row"].create()})
    exported = competition_export(competition=competition)

    with pytest.raises(InterchangeError) as caught:
        competition_import(data=exported, replace=True)

    assert caught.value.place == "entries"
    section = "teams" if kind == PAIRS else "clubs"
    assert f"competition's entries are {section}" in caught.value.message
    assert competition.entries.count() == 2  # nothing replaced


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_after_the_wrong_entry_is_deleted_the_export_imports_again(admin_client, kind):
    competition = club_competition(2) if kind == CLUBS else CompetitionFactory.create(slug="right")
    if kind == PAIRS:
        TeamEntryFactory.create_batch(2, competition=competition)
    wrong = wrong_kind(kind)
    bad = Entry.objects.create(competition=competition, **{wrong["field"]: wrong["row"].create()})
    standings_rebuild(competition_id=competition.pk)

    response = admin_client.post(admin_url(Entry, "delete", bad.pk), {"post": "yes"})

    assert response.status_code == 302
    exported = competition_export(competition=competition)
    again = competition_import(data=exported, replace=True)
    assert competition_export(competition=again) == exported
    assert again.entries.count() == 2


# ---------------------------------------------------------------- deleting an entry


def test_entry_delete_takes_the_entry_and_its_standings_row_and_queues_a_refresh(
    django_capture_on_commit_callbacks,
):
    entry = TeamEntryFactory.create()
    standings_rebuild(competition_id=entry.competition_id)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        entry_delete(entry_id=entry.pk)

    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not Standing.objects.filter(competition=entry.competition).exists()
    assert queued_refreshes(callbacks) == [entry.competition_id]
    entry_delete(entry_id=entry.pk)  # deleted already: left so


def on_a_match(entry: Entry) -> None:
    MatchFactory.create(matchday__competition=entry.competition, home=entry)


def on_a_bye(entry: Entry) -> None:
    Bye.objects.create(matchday=MatchdayFactory.create(competition=entry.competition), entry=entry)


def played(entry: Entry) -> None:
    matchday = MatchdayFactory.create(competition=entry.competition)
    game_with_totals(matchday, entry, TeamEntryFactory.create(competition=entry.competition))


def deducted(entry: Entry) -> None:
    competition = entry.competition
    seen = deductions_token(competition_id=competition.pk)
    made = deduction_add(
        competition_id=competition.pk, entry_id=entry.pk, points=2, reason="late", seen=seen
    )
    deduction_void(deduction_id=made.pk, reason="a mistake")  # voided: still its history


# What keeps an entry, and the service's code for it.
KEPT = {
    "a match": (on_a_match, "entry_on_schedule"),
    "a bye": (on_a_bye, "entry_on_schedule"),
    "a played match": (played, "entry_on_schedule"),
    "a voided deduction": (deducted, "entry_has_deductions"),
}
with_each_kept = pytest.mark.parametrize(("keep", "code"), KEPT.values(), ids=KEPT.keys())


@with_each_kept
def test_entry_delete_refuses_an_entry_that_counts(keep, code):
    entry = TeamEntryFactory.create()
    keep(entry)
    standings_rebuild(competition_id=entry.competition_id)

    with pytest.raises(RuleViolation) as caught:
        entry_delete(entry_id=entry.pk)

    assert (caught.value.code, caught.value.params) == (code, {"entry": str(entry)})
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert Standing.objects.filter(entry=entry).exists()


@pytest.mark.parametrize("kind", [PAIRS, CLUBS])
def test_an_unplayed_entry_with_a_standings_row_is_deleted_from_its_page(
    admin_client, django_capture_on_commit_callbacks, kind
):
    entry = (TeamEntryFactory if kind == PAIRS else ClubEntryFactory).create(competition__kind=kind)
    standings_rebuild(competition_id=entry.competition_id)
    settle()
    url = admin_url(Entry, "delete", entry.pk)

    page = admin_client.get(url)
    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(url, {"post": "yes"})

    assert page.status_code == 200
    assert not page.context["perms_lacking"] and not page.context["protected"]
    assert "Standing" in page.content.decode()  # the row that goes with it, listed
    assert response.status_code == 302
    assert not Entry.objects.filter(pk=entry.pk).exists()
    assert not Standing.objects.filter(competition=entry.competition).exists()
    assert queued_refreshes(callbacks) == [entry.competition_id]
    assert LogEntry.objects.filter(object_id=str(entry.pk)).exists()


def test_unplayed_entries_are_deleted_with_the_list_action(
    admin_client, django_capture_on_commit_callbacks
):
    _matchday, (a, b, c, _d) = pairs_day()
    standings_rebuild(competition_id=a.competition_id)
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        chosen, confirmed = bulk_delete(admin_client, [a, b])

    assert chosen.status_code == 200 and not chosen.context["perms_lacking"]
    assert confirmed.status_code == 302
    assert set(Entry.objects.all()) == {c, _d}
    assert set(Standing.objects.values_list("entry", flat=True)) <= {c.pk, _d.pk}
    assert queued_refreshes(callbacks) == [a.competition_id]


def test_an_unplayed_entry_is_deleted_from_the_competition_page(
    admin_client, django_capture_on_commit_callbacks
):
    _matchday, (a, b, *_rest) = pairs_day()
    competition = a.competition
    standings_rebuild(competition_id=competition.pk)
    page = admin_client.get(admin_url(Competition, "change", competition.pk))
    rows = {
        form.instance.pk: i
        for i, form in enumerate(page.context["inline_admin_formsets"][0].formset.forms)
    }
    settle()

    with django_capture_on_commit_callbacks() as callbacks:
        response = admin_client.post(
            admin_url(Competition, "change", competition.pk),
            posted_back(page, **{f"entries-{rows[a.pk]}-DELETE": "on"}),
        )

    assert response.status_code == 302, response.content.decode()[:3000]
    assert not Entry.objects.filter(pk=a.pk).exists()
    assert not Standing.objects.filter(entry_id=a.pk).exists()
    assert queued_refreshes(callbacks) == [competition.pk]


@with_each_kept
def test_an_entry_that_counts_is_refused_with_the_reason(admin_client, keep, code):
    entry = TeamEntryFactory.create()
    keep(entry)
    standings_rebuild(competition_id=entry.competition_id)
    reason = rule_message(RuleViolation(code, entry=str(entry)))
    on_the_list = (
        reason
        if code == "entry_has_deductions"
        else f"Nothing was deleted: {entry} is on the schedule (a match or a bye)."
    )

    page = admin_client.get(admin_url(Entry, "delete", entry.pk))
    assert page.status_code == 302 and said(page) == reason  # on the entry's page
    listed = refused_delete(admin_client, entry)  # every way: no delete, no 500, no 403

    assert on_the_list in listed
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert Standing.objects.filter(entry=entry).exists()
    assert not LogEntry.objects.filter(object_id=str(entry.pk)).exists()

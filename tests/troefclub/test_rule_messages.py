"""Every RuleViolation code has words (troefclub/rule_messages.py: "tests check that every code the
engine and the services raise has a message here"). Uses Django's translation, no database."""

from __future__ import annotations

import ast
from collections.abc import Iterator

import pytest
from django.utils import translation

from scoring.rules import Result, RoundInput, RuleSet, RuleViolation, Side, check_tricks
from scoring.rules.game import GameState
from tests.paths import REPO_ROOT
from troefclub.rule_messages import TRICKS_EXPECTED, rule_message

# Every module of the apps but their migrations: a code raised anywhere needs words.
APPS = ("troefclub", "tournaments", "scoring", "rankings", "interchange")
SOURCES = sorted(
    path
    for app in APPS
    for path in (REPO_ROOT / app).rglob("*.py")
    if "migrations" not in path.parts
)
GENERIC = "Not allowed by the rules"


# game.py raises this one through a variable: code = "caller_required_for_bonus" if … else
# "caller_required"; the regex can't see it.
INDIRECT_CODES: dict[str, set[str]] = {"caller_required": set()}

# A plausible value for each parameter name used by the engine and the services.
PLAUSIBLE = {
    "field": "target_score",
    "seat": 5,
    "expected": 2,
    "given": 1,
    "caller": 7,
    "tricks_a": 14,
    "tricks_b": 0,
    "side_tricks": 6,
    "other_tricks": 1,
    "result": "gewone_winst",
    "side": "a",
    "score_a": 20,
    "score_b": 4,
    "team": "a",
    "total": 3,
    "target": 20,
    "key": "goals",
    "entry": "openbaar-groen",
    "game": 12,
    "round_id": 34,
    "match": 5,
    "club": "Kampoe",
    "koppel": "Anna & Eva",
    "players": "A. Example, B. Example",
    "sitting": 3,
    "sittings": 4,
    "until": 2,
    "koppels": 5,
    "minimum": 5,
    "home": 6,
    "away": 5,
    "size": 6,
    "number": 2,
    "open": 3,
    "table": 4,
    "points": 0,
    "squad": "Kampoe 2026",
    "locked_on": "2026-10-01",
    "player": "A. Example",
    "season": "2026-2027",
    "count": 1,
    "entrant": 7,
    "competition": 3,
    "recorded": 12,
    "ends_at": 6,
    "rounds": 9,
    "next": 3,
    "last": 5,
}


def _raised_codes() -> dict[str, set[str]]:
    """code -> parameter names, from every `RuleViolation("…", …)` call in the sources."""
    codes: dict[str, set[str]] = {code: set(params) for code, params in INDIRECT_CODES.items()}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "RuleViolation"
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and isinstance(node.args[0].value, str)
            ):
                continue
            keywords = {keyword.arg for keyword in node.keywords if keyword.arg}
            codes.setdefault(node.args[0].value, set()).update(keywords)
    return codes


RAISED = _raised_codes()


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    with translation.override("en"):
        yield


def test_the_scan_finds_the_engine_and_service_codes() -> None:
    # Guards the regex: a scan that finds nothing would make the test below pass vacuously.
    for code in (
        "kap_partner_not_allowed",
        "tricks_do_not_fit",
        "caller_out_of_turn",
        "rule_set_invalid",
        "total_overshoots_target",
        "tiebreak_unknown",
        "result_unknown",
        "seats_required",
    ):
        assert code in RAISED
    assert RAISED["tricks_do_not_fit"] == {"result", "side_tricks", "other_tricks"}
    assert RAISED["caller_out_of_turn"] == {"expected", "given"}


@pytest.mark.parametrize("code", sorted(RAISED))
def test_every_raised_code_has_a_message(code: str) -> None:
    params = {name: PLAUSIBLE.get(name, "x") for name in RAISED[code]}
    text = rule_message(RuleViolation(code, **params))
    assert text
    assert GENERIC not in text, f"{code} has no message of its own"
    assert "%(" not in text
    assert "%s" not in text


def test_unknown_code_falls_back_to_the_generic_text() -> None:
    assert rule_message(RuleViolation("no_such_code")) == f"{GENERIC} (no_such_code)."


@pytest.mark.parametrize("number", [1, 7, 23])
def test_message_names_the_round(number: int) -> None:
    text = rule_message(RuleViolation("kap_partner_not_allowed", round=number))
    assert text.startswith(f"Round {number}: ")
    assert text == f"Round {number}: " + rule_message(RuleViolation("kap_partner_not_allowed"))


def test_message_without_round_has_no_round_prefix() -> None:
    assert not rule_message(RuleViolation("redeal_not_allowed")).startswith("Round")


def test_caller_out_of_turn_names_the_players() -> None:
    # RULES.md "Who calls next": rejected "with a message naming the expected caller"
    exc = RuleViolation("caller_out_of_turn", expected=2, given=1)
    names = {1: "Ravi", 2: "Sunita", 3: "Anand", 4: "Kavita"}
    text = rule_message(exc, seat_names=names)
    assert "Ravi" in text and "Sunita" in text
    assert text.index("Ravi") < text.index("Sunita")
    assert "Anand" not in text and "Kavita" not in text


def test_caller_out_of_turn_names_seats_without_names() -> None:
    text = rule_message(RuleViolation("caller_out_of_turn", expected=3, given=4))
    assert "seat 4" in text and "seat 3" in text


def test_caller_out_of_turn_from_a_replayed_game() -> None:
    # The engine's own error, with its round, in words.
    state = GameState(rules=RuleSet(), caller=1)
    state = state.apply(RoundInput(Result.KAP, Side.B, caller=1)).state
    with pytest.raises(RuleViolation) as caught:
        state.apply(RoundInput(Result.KAP, Side.B, caller=1))
    exc = caught.value.at(round=2)
    text = rule_message(exc, seat_names={1: "Ravi", 2: "Sunita"})
    assert text.startswith("Round 2: ")
    assert "Ravi" in text and "Sunita" in text


@pytest.mark.parametrize(
    ("result", "own", "other"),
    [
        pytest.param(Result.GEWONE_WINST, 7, 0, id="gewone_winst"),
        pytest.param(Result.BAUNIE, 12, 0, id="baunie"),
        pytest.param(Result.BAUNIE_MISLUKT, 7, 2, id="baunie_mislukt"),
        pytest.param(Result.KAP_TE_VROEG, 6, 1, id="kap_te_vroeg"),
    ],
)
def test_tricks_do_not_fit_says_what_the_result_needs(result: Result, own: int, other: int) -> None:
    # RULES.md "Consequences": the trick counts each result needs, said to a person
    with pytest.raises(RuleViolation) as caught:
        check_tricks(result, Side.A, (own, other))
    assert caught.value.code == "tricks_do_not_fit"
    text = rule_message(caught.value)
    assert f"{own}–{other}" in text
    assert str(TRICKS_EXPECTED[result.value]) in text
    assert "needs ." not in text


@pytest.mark.parametrize(
    ("team", "words"),
    [("a", "koppel A"), ("b", "koppel B"), ("home", "the home side"), ("away", "the away side")],
)
def test_totals_messages_name_the_team(team: str, words: str) -> None:
    text = rule_message(RuleViolation("total_impossible", team=team, total=3))
    assert words in text and "3" in text

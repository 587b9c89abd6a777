"""Competition formats in the interchange file: schedule, byes, forfeits, deductions, club
matches with sittings, squads and confirmation (docs/interchange.md)."""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest
from django.core.management.base import CommandError

from interchange.errors import InterchangeError
from interchange.importer import competition_import
from scoring.models import Game, Standing
from tests.factories import ClubFactory, PlayerFactory
from tests.interchange.documents import document, row_counts, run_import
from tournaments.models import Bye, Competition, Deduction, Match, Matchday, Squad, SquadMember

pytestmark = pytest.mark.django_db


def pairs_document() -> dict[str, Any]:
    """Three koppels: matchday 1 noord-zuid (west has the bye), matchday 2 zuid-west
    forfeited by west (noord has the bye); a deduction with and one without a match."""
    data = document(
        rules={"trump_open_card": 13},
        match={"table": 2, "pairing_reason": {"code": "manual", "params": {}}},
        game={"confirmed": True},
    )
    data["competition"].update(
        {
            "schedule": "round_robin",
            "bye": {"result": "draw", "score": [10, 10]},
            "forfeit_score": [20, 0],
            "confirmation_required": True,
        }
    )
    data["players"] += [
        {"key": "eva", "name": "Eva", "club": "kampoe"},
        {"key": "frank", "name": "Frank", "club": "kampoe"},
    ]
    data["teams"].append({"key": "west", "players": ["eva", "frank"]})
    data["entries"].append("west")
    data["matchdays"][0]["byes"] = ["west"]
    data["matchdays"].append(
        {
            "number": 2,
            "date": "2026-10-09",
            "matches": [
                {
                    "home": "zuid",
                    "away": "west",
                    "table": 1,
                    "forfeit": {"side": "away", "reason": "did not turn up"},
                }
            ],
            "byes": [{"entry": "noord", "reason": {"code": "round_robin"}}],
            "override_reason": "paired early: the venue closes at ten",
        }
    )
    data["deductions"] = [
        {"entry": "zuid", "points": 2, "reason": "late", "matchday": 2, "match": "zuid-west"},
        {"entry": "west", "points": 1, "reason": "conduct"},
    ]
    return data


def clubs_document() -> dict[str, Any]:
    """Kampoe v Toppers, two of three koppels a side over two sittings (totals), then a
    return match that Toppers forfeit; both squads, one locked in the past."""
    players = {
        "kampoe": ["anna", "carla", "eva", "gina"],
        "toppers": ["bert", "dirk", "frank", "hans"],
    }

    def game(sitting: int, table: int, a: str, b: str, totals: list[int]) -> dict[str, Any]:
        return {"table": table, "sitting": sitting, "team_a": a, "team_b": b, "totals": totals}

    return {
        "format": "troefclub-competition/1",
        "competition": {
            "slug": "club-league",
            "name": "Club league",
            "season": "2026-2027",
            "kind": "clubs",
            "rules": {
                "target_score": 20,
                "fixed_rounds": None,
                "kap_partner_allowed": True,
                "stinkende_bonus": {"kap": 0, "baunie": 0},
                "redeal_allowed": True,
            },
            "standings": {"win": 2, "draw": 1, "loss": 0, "tiebreaks": ["points", "saldo"]},
            "schedule": "double_round_robin",
            "forfeit_score": [40, 0],
            "club_matches": {"koppels": 3, "min_koppels": 1, "sittings": 2,
                             "late_until_sitting": 2},
            "squads_required": True,
            "ineligible_deduction": 2,
        },  # fmt: skip
        "clubs": [{"key": "kampoe", "name": "Kampoe"}, {"key": "toppers", "name": "Toppers"}],
        "players": [
            {"key": key, "name": key.title(), "club": club}
            for club, keys in players.items()
            for key in keys
        ],
        "teams": [
            {"key": "k1", "players": ["anna", "carla"]},
            {"key": "k2", "players": ["eva", "gina"]},
            {"key": "t1", "players": ["bert", "dirk"]},
            {"key": "t2", "players": ["frank", "hans"]},
        ],
        "entries": ["kampoe", "toppers"],
        "matchdays": [
            {"number": 1, "date": "2026-10-02", "matches": [
                {"home": "kampoe", "away": "toppers", "table": 1, "games": [
                    game(1, 1, "k1", "t1", [20, 6]),
                    game(1, 2, "k2", "t2", [22, 16]),
                    game(2, 1, "k1", "t2", [6, 20]),
                    game(2, 2, "k2", "t1", [20, 17]),
                ]},
            ]},
            {"number": 2, "date": "2026-10-09", "matches": [
                {"home": "toppers", "away": "kampoe",
                 "forfeit": {"side": "home", "reason": "fewer than 1 koppel"}},
            ]},
        ],
        "squads": [
            {"club": "kampoe", "season": "2026-2027", "locked_on": "2026-09-01",
             "players": players["kampoe"]},
            {"club": "toppers", "season": "2026-2027", "locked_on": None,
             "players": players["toppers"]},
        ],
    }  # fmt: skip


def standings(slug: str) -> dict[str, tuple[int, int, int, int]]:
    """entry key -> (points, played, byes, deducted)."""
    return {
        row.entry.key: (row.points, row.played, row.byes, row.deducted)
        for row in Standing.objects.filter(competition__slug=slug).select_related(
            "entry__team", "entry__club"
        )
    }


def test_pairs_with_byes_forfeit_deductions_and_confirmation():
    competition = competition_import(data=pairs_document())

    assert (competition.schedule_format, competition.bye_result) == ("round_robin", "draw")
    assert (competition.bye_score_for, competition.bye_score_against) == (10, 10)
    assert (competition.forfeit_score_for, competition.forfeit_score_against) == (20, 0)
    assert competition.confirmation_required and competition.trump_open_card == 13
    first, second = Matchday.objects.filter(competition=competition).order_by("number")
    assert [b.entry.key for b in Bye.objects.order_by("matchday__number")] == ["west", "noord"]
    assert Bye.objects.get(matchday=second).reason == {"code": "round_robin"}
    assert second.override_reason.startswith("paired early")
    match = Match.objects.get(matchday=first)
    assert match.table == 2 and match.pairing_reason == {"code": "manual", "params": {}}
    forfeited = Match.objects.get(matchday=second)
    assert (forfeited.forfeit, forfeited.forfeit_reason) == ("away", "did not turn up")
    assert Game.objects.get().confirmed_at is not None
    deductions = list(Deduction.objects.order_by("pk").values_list("points", "reason", "match"))
    assert deductions == [(2, "late", forfeited.pk), (1, "conduct", None)]
    # noord: won (2) + a bye that counts as a draw (1); zuid: forfeit win (2) - 2;
    # west: bye draw (1), forfeit loss (0) - 1.
    assert standings("test-evening") == {
        "noord": (3, 2, 1, 0),
        "zuid": (0, 2, 0, 2),
        "west": (0, 2, 1, 1),
    }


def test_an_unconfirmed_game_does_not_count_when_confirmation_is_required():
    data = pairs_document()
    del data["matchdays"][0]["matches"][0]["games"][0]["confirmed"]
    competition_import(data=data)
    assert standings("test-evening")["noord"] == (1, 1, 1, 0)  # only the bye counts


def test_clubs_with_sittings_squads_and_a_forfeit():
    competition = competition_import(data=clubs_document())

    assert (competition.koppels_per_side, competition.min_koppels) == (3, 1)
    assert (competition.sittings, competition.late_koppel_until_sitting) == (2, 2)
    assert competition.squads_required and competition.ineligible_deduction == 2
    assert sorted(Game.objects.values_list("sitting", "table")) == [(1, 1), (1, 2), (2, 1), (2, 2)]
    squad = Squad.objects.get(club__key="kampoe")
    assert squad.locked_on == datetime.date(2026, 9, 1)  # in the past: still imported
    assert SquadMember.objects.filter(season="2026-2027").count() == 8
    # kampoe: 68-59 over the four games (win), then the forfeit win 40-0.
    assert standings("club-league") == {"kampoe": (4, 2, 0, 0), "toppers": (0, 2, 0, 0)}
    row = Standing.objects.get(entry__club__key="kampoe")
    assert (row.points_for, row.points_against) == (68 + 40, 59)


def test_an_existing_squad_is_reused_and_keeps_its_lock_date():
    kampoe = ClubFactory.create(key="kampoe", name="Kampoe")
    Squad.objects.create(club=kampoe, season="2026-2027", locked_on=None)
    competition_import(data=clubs_document())
    assert Squad.objects.get(club=kampoe).locked_on is None
    assert Squad.objects.get(club=kampoe).members.count() == 4


def test_a_player_on_another_clubs_squad_in_the_database_is_refused():
    toppers = ClubFactory.create(key="toppers", name="Toppers")
    anna = PlayerFactory.create(key="anna", name="Anna", club=ClubFactory.create(key="kampoe"))
    other = Squad.objects.create(club=toppers, season="2026-2027")
    SquadMember.objects.create(squad=other, player=anna, season="2026-2027")
    before = row_counts()

    with pytest.raises(InterchangeError) as info:
        competition_import(data=clubs_document())

    assert info.value.place == "squads[kampoe]"
    assert "Anna (anna) is on the squad of Toppers for 2026-2027" in info.value.message
    assert info.value.code == "player_on_other_squad"
    assert row_counts() == before


def test_replace_removes_the_old_byes_and_deductions():
    competition_import(data=pairs_document())
    competition_import(data=pairs_document(), replace=True)
    assert (Bye.objects.count(), Deduction.objects.count()) == (2, 2)
    assert Competition.objects.count() == 1


def test_the_command_reports_byes_and_deductions(tmp_path):
    out = run_import(tmp_path, pairs_document())
    assert "2 matchdays, 2 matches, 1 games, 4 rounds; 3 standings rows; 2 byes, 2 deductions" in (
        out
    )
    plain = run_import(tmp_path, document(competition={**document()["competition"],
                                                       "slug": "plain"}))  # fmt: skip
    assert "byes" not in plain


def changed(base: dict[str, Any], path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(base)
    target = data
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return data


PAIRS = pairs_document()
CLUBS = clubs_document()
MD1 = ("matchdays", 0)
MD2 = ("matchdays", 1)
M1 = (*MD1, "matches", 0)
M2 = (*MD2, "matches", 0)
CLUB_GAME = ("matchdays", 0, "matches", 0, "games")

REFUSED = [
    ("schedule_unknown", changed(PAIRS, ("competition", "schedule"), "knockout"),
     "competition", "“schedule” must be one of “manual”, “round_robin”, "
     "“double_round_robin”, “swiss”, not “knockout”"),
    ("bye_not_an_object", changed(PAIRS, ("competition", "bye"), "win"),
     "competition, bye", "must be an object, not text"),
    ("bye_result_unknown", changed(PAIRS, ("competition", "bye", "result"), "half"),
     "competition, bye", "“result” must be one of “win”, “draw”, “loss”, not “half”"),
    ("bye_score_not_a_pair", changed(PAIRS, ("competition", "bye", "score"), 20),
     "competition, bye", "“score” must be a list of two whole numbers, not 20"),
    ("forfeit_score_negative", changed(PAIRS, ("competition", "forfeit_score"), [20, -1]),
     "competition", "“forfeit_score” must hold numbers of 0 or more, not -1"),
    ("club_matches_unknown_key", changed(CLUBS, ("competition", "club_matches", "tables"), 6),
     "competition, club_matches", "unknown field “tables”"),
    ("min_koppels_above_koppels", changed(CLUBS, ("competition", "club_matches", "min_koppels"),
                                          4),
     "competition, club_matches", "“min_koppels” can't be more than “koppels” (3), not 4"),
    ("koppels_too_many", changed(CLUBS, ("competition", "club_matches", "koppels"), 7),
     "competition, club_matches", "“koppels” is too large (7; at most 6)"),
    ("late_until_zero", changed(CLUBS, ("competition", "club_matches", "late_until_sitting"), 0),
     "competition, club_matches", "“late_until_sitting” must be at least 1, not 0"),
    ("late_until_beyond_sittings",
     changed(CLUBS, ("competition", "club_matches", "late_until_sitting"), 3),
     "competition, club_matches", "“late_until_sitting” is too large (3; at most 2)"),
    ("squads_required_text", changed(PAIRS, ("competition", "squads_required"), "yes"),
     "competition", "“squads_required” must be true or false, not text"),
    ("confirmation_required_number", changed(PAIRS, ("competition", "confirmation_required"), 1),
     "competition", "“confirmation_required” must be true or false, not a whole number"),
    ("ineligible_deduction_text", changed(PAIRS, ("competition", "ineligible_deduction"), "3"),
     "competition", "“ineligible_deduction” must be a whole number, not text"),
    ("trump_open_card_10", changed(PAIRS, ("competition", "rules", "trump_open_card"), 10),
     "competition, rules", "“trump_open_card” must be null, 9 or 13, not 10"),
    ("bye_and_match", changed(PAIRS, (*MD1, "byes"), ["west", "zuid"]),
     "matchday 1", "“zuid” has a bye but also plays match noord-zuid on this matchday"),
    ("bye_unknown_entry", changed(PAIRS, (*MD1, "byes"), ["oost"]),
     "matchday 1", "bye “oost” is not in “entries”"),
    ("bye_twice", changed(PAIRS, (*MD2, "byes"), ["noord", "noord"]),
     "matchday 2", "“noord” has two byes on this matchday"),
    ("bye_a_number", changed(PAIRS, (*MD1, "byes"), [3]),
     "matchday 1", "“byes” must hold entry keys, not a whole number"),
    ("bye_reason_text", changed(PAIRS, (*MD2, "byes"), [{"entry": "noord", "reason": "rr"}]),
     "matchday 2, byes[1]", "“reason” must be an object, not text"),
    ("override_reason_number", changed(PAIRS, (*MD2, "override_reason"), 1),
     "matchday 2", "“override_reason” must be text, not a whole number"),
    ("table_zero", changed(PAIRS, (*M1, "table"), 0),
     "matchday 1, match noord-zuid", "“table” must be at least 1, not 0"),
    ("table_text", changed(PAIRS, (*M1, "table"), "2"),
     "matchday 1, match noord-zuid", "“table” must be a whole number or null, not text"),
    ("pairing_reason_text", changed(PAIRS, (*M1, "pairing_reason"), "closest scores"),
     "matchday 1, match noord-zuid", "“pairing_reason” must be an object, not text"),
    ("forfeit_not_an_object", changed(PAIRS, (*M2, "forfeit"), "away"),
     "matchday 2, match zuid-west, forfeit", "must be an object, not text"),
    ("forfeit_unknown_key", changed(PAIRS, (*M2, "forfeit"), {"side": "away", "why": "x"}),
     "matchday 2, match zuid-west, forfeit", "unknown field “why”"),
    ("forfeit_side_missing", changed(PAIRS, (*M2, "forfeit"), {"reason": "x"}),
     "matchday 2, match zuid-west, forfeit", "“side” is missing"),
    ("forfeit_side_empty", changed(PAIRS, (*M2, "forfeit"), {"side": "", "reason": "x"}),
     "matchday 2, match zuid-west, forfeit", "“” is not a side that can forfeit."),
    ("forfeit_side_unknown", changed(PAIRS, (*M2, "forfeit"), {"side": "west", "reason": "x"}),
     "matchday 2, match zuid-west, forfeit", "“west” is not a side that can forfeit."),
    ("forfeit_reason_missing", changed(PAIRS, (*M2, "forfeit"), {"side": "away"}),
     "matchday 2, match zuid-west, forfeit", "Say why the match is forfeited."),
    ("confirmed_text", changed(PAIRS, (*M1, "games", 0, "confirmed"), "yes"),
     "matchday 1, match noord-zuid, game table 1", "“confirmed” must be true or false, not text"),
    ("confirmed_open_game", changed(PAIRS, (*M1, "games", 0, "rounds"),
                                    [{"result": "kap", "side": "a"}]),
     "matchday 1, match noord-zuid, game table 1", "Only a finished game can be confirmed."),
    ("deductions_not_a_list", changed(PAIRS, ("deductions",), {"entry": "zuid"}),
     "document", "“deductions” must be a list, not an object"),
    ("deduction_unknown_entry", changed(PAIRS, ("deductions", 1, "entry"), "oost"),
     "deductions[2]", "entry “oost” is not in “entries”"),
    ("deduction_zero_points", changed(PAIRS, ("deductions", 1, "points"), 0),
     "deductions[2]", "Deduct between 1 and 1000 points, not 0."),
    ("deduction_points_text", changed(PAIRS, ("deductions", 1, "points"), "3"),
     "deductions[2]", "“points” must be a whole number, not text"),
    ("deduction_blank_reason", changed(PAIRS, ("deductions", 1, "reason"), "  "),
     "deductions[2]", "Say why the points are deducted."),
    ("deduction_reason_missing", changed(PAIRS, ("deductions", 1), {"entry": "west",
                                                                    "points": 1}),
     "deductions[2]", "“reason” is missing"),
    ("deduction_matchday_without_match", changed(PAIRS, ("deductions", 1, "matchday"), 2),
     "deductions[2]", "a deduction for a match gives both “matchday” and “match”"),
    ("deduction_unknown_matchday", changed(PAIRS, ("deductions", 0, "matchday"), 5),
     "deductions[1]", "there is no matchday 5 in “matchdays”"),
    ("deduction_unknown_match", changed(PAIRS, ("deductions", 0, "match"), "west-zuid"),
     "deductions[1]", "matchday 2 has no match “west-zuid” (name it home-away)"),
    ("deduction_entry_not_in_match", changed(PAIRS, ("deductions", 0, "entry"), "noord"),
     "deductions[1]", "“noord” does not play match zuid-west"),
    ("squads_in_pairs", changed(PAIRS, ("squads",), CLUBS["squads"]),
     "squads[kampoe]", "squads belong to a clubs competition; this one is “pairs”"),
    ("squad_club_not_entered", changed(CLUBS, ("squads", 1, "club"), "ekta"),
     "squads[ekta]", "club “ekta” is not in “entries”"),
    ("squad_twice", changed(CLUBS, ("squads", 1, "club"), "kampoe"),
     "squads[kampoe]", "club “kampoe” has two squads"),
    ("squad_other_season", changed(CLUBS, ("squads", 1, "season"), "2025-2026"),
     "squads[toppers]", "the squad's season “2025-2026” is not the competition's (“2026-2027”)"),
    ("squad_bad_lock_date", changed(CLUBS, ("squads", 0, "locked_on"), "1 Sept"),
     "squads[kampoe]", "“locked_on” must be a date like 2026-10-02, not “1 Sept”"),
    ("squad_unknown_player", changed(CLUBS, ("squads", 0, "players", 0), "zoe"),
     "squads[kampoe]", "player “zoe” is not in “players”"),
    ("squad_player_on_two_clubs", changed(CLUBS, ("squads", 1, "players", 0), "anna"),
     "squads[toppers]", "player “anna” is on the squad of “kampoe” too; a player is on one "
     "club's squad a season"),
    ("squad_player_twice", changed(CLUBS, ("squads", 0, "players", 1), "anna"),
     "squads[kampoe]", "player “anna” is on the squad twice"),
    ("two_matches_one_table", changed(PAIRS, (*M2, "table"), 2),
     "matchday 2, match zuid-west", "table 2 is taken"),  # different matchdays: fine
    ("club_sitting_beyond", changed(CLUBS, (*CLUB_GAME, 2, "sitting"), 3),
     "matchday 1, match kampoe-toppers, game sitting 3 table 1",
     "sitting 3, but a club match has 2 sittings here"),
    ("club_table_beyond", changed(CLUBS, (*CLUB_GAME, 1, "table"), 4),
     "matchday 1, match kampoe-toppers, game sitting 1 table 4",
     "table 4, but a club match has 3 tables here"),
    ("koppel_twice_in_a_sitting", changed(CLUBS, (*CLUB_GAME, 1, "team_a"), "k1"),
     "matchday 1, match kampoe-toppers, game sitting 1 table 2",
     "koppel “k1” plays twice in sitting 1"),
    ("club_koppel_of_two_clubs", changed(CLUBS, ("teams", 0, "players"), ["anna", "hans"]),
     "matchday 1, match kampoe-toppers, game sitting 1 table 1",
     "both players of team_a “k1” must belong to “kampoe” or “toppers”"),
    ("club_koppels_of_one_club", changed(CLUBS, (*CLUB_GAME, 0, "team_b"), "k2"),
     "matchday 1, match kampoe-toppers, game sitting 1 table 1",
     "team_a and team_b must play for different clubs of the match"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("data", "place", "message"),
    [case[1:] for case in REFUSED if case[0] != "two_matches_one_table"],
    ids=[case[0] for case in REFUSED if case[0] != "two_matches_one_table"],
)
def test_refused_with_the_place(tmp_path, data, place, message):
    before = row_counts()

    with pytest.raises(CommandError) as info:
        run_import(tmp_path, data)

    text = str(info.value)
    assert f"{place}: " in text
    assert message in text
    assert "Nothing was imported." in text
    assert row_counts() == before


def test_two_matches_at_one_table_of_a_matchday():
    data = copy.deepcopy(PAIRS)
    data["matchdays"][0]["byes"] = []
    data["matchdays"][1]["matches"][0]["table"] = 2  # another matchday: allowed
    competition_import(data=copy.deepcopy(data))
    data["competition"]["slug"] = "other"
    data["matchdays"][0]["matches"].append({"home": "west", "away": "noord", "table": 2})

    with pytest.raises(InterchangeError) as info:
        competition_import(data=data)

    assert info.value.place == "matchday 1, match west-noord"
    assert info.value.message == "table 2 is taken by match noord-zuid on this matchday"

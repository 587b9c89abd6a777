"""Ratings from the data alone (issue 22): the games are rated in a total order read from
the data (`rankings.selectors.GAME_ORDER`), so importing the same seasons in any order
(other ids) gives the same ratings, bit for bit; and a draw between equal koppels moves
no one's mu (openskill before 6.2 rated it as a win for both: pyproject.toml requires
`openskill>=6.2`).
"""

from __future__ import annotations

import copy
import datetime
from typing import Any

import pytest
from django.db import transaction

from interchange.importer import competition_import
from rankings.models import PlayerRating, RatedGame
from rankings.services import MODEL, RANKS, ratings_rebuild
from scoring.services.games import game_close
from tests.builders import pairs_game, play
from tests.factories import CompetitionFactory, MatchdayFactory, TeamEntryFactory, TeamFactory
from tests.seen import game_token_now

pytestmark = pytest.mark.django_db

PLAYERS = ("anna", "bert", "carla", "dirk", "eva", "frank", "gijs", "hanna")
KOPPELS = {
    "noord": ("anna", "carla"),
    "zuid": ("bert", "dirk"),
    "oost": ("eva", "frank"),
    "west": ("anna", "eva"),
    "midden": ("gijs", "hanna"),
}


def _game(home: str, away: str, totals: tuple[int, int], table: int = 1) -> dict[str, Any]:
    return {
        "home": home,
        "away": away,
        "games": [
            {"table": table, "sitting": 1, "team_a": home, "team_b": away, "totals": list(totals)}
        ],
    }


def _competition(slug: str, matchdays: list[dict[str, Any]]) -> dict[str, Any]:
    """A pairs competition of every koppel above; `matchdays` as the format has them."""
    return {
        "format": "troefclub-competition/1",
        "competition": {
            "slug": slug,
            "name": slug.title(),
            "season": "2026-2027",
            "kind": "pairs",
            "rules": {
                "target_score": 20,
                "fixed_rounds": None,
                "kap_partner_allowed": True,
                "stinkende_bonus": {"kap": 0, "baunie": 0},
                "redeal_allowed": True,
            },
            "standings": {"win": 2, "draw": 1, "loss": 0, "tiebreaks": ["points", "saldo"]},
        },
        "clubs": [],
        "players": [{"key": key, "name": key.title()} for key in PLAYERS],
        "teams": [{"key": key, "players": list(pair)} for key, pair in KOPPELS.items()],
        "entries": list(KOPPELS),
        "matchdays": matchdays,
    }


# Two competitions of the same season with games on the same dates, sharing players: the
# order between them decides the ratings. "beker" has a start time on its first evening,
# "avond" none (taken first that day); on 9 October neither has one (then by slug).
AVOND = _competition(
    "avond",
    [
        {
            "number": 1,
            "date": "2026-10-02",
            "matches": [_game("noord", "zuid", (20, 7)), _game("oost", "midden", (12, 20), 2)],
        },
        {"number": 2, "date": "2026-10-09", "matches": [_game("zuid", "oost", (20, 15))]},
    ],
)
BEKER = _competition(
    "beker",
    [
        {
            "number": 1,
            "date": "2026-10-02",
            "time": "14:00",
            "matches": [_game("west", "zuid", (5, 20))],
        },
        {"number": 2, "date": "2026-10-09", "matches": [_game("midden", "noord", (20, 18))]},
        {"number": 3, "date": "2026-10-09", "matches": [_game("noord", "oost", (20, 2))]},
    ],
)


def _reversed(doc: dict[str, Any]) -> dict[str, Any]:
    """The same competition with its people, matchdays and matches listed backwards: the
    rows get their ids in another order."""
    doc = copy.deepcopy(doc)
    for key in ("players", "teams", "entries", "matchdays"):
        doc[key].reverse()
    for matchday in doc["matchdays"]:
        matchday["matches"].reverse()
    return doc


def _ratings_after(*docs: dict[str, Any]) -> tuple[dict[str, tuple[float, float, int]], list]:
    """Import `docs` in this order, rebuild the ratings, and read them by player key, and
    the rated games by place; then undo it all (ids are not reused: the next import's
    rows get other ids)."""
    with transaction.atomic():
        for doc in docs:
            competition_import(data=doc)
        ratings_rebuild()
        ratings = {
            key: (mu, sigma, games)
            for key, mu, sigma, games in PlayerRating.objects.values_list(
                "player__key", "mu", "sigma", "games"
            )
        }
        order = list(
            RatedGame.objects.order_by("position").values_list(
                "game__match__matchday__competition__slug",
                "game__match__matchday__number",
                "game__table",
            )
        )
        transaction.set_rollback(True)
    return ratings, order


IMPORT_ORDERS = {
    "avond then beker": (AVOND, BEKER),
    "beker then avond": (BEKER, AVOND),
    "avond backwards then beker": (_reversed(AVOND), BEKER),
    "beker backwards then avond backwards": (_reversed(BEKER), _reversed(AVOND)),
}


def test_any_import_order_gives_the_same_ratings():
    results = {name: _ratings_after(*docs) for name, docs in IMPORT_ORDERS.items()}
    ratings, order = results["avond then beker"]
    assert order == [
        ("avond", 1, 1),  # 2 October, no start time: before beker's 14:00
        ("avond", 1, 2),
        ("beker", 1, 1),
        ("avond", 2, 1),  # 9 October, no times: by slug, then matchday
        ("beker", 2, 1),
        ("beker", 3, 1),
    ]
    assert set(ratings) == set(PLAYERS)
    for name, (other_ratings, other_order) in results.items():
        assert other_order == order, name
        assert other_ratings == ratings, name  # exactly: the same floats


@pytest.mark.parametrize(
    ("mu", "sigma"), [(25.0, 25.0 / 3.0), (31.0, 4.0), (18.5, 1.2)], ids=["new", "strong", "weak"]
)
def test_a_draw_between_equal_koppels_moves_no_mu(mu, sigma):
    side = [MODEL.rating(mu=mu, sigma=sigma), MODEL.rating(mu=mu, sigma=sigma)]
    other = [MODEL.rating(mu=mu, sigma=sigma), MODEL.rating(mu=mu, sigma=sigma)]
    assert RANKS["draw"][0] == RANKS["draw"][1]  # a draw is a tie in rank
    after = MODEL.rate([side, other], ranks=list(RANKS["draw"]))
    assert [r.mu for r in (*after[0], *after[1])] == pytest.approx([mu] * 4, abs=1e-9)


def test_a_drawn_game_between_new_koppels_leaves_their_ratings_at_the_start():
    league = CompetitionFactory.create(close_by_director_allowed=True)
    day = MatchdayFactory.create(competition=league, number=1, date=datetime.date(2026, 10, 2))
    a, b = TeamFactory.create(), TeamFactory.create()
    game = pairs_game(
        day,
        TeamEntryFactory.create(competition=league, team=a),
        TeamEntryFactory.create(competition=league, team=b),
        table=1,
    )
    play(game, ("kap", "a"), ("kap", "b"))  # 5–5, closed by the director: a draw
    game_close(game_id=game.pk, seen=game_token_now(game_id=game.pk))

    assert ratings_rebuild() == 1
    ratings = PlayerRating.objects.filter(
        player__in=[a.player_1_id, a.player_2_id, b.player_1_id, b.player_2_id]
    )
    assert len(ratings) == 4
    for rating in ratings:
        assert rating.mu == pytest.approx(25.0, abs=1e-9)  # 6.1.x: 26.96 for all four
        assert rating.sigma < 25.0 / 3.0  # a game was rated: only the uncertainty fell

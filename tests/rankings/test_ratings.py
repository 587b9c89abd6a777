"""The player ratings against a hand-computed small season (issue 10: "ratings are tested
against hand-computed small seasons"), and `manage.py ratings`.

The expected numbers are not openskill's: `plackett_luce` below writes out the update of
Weng & Lin 2011 (JMLR 12, "A Bayesian Approximation Method for Online Ranking",
Algorithm 4, Plackett–Luce, with the default gamma sigma_i / c) for two teams of two, in
the closed form two teams give, with openskill's defaults and its additive dynamics tau.
The same formula reproduces the published openskill.py README example exactly
(`test_the_hand_formula_gives_the_published_openskill_example`), which pins the formula
independently of the code under test.
"""

from __future__ import annotations

import datetime
import math
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from rankings.models import PlayerRating, RatedGame, RatingChange
from rankings.services import ratings_rebuild, ratings_refresh
from scoring.services.confirmations import game_confirm
from scoring.services.games import game_close
from tests.builders import finished_game, pairs_game, play
from tests.factories import (
    CompetitionFactory,
    MatchdayFactory,
    TeamEntryFactory,
    TeamFactory,
    UserFactory,
)
from tests.seen import game_token_now
from tournaments.models import Entry, Team

MU, SIGMA = 25.0, 25.0 / 3.0  # a new player
BETA = 25.0 / 6.0
TAU = 25.0 / 300.0
KAPPA = 0.0001

Rating = tuple[float, float]  # (mu, sigma)


def plackett_luce(
    team_a: list[Rating], team_b: list[Rating], winner: str, *, tau: float = TAU
) -> tuple[list[Rating], list[Rating]]:
    """Two teams of two after one game; `winner` "a", "b" or "draw".

    With each sigma first widened by tau (sigma² + tau²), team i has mu_i = Σ mu and
    sigma_i² = Σ sigma², c = √(sigma_a² + sigma_b² + 2·beta²), and
    p_i = e^(mu_i/c) / (e^(mu_a/c) + e^(mu_b/c)), the chance the model gave i to win.
    Algorithm 4 then gives, for two teams:
        Omega_i = sigma_i²/c · (1 − p_i) for the winner, −sigma_i²/c · p_i for the loser,
                  sigma_i²/c · (1/2 − p_i) for either side of a draw (both rank 1, A_q = 2);
        Delta_i = gamma_i · sigma_i²/c² · p_i(1 − p_i), gamma_i = sigma_i / c (all cases);
    and each player j of team i:
        mu_j ← mu_j + sigma_j²/sigma_i² · Omega_i,
        sigma_j ← sigma_j · √max(1 − sigma_j²/sigma_i² · Delta_i, kappa).
    """
    a = [(mu, math.sqrt(sigma**2 + tau**2)) for mu, sigma in team_a]
    b = [(mu, math.sqrt(sigma**2 + tau**2)) for mu, sigma in team_b]
    mu_a, mu_b = sum(mu for mu, _ in a), sum(mu for mu, _ in b)
    var_a, var_b = sum(s**2 for _, s in a), sum(s**2 for _, s in b)
    c = math.sqrt(var_a + var_b + 2 * BETA**2)
    p_a = math.exp(mu_a / c) / (math.exp(mu_a / c) + math.exp(mu_b / c))
    p_b = 1 - p_a
    if winner == "a":
        omega_a, omega_b = 1 - p_a, -p_b
    elif winner == "b":
        omega_a, omega_b = -p_a, 1 - p_b
    else:
        omega_a, omega_b = 0.5 - p_a, 0.5 - p_b

    def update(team: list[Rating], var: float, omega: float, p: float) -> list[Rating]:
        big_omega = var / c * omega
        big_delta = (math.sqrt(var) / c) * var / c**2 * p * (1 - p)
        return [
            (
                mu + sigma**2 / var * big_omega,
                sigma * math.sqrt(max(1 - sigma**2 / var * big_delta, KAPPA)),
            )
            for mu, sigma in team
        ]

    return update(a, var_a, omega_a, p_a), update(b, var_b, omega_b, p_b)


def test_the_hand_formula_gives_the_published_openskill_example():
    # openskill.py's README (versions 1-3, before tau): a1, a2 beat b1, b2.
    after_a, after_b = plackett_luce(
        [(25, 25 / 3), (32.444, 5.123)], [(43.381, 2.421), (25.188, 6.211)], "a", tau=0
    )
    published = [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    assert [*after_a, *after_b] == [pytest.approx(pair, abs=1e-12) for pair in published]


class Season:
    """Expected ratings: the hand formula applied game after game."""

    def __init__(self) -> None:
        self.ratings: dict[int, Rating] = {}
        self.games: dict[int, int] = {}
        self.after: list[dict[int, Rating]] = []  # each rated game's four players after it

    def play(self, a: Team, b: Team, winner: str) -> None:
        team_a = [self.ratings.get(p, (MU, SIGMA)) for p in (a.player_1_id, a.player_2_id)]
        team_b = [self.ratings.get(p, (MU, SIGMA)) for p in (b.player_1_id, b.player_2_id)]
        new_a, new_b = plackett_luce(team_a, team_b, winner)
        players = (a.player_1_id, a.player_2_id, b.player_1_id, b.player_2_id)
        after = dict(zip(players, [*new_a, *new_b], strict=True))
        self.ratings.update(after)
        for player in players:
            self.games[player] = self.games.get(player, 0) + 1
        self.after.append(after)


def stored_changes() -> list[dict[int, Rating]]:
    by_position: dict[int, dict[int, Rating]] = {}
    for position, player, mu, sigma in RatingChange.objects.values_list(
        "rated_game__position", "player_id", "mu", "sigma"
    ):
        by_position.setdefault(position, {})[player] = (mu, sigma)
    return [by_position[position] for position in sorted(by_position)]


def assert_ratings(season: Season) -> None:
    assert list(RatedGame.objects.values_list("position", flat=True)) == list(
        range(1, len(season.after) + 1)
    )
    stored = stored_changes()
    assert len(stored) == len(season.after)
    for got, expected in zip(stored, season.after, strict=True):
        assert got.keys() == expected.keys()
        for player, pair in expected.items():
            assert got[player] == pytest.approx(pair, abs=1e-9)
    ratings = {r.player_id: (r.mu, r.sigma, r.ordinal, r.games) for r in PlayerRating.objects.all()}
    assert ratings.keys() == season.ratings.keys()
    for player, (mu, sigma) in season.ratings.items():
        current = (mu, sigma, mu - 3 * sigma, season.games[player])
        assert ratings[player] == pytest.approx(current, abs=1e-9)


def enter(competition, team: Team) -> Entry:
    return TeamEntryFactory.create(competition=competition, team=team)


@pytest.fixture
def koppels(db) -> list[Team]:
    return [TeamFactory.create() for _ in range(4)]


def test_a_small_season_is_rated_as_computed_by_hand(koppels):
    k1, k2, k3, k4 = koppels
    league = CompetitionFactory.create(close_by_director_allowed=True)
    e1, e2, e3, e4 = (enter(league, k) for k in koppels)
    undated = MatchdayFactory.create(competition=league, number=1, date=None)
    first = MatchdayFactory.create(competition=league, number=2, date=datetime.date(2026, 10, 2))
    second = MatchdayFactory.create(competition=league, number=3, date=datetime.date(2026, 10, 9))
    # Made in another order than they are rated: the date decides, a game without one first.
    won_by_a = finished_game(pairs_game(second, e1, e2, table=1), winner="a")
    drawn = pairs_game(first, e1, e3, table=1)
    play(drawn, ("kap", "a"), ("kap", "b"))  # 5–5, then closed by the director: a draw
    game_close(game_id=drawn.pk, seen=game_token_now(game_id=drawn.pk))
    won_by_b = finished_game(pairs_game(undated, e2, e3, table=1), winner="b")
    in_play = pairs_game(second, e3, e4, table=2)
    play(in_play, ("kap", "a"))  # still open: not rated

    assert ratings_refresh() == 3

    season = Season()
    season.play(k2, k3, "b")
    season.play(k1, k3, "draw")
    season.play(k1, k2, "a")
    assert_ratings(season)
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [
        won_by_b.pk,
        drawn.pk,
        won_by_a.pk,
    ]
    assert RatedGame.objects.get(game=drawn).signature == (
        f"2026-10-02 {k1.player_1_id},{k1.player_2_id} {k3.player_1_id},{k3.player_2_id} draw"
    )
    assert not PlayerRating.objects.filter(player__in=[k4.player_1_id, k4.player_2_id]).exists()


def test_an_unconfirmed_game_counts_once_confirmed(koppels):
    k1, k2, k3, k4 = koppels
    league = CompetitionFactory.create()
    earlier = MatchdayFactory.create(competition=league, date=datetime.date(2026, 10, 2))
    played = finished_game(pairs_game(earlier, enter(league, k1), enter(league, k2), table=1))
    cup = CompetitionFactory.create(confirmation_required=True)
    later = MatchdayFactory.create(competition=cup, date=datetime.date(2026, 10, 9))
    waiting = finished_game(pairs_game(later, enter(cup, k1), enter(cup, k3), table=1), winner="b")
    season = Season()
    season.play(k1, k2, "a")

    assert ratings_refresh() == 1
    assert_ratings(season)
    assert list(RatedGame.objects.values_list("game_id", flat=True)) == [played.pk]

    game_confirm(
        game_id=waiting.pk, user=UserFactory.create(), seen=game_token_now(game_id=waiting.pk)
    )
    assert ratings_refresh() == 1  # appended: the game before it is not rated again

    season.play(k1, k3, "b")
    assert_ratings(season)


def test_a_second_refresh_changes_nothing(koppels):
    k1, k2, *_ = koppels
    league = CompetitionFactory.create()
    day = MatchdayFactory.create(competition=league)
    finished_game(pairs_game(day, enter(league, k1), enter(league, k2), table=1))
    assert ratings_refresh() == 1
    before = list(RatingChange.objects.values_list("pk", "mu", "sigma"))

    with CaptureQueriesContext(connection) as captured:
        assert ratings_refresh() == 0

    # The lock, the games, the rated games (and the savepoint of the test's transaction).
    statements = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 3, statements
    assert all(sql.startswith("SELECT") for sql in statements)

    assert list(RatingChange.objects.values_list("pk", "mu", "sigma")) == before


def test_a_game_between_koppels_sharing_a_player_is_not_rated(koppels):
    k1, k2, *_ = koppels
    shared = TeamFactory.create(player_1=k1.player_1)
    league = CompetitionFactory.create()
    day = MatchdayFactory.create(competition=league)
    # Only seated games are held to four different players (a bad import, say).
    first = enter(league, k1)
    bad = pairs_game(day, first, enter(league, shared), table=1, seated=False)
    finished_game(bad)
    later = MatchdayFactory.create(competition=league)
    finished_game(pairs_game(later, enter(league, k2), first, table=1))

    assert ratings_refresh() == 1
    assert RatingChange.objects.count() == 4


def test_the_command_refreshes_and_rebuilds(koppels):
    k1, k2, *_ = koppels
    league = CompetitionFactory.create()
    day = MatchdayFactory.create(competition=league)
    finished_game(pairs_game(day, enter(league, k1), enter(league, k2), table=1))

    def run(*args: str) -> str:
        out = StringIO()
        with translation.override("en"):
            call_command("ratings", *args, stdout=out)
        return out.getvalue().strip()

    assert run() == "Ratings updated: 1 game rated."
    assert run() == "Ratings are up to date: no game to rate."
    mu = PlayerRating.objects.get(player=k1.player_1).mu
    assert run("--rebuild") == "Ratings rebuilt: 1 game rated."
    assert PlayerRating.objects.get(player=k1.player_1).mu == mu
    assert ratings_rebuild() == 1

"""factory_boy factories for the whole suite.

`GameFactory` makes a pairs-competition game with its match, matchday, entries and all four
seats filled (seats 1 and 3 are koppel A), so callers can be recorded straight away.
"""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User

from scoring.models import Game
from tournaments.models import Club, Competition, Entry, Match, Matchday, Player, Team


class UserFactory(factory.django.DjangoModelFactory[User]):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pass-word-123")


class ClubFactory(factory.django.DjangoModelFactory[Club]):
    class Meta:
        model = Club

    key = factory.Sequence(lambda n: f"club-{n}")
    name = factory.Sequence(lambda n: f"Club {n}")


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    key = factory.Sequence(lambda n: f"p{n}")
    name = factory.Sequence(lambda n: f"Player {n}")


class TeamFactory(factory.django.DjangoModelFactory[Team]):
    class Meta:
        model = Team

    key = factory.Sequence(lambda n: f"t{n}")
    player_1 = factory.SubFactory(PlayerFactory)
    player_2 = factory.SubFactory(PlayerFactory)


class CompetitionFactory(factory.django.DjangoModelFactory[Competition]):
    class Meta:
        model = Competition

    slug = factory.Sequence(lambda n: f"competition-{n}")
    name = factory.Sequence(lambda n: f"Competition {n}")
    season = "2026-2027"
    tiebreaks = ["points", "saldo", "points_for", "head_to_head"]


class TeamEntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    competition = factory.SubFactory(CompetitionFactory)
    team = factory.SubFactory(TeamFactory)


class ClubEntryFactory(factory.django.DjangoModelFactory[Entry]):
    class Meta:
        model = Entry

    competition = factory.SubFactory(CompetitionFactory, kind=Competition.Kind.CLUBS)
    club = factory.SubFactory(ClubFactory)


class MatchdayFactory(factory.django.DjangoModelFactory[Matchday]):
    class Meta:
        model = Matchday

    competition = factory.SubFactory(CompetitionFactory)
    number = factory.Sequence(lambda n: n + 1)
    date = factory.LazyFunction(lambda: datetime.date(2026, 10, 2))


class MatchFactory(factory.django.DjangoModelFactory[Match]):
    class Meta:
        model = Match

    matchday = factory.SubFactory(MatchdayFactory)
    home = factory.SubFactory(
        TeamEntryFactory, competition=factory.SelfAttribute("..matchday.competition")
    )
    away = factory.SubFactory(
        TeamEntryFactory, competition=factory.SelfAttribute("..matchday.competition")
    )


class GameFactory(factory.django.DjangoModelFactory[Game]):
    """A game of a pairs match: koppel A is the home entry's team, B the away one's."""

    class Meta:
        model = Game

    class Params:
        competition = factory.SubFactory(CompetitionFactory)

    match = factory.SubFactory(
        MatchFactory,
        matchday=factory.SubFactory(
            MatchdayFactory, competition=factory.SelfAttribute("...competition")
        ),
    )
    table = 1
    sitting = 1
    team_a = factory.SelfAttribute("match.home.team")
    team_b = factory.SelfAttribute("match.away.team")
    seat_1 = factory.SelfAttribute("team_a.player_1")
    seat_2 = factory.SelfAttribute("team_b.player_1")
    seat_3 = factory.SelfAttribute("team_a.player_2")
    seat_4 = factory.SelfAttribute("team_b.player_2")


def league_staff() -> User:
    """A staff member allowed to direct every competition (the league's own people)."""
    from django.contrib.auth.models import Permission

    user = UserFactory.create(is_staff=True)
    user.user_permissions.add(Permission.objects.get(codename="direct_every_competition"))
    return User.objects.get(pk=user.pk)  # fresh: the permission cache is empty


def koppel_entries(competition: Competition, count: int) -> list[Entry]:
    """`count` entries of `competition`, each a new koppel of two new players (the shape
    the league-size tests build their competitions from)."""
    return [
        TeamEntryFactory.create(
            competition=competition,
            team=TeamFactory.create(
                player_1=PlayerFactory.create(), player_2=PlayerFactory.create()
            ),
        )
        for _ in range(count)
    ]

"""Squads in the admin: a member is added on the squad's page, and a player is on the
squad of one club a season; from the squad's lock date on no member is added or removed,
and the refusal says why."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from tests.admin_pages import admin_url, inline_management
from tests.factories import ClubFactory, PlayerFactory
from tournaments.models import Squad, SquadMember

pytestmark = pytest.mark.django_db


def test_a_squad_member_after_the_lock_date_is_refused_with_the_message(admin_client):
    yesterday = timezone.localdate() - datetime.timedelta(days=1)
    squad = Squad.objects.create(club=ClubFactory.create(name="Kampoe"), season="2026-2027",
                                 locked_on=yesterday)  # fmt: skip
    player = PlayerFactory.create()
    data = {"locked_on": yesterday.isoformat(), **inline_management("members", 1, 0)}
    data["members-0-player"] = player.pk

    response = admin_client.post(admin_url(Squad, "change", squad.pk), data)

    assert response.status_code == 200
    assert "The squad of Kampoe 2026-2027 is locked since" in response.content.decode()
    assert not SquadMember.objects.exists()

    response = admin_client.post(
        admin_url(SquadMember, "add"), {"squad": squad.pk, "player": player.pk}
    )
    assert response.status_code == 200
    assert "is locked since" in response.content.decode()
    assert not SquadMember.objects.exists()


def test_a_squad_member_is_added_and_one_club_a_season_holds(admin_client):
    kampoe = Squad.objects.create(club=ClubFactory.create(name="Kampoe"), season="2026-2027")
    toppers = Squad.objects.create(club=ClubFactory.create(name="Toppers"), season="2026-2027")
    player = PlayerFactory.create(name="Anna")
    data = {"locked_on": "", **inline_management("members", 1, 0), "members-0-player": player.pk}

    response = admin_client.post(admin_url(Squad, "change", kampoe.pk), data)
    assert response.status_code == 302
    assert SquadMember.objects.get().squad == kampoe

    response = admin_client.post(admin_url(Squad, "change", toppers.pk), data)
    assert response.status_code == 200
    assert "Anna is on the squad of Kampoe for 2026-2027" in response.content.decode()
    assert SquadMember.objects.count() == 1


def test_a_locked_squad_member_cannot_be_removed(admin_client):
    squad = Squad.objects.create(club=ClubFactory.create(name="Kampoe"), season="2026-2027")
    member = SquadMember.objects.create(
        squad=squad, player=PlayerFactory.create(), season="2026-2027"
    )
    squad.locked_on = timezone.localdate()
    squad.save()
    data = {"locked_on": squad.locked_on.isoformat(), **inline_management("members", 1, 1)}
    data |= {"members-0-id": member.pk, "members-0-squad": squad.pk, "members-0-DELETE": "on"}

    response = admin_client.post(admin_url(Squad, "change", squad.pk), data)

    assert response.status_code == 200
    assert "is locked since" in response.content.decode()
    assert SquadMember.objects.filter(pk=member.pk).exists()
    assert admin_client.get(admin_url(SquadMember, "delete", member.pk)).status_code == 403

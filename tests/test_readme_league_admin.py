"""README "Who may do what" (issue 18: it did not say how to make a league admin account):
its command makes an account that runs the league, and its recipe for a league admin who
is not a superuser gives the two league permissions a director lacks."""

from __future__ import annotations

import re
import shlex

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.core.management import call_command

from tests.admin_pages import admin_url
from tests.factories import CompetitionFactory, UserFactory
from tests.paths import REPO_ROOT
from tournaments.models import Competition

pytestmark = pytest.mark.django_db


def league_admin_commands() -> list[list[str]]:
    """The `manage.py` commands of the README's ```sh blocks in "Who may do what"."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## Who may do what", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"^```sh\n(.*?)^```", section, flags=re.M | re.S)
    lines = [line.split(" #")[0].strip() for block in blocks for line in block.splitlines()]
    return [shlex.split(line)[2:] for line in lines if line.startswith(".venv/bin/python")]


def test_the_readme_command_makes_a_league_admin(client, monkeypatch):
    commands = league_admin_commands()
    assert [command[0] for command in commands] == ["createsuperuser"]
    competition = CompetitionFactory.create()
    monkeypatch.setenv("DJANGO_SUPERUSER_PASSWORD", "a-league-password-2026")

    for command in commands:  # as typed, but the password from the environment
        call_command(*command, "--noinput")

    user = get_user_model().objects.get()
    assert user.check_password("a-league-password-2026")
    client.force_login(user)
    assert client.get("/admin/").status_code == 200
    assert competition.is_directed_by(user)
    page = client.get(admin_url(Competition, "change", competition.pk))
    assert "directors" in page.context["adminform"].form.fields  # assigns directors


def test_the_readme_recipe_without_superuser_gives_the_league_permissions(client):
    """Staff with every permission of tournaments, scoring and rankings: directs every
    competition and assigns directors; the demo director's permissions lack both."""
    user = UserFactory.create(is_staff=True)
    user.user_permissions.add(
        *Permission.objects.filter(
            content_type__app_label__in=["tournaments", "scoring", "rankings"]
        )
    )
    competition = CompetitionFactory.create()
    client.force_login(user)

    page = client.get(admin_url(Competition, "change", competition.pk))

    assert page.status_code == 200
    assert "directors" in page.context["adminform"].form.fields
    assert competition.is_directed_by(user)
    assert not user.is_superuser
    assert client.get(admin_url(get_user_model(), "changelist")).status_code == 403

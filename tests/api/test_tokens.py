"""Personal API tokens (issue 21): made and revoked on the user's page and in the admin,
stored hashed, shown once; a revoked token or one of an inactive user opens nothing."""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.contrib.admin.models import LogEntry
from django.contrib.auth.models import Permission
from django.db import connection
from django.urls import reverse

from api.models import ApiToken
from api.services import api_token_create, api_token_digest, api_token_revoke
from tests.admin_pages import admin_url, said, save_as_shown, snapshot
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

PAGE = "/accounts/api-tokens/"
REVOKE = "/accounts/api-tokens/revoke/"
TOKEN = re.compile(r"tc_[A-Za-z0-9_-]{43}")


def _api_get(client: Any, token: str) -> Any:
    return client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=f"Bearer {token}")


def _sent(**fields: Any) -> dict[str, Any]:
    """A form's fields as its page sends them: with the form's one-time key."""
    return {**fields, "key": str(uuid.uuid4())}


def _every_stored_text() -> str:
    """Every text column of the api tables as stored (what a database dump would hold)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT user_id, name, prefix, digest FROM api_apitoken")
        return " ".join(str(value) for row in cursor.fetchall() for value in row)


# ---------------------------------------------------------------- the user's page


def test_the_page_wants_a_login(client):
    answer = client.get(PAGE)

    assert answer.status_code == 302
    assert answer.url.startswith(reverse("login"))


def test_the_header_links_the_page_for_a_logged_in_user(client):
    client.force_login(UserFactory.create())

    page = client.get(reverse("competition_list")).content.decode()

    assert f'href="{PAGE}"' in page


def test_a_token_made_on_the_page_is_shown_once_and_stored_hashed(client):
    user = UserFactory.create()
    client.force_login(user)

    made = client.post(PAGE, _sent(name="federation website"))

    assert made.status_code == 200  # the answer itself, no redirect with the token in it
    assert "no-store" in made["Cache-Control"]
    plain = TOKEN.findall(made.content.decode())
    assert len(plain) == 1
    token = ApiToken.objects.get(user=user)
    assert token.name == "federation website"
    assert token.digest == api_token_digest(plain[0])
    assert plain[0] not in _every_stored_text()
    assert token.prefix == plain[0][:11]
    # Never again: the list shows the prefix only.
    again = client.get(PAGE).content.decode()
    assert plain[0] not in again
    assert token.prefix in again
    assert _api_get(client, plain[0]).status_code == 200


def test_the_page_lists_only_the_users_own_tokens(client):
    user = UserFactory.create()
    api_token_create(user=user, name="spreadsheet")
    api_token_create(user=UserFactory.create(), name="someone else's")
    client.force_login(user)

    page = client.get(PAGE).content.decode()

    assert "spreadsheet" in page
    assert "someone else" not in page


@pytest.mark.parametrize("name", ["", "   ", "a" * 101, "tab\there"])
def test_a_token_without_a_fitting_name_is_refused_with_the_reason(client, name):
    client.force_login(UserFactory.create())

    answer = client.post(PAGE, _sent(name=name))

    assert answer.status_code == 200
    assert answer.context["form"].errors["name"]
    assert not ApiToken.objects.exists()
    assert not TOKEN.search(answer.content.decode())


def test_revoking_on_the_page_asks_first_then_the_token_opens_nothing(client):
    user = UserFactory.create()
    token, plain = api_token_create(user=user, name="scorer app")
    client.force_login(user)

    asked = client.post(REVOKE, {"token": token.pk})

    assert asked.status_code == 200
    assert b'name="confirmed"' in asked.content
    token.refresh_from_db()
    assert token.revoked_at is None

    done = client.post(REVOKE, {"token": token.pk, "confirmed": "true"})

    assert done.status_code == 302 and done.url == PAGE
    assert "revoked" in said(done)
    token.refresh_from_db()
    assert token.revoked_at is not None
    client.logout()
    assert _api_get(client, plain).status_code == 401


def test_revoking_twice_writes_nothing_the_second_time(client):
    user = UserFactory.create()
    token, _plain = api_token_create(user=user, name="scorer app")
    client.force_login(user)
    client.post(REVOKE, {"token": token.pk, "confirmed": "true"})
    before = snapshot(token)

    again = client.post(REVOKE, {"token": token.pk, "confirmed": "true"})

    assert again.status_code == 302
    assert "already" in said(again)
    assert snapshot(token) == before


@pytest.mark.parametrize("posted", ["other", "", "abc", "0", "99999999999999999999999"])
def test_nobody_revokes_a_token_not_theirs(client, posted):
    other, _plain = api_token_create(user=UserFactory.create(), name="theirs")
    client.force_login(UserFactory.create())
    value = str(other.pk) if posted == "other" else posted

    answer = client.post(REVOKE, {"token": value, "confirmed": "true"})

    assert answer.status_code == 302
    assert "no such API token" in said(answer)
    other.refresh_from_db()
    assert other.revoked_at is None


def test_revoke_takes_no_get(client):
    client.force_login(UserFactory.create())

    assert client.get(REVOKE).status_code == 405


# ---------------------------------------------------------------- the admin


def _league_admin() -> Any:
    return UserFactory.create(is_staff=True, is_superuser=True)


def test_the_admin_makes_a_token_through_the_service_and_shows_it_once(client):
    client.force_login(_league_admin())
    owner = UserFactory.create(username="federatie")

    made = client.post(admin_url(ApiToken, "add"), _sent(user=owner.pk, name="website"))

    assert made.status_code == 200
    assert "no-store" in made["Cache-Control"]
    plain = TOKEN.findall(made.content.decode())
    assert len(plain) == 1
    token = ApiToken.objects.get(user=owner)
    assert token.digest == api_token_digest(plain[0])
    assert plain[0] not in _every_stored_text()
    assert LogEntry.objects.filter(object_id=str(token.pk)).count() == 1
    for page in (admin_url(ApiToken, "change", token.pk), admin_url(ApiToken, "changelist")):
        shown = client.get(page).content.decode()
        assert plain[0] not in shown
        assert token.digest not in shown
    assert token.prefix in client.get(admin_url(ApiToken, "changelist")).content.decode()


def test_the_admin_searches_tokens_by_user_and_name(client):
    client.force_login(_league_admin())
    api_token_create(user=UserFactory.create(username="federatie"), name="website")
    api_token_create(user=UserFactory.create(username="club"), name="spreadsheet")

    found = client.get(admin_url(ApiToken, "changelist"), {"q": "federatie"})

    assert found.status_code == 200
    assert [token.name for token in found.context["cl"].result_list] == ["website"]


def test_the_admin_action_revokes_through_the_service(client):
    client.force_login(_league_admin())
    token, plain = api_token_create(user=UserFactory.create(), name="website")

    done = client.post(
        admin_url(ApiToken, "changelist"),
        {"action": "revoke_tokens", "_selected_action": [token.pk]},
    )

    assert done.status_code == 302
    assert "1 API token revoked" in said(done)
    token.refresh_from_db()
    assert token.revoked_at is not None
    client.logout()
    assert _api_get(client, plain).status_code == 401


def test_an_unchanged_admin_save_writes_nothing(client):
    client.force_login(_league_admin())
    token, _plain = api_token_create(user=UserFactory.create(), name="website")
    before = snapshot(token)

    saved = save_as_shown(client, token)

    assert saved.status_code == 302
    assert snapshot(token) == before
    assert not LogEntry.objects.exists()


def test_only_a_superuser_makes_a_token_for_somebody_else(client):
    staff = UserFactory.create(is_staff=True)
    staff.user_permissions.add(*Permission.objects.filter(codename__endswith="apitoken"))
    client.force_login(staff)
    boss = UserFactory.create(is_staff=True, is_superuser=True)

    answer = client.post(admin_url(ApiToken, "add"), {"user": boss.pk, "name": "mine now"})

    assert answer.status_code == 403
    assert not ApiToken.objects.exists()


def test_the_admin_deletes_no_token(client):
    client.force_login(_league_admin())
    token, _plain = api_token_create(user=UserFactory.create(), name="website")

    assert client.post(admin_url(ApiToken, "delete", token.pk), {"post": "yes"}).status_code == 403
    assert ApiToken.objects.filter(pk=token.pk).exists()


# ---------------------------------------------------------------- what opens the API


def test_a_revoked_token_is_refused_401(client):
    user = UserFactory.create()
    token, plain = api_token_create(user=user, name="website")
    assert _api_get(client, plain).status_code == 200
    api_token_revoke(token_id=token.pk, user=user)
    answer = _api_get(client, plain)

    assert answer.status_code == 401
    assert answer.json()["code"] == "authentication_failed"
    assert answer["WWW-Authenticate"].startswith("Bearer")


def test_a_token_of_an_inactive_user_is_refused_401(client):
    user = UserFactory.create()
    _token, plain = api_token_create(user=user, name="website")
    user.is_active = False
    user.save()

    assert _api_get(client, plain).status_code == 401


@pytest.mark.parametrize(
    "header",
    ["Bearer tc_unknown", "Bearer", "Bearer a b", "bearer tc_unknown", "Bearer tc_\u00e9"],
)
def test_an_unknown_or_malformed_bearer_is_refused_401(client, header):
    answer = client.get("/api/v1/clubs/", HTTP_AUTHORIZATION=header)

    assert answer.status_code == 401
    assert set(answer.json()) >= {"code", "message"}

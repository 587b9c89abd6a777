"""Personal API tokens (issue 21, a tester's findings):

1. A form that makes a token carries a one-time key (made when it is shown): sent again
   (F5 on the answer, a double click) it makes no second token, on the user's page, in the
   admin and in the service, and says the token made then was shown once.
2. A token's name is a name as a player's is (`troefclub.bidi`): stored without bidi
   controls whatever the door, shown isolated; control characters refused with the house's
   message, in the service too.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

import pytest
from django.db.models import QuerySet

from api.models import ApiToken
from api.services import api_token_create
from scoring.rules import RuleViolation
from tests.admin_pages import admin_url, said, snapshot
from tests.factories import UserFactory
from troefclub.rule_messages import rule_message

pytestmark = pytest.mark.django_db

PAGE = "/accounts/api-tokens/"
TOKEN = re.compile(r"tc_[A-Za-z0-9_-]{43}")
KEY = re.compile(r'<input type="hidden" name="key" value="([0-9a-f-]{36})"')
RLO = "\u202e"


def _key(page: Any) -> str:
    """The one-time key of the token form on `page` (an answer)."""
    keys = KEY.findall(page.content.decode())
    assert len(keys) == 1, keys
    return keys[0]


def _league_admin() -> Any:
    return UserFactory.create(is_staff=True, is_superuser=True)


# ---------------------------------------------------------------- 1. sent once


def test_the_page_form_sent_again_makes_no_second_token(client):
    user = UserFactory.create()
    client.force_login(user)
    sent = {"name": "website", "key": _key(client.get(PAGE))}
    made = client.post(PAGE, sent)
    assert made.status_code == 200 and len(TOKEN.findall(made.content.decode())) == 1
    before = snapshot(ApiToken.objects.get(user=user))

    again = client.post(PAGE, sent)  # F5 on the answer

    assert again.status_code == 302 and again.url == PAGE  # the next F5 is a GET
    assert "This form was sent already" in said(again)
    assert "revoke it and make a new one" in said(again)
    assert ApiToken.objects.count() == 1
    assert snapshot(ApiToken.objects.get(user=user)) == before
    assert not TOKEN.search(client.get(PAGE).content.decode())


@pytest.mark.nl
def test_the_page_says_in_dutch_that_the_form_was_sent_already(client):
    client.force_login(UserFactory.create())
    sent = {"name": "website", "key": _key(client.get(PAGE))}
    client.post(PAGE, sent)

    again = client.post(PAGE, sent, follow=True)

    page = again.content.decode()
    assert "Dit formulier is al verstuurd" in page
    assert "trek het dan in en maak een nieuw" in page
    assert not TOKEN.search(page)


def test_each_page_shown_has_its_own_key_and_the_answer_a_fresh_one(client):
    client.force_login(UserFactory.create())
    first, second = _key(client.get(PAGE)), _key(client.get(PAGE))

    made = client.post(PAGE, {"name": "website", "key": first})

    assert len({first, second, _key(made)}) == 3
    assert client.post(PAGE, {"name": "app", "key": second}).status_code == 200
    assert ApiToken.objects.count() == 2


def test_a_refused_form_keeps_its_key_and_makes_the_token_when_put_right(client):
    client.force_login(UserFactory.create())
    key = _key(client.get(PAGE))

    refused = client.post(PAGE, {"name": "tab\there", "key": key})

    assert refused.context["form"].errors["name"] and _key(refused) == key
    made = client.post(PAGE, {"name": "website", "key": key})
    assert len(TOKEN.findall(made.content.decode())) == 1
    assert ApiToken.objects.count() == 1


@pytest.mark.parametrize("key", [None, "", "not-a-uuid"])
def test_a_form_without_its_key_makes_nothing(client, key):
    client.force_login(UserFactory.create())
    sent = {"name": "website"} if key is None else {"name": "website", "key": key}

    answer = client.post(PAGE, sent)

    assert answer.status_code == 200
    assert "reload the page" in " ".join(answer.context["form"].non_field_errors())
    assert "reload the page" in answer.content.decode()
    assert not ApiToken.objects.exists()


def test_the_admin_add_form_sent_again_makes_no_second_token(client):
    client.force_login(_league_admin())
    owner = UserFactory.create()
    sent = {
        "user": owner.pk,
        "name": "website",
        "key": _key(client.get(admin_url(ApiToken, "add"))),
    }
    made = client.post(admin_url(ApiToken, "add"), sent)
    assert made.status_code == 200 and len(TOKEN.findall(made.content.decode())) == 1

    again = client.post(admin_url(ApiToken, "add"), sent)

    assert again.status_code == 302 and again.url == admin_url(ApiToken, "changelist")
    assert "This form was sent already" in said(again)
    assert ApiToken.objects.count() == 1
    assert str(ApiToken.objects.get().form_key) == sent["key"]


def test_the_admin_add_form_without_its_key_makes_nothing(client):
    client.force_login(_league_admin())

    answer = client.post(admin_url(ApiToken, "add"), {"user": UserFactory.create().pk, "name": "x"})

    assert answer.status_code == 200
    assert "reload the page" in answer.content.decode()
    assert not ApiToken.objects.exists()


def test_the_service_makes_one_token_per_form_key():
    user, key = UserFactory.create(), uuid.uuid4()
    token, _plain = api_token_create(user=user, name="website", form_key=key)

    with pytest.raises(RuleViolation) as refused:
        api_token_create(user=user, name="other name", form_key=key)

    assert refused.value.code == "api_token_sent_already"
    assert list(ApiToken.objects.all()) == [token]
    # Without a key (a shell): no such check.
    api_token_create(user=user, name="website")
    api_token_create(user=user, name="website")
    assert ApiToken.objects.count() == 3


def test_the_service_refuses_a_key_stored_meanwhile_by_the_same_form_sent_at_once(monkeypatch):
    # Two requests of one form at once: both find no token with the key; the second's row
    # breaks the key's unique index, which is said as "sent already", not a 500.
    user, key = UserFactory.create(), uuid.uuid4()
    api_token_create(user=user, name="website", form_key=key)
    real_exists = QuerySet.exists
    answers = iter([False])
    monkeypatch.setattr(QuerySet, "exists", lambda qs: next(answers, None) or real_exists(qs))

    with pytest.raises(RuleViolation) as refused:
        api_token_create(user=user, name="website", form_key=key)

    assert refused.value.code == "api_token_sent_already"
    assert ApiToken.objects.count() == 1


# ---------------------------------------------------------------- 2. the name


NAMES = [
    # (typed, stored)
    (f"{RLO}evil", "evil"),
    ("\u2066website\u2069 app", "website app"),
    ("\u2067a\u2068b\u202ac\u202bd\u202ce\u202d", "abcde"),
    ("\u200escorer\u200f\u061c", "scorer"),
    ("דוד כהן", "דוד כהן"),  # a Hebrew name needs no controls: kept as typed
    ("می\u200cخواهم", "می\u200cخواهم"),  # a zero-width non-joiner is spelling: kept
    ("Kolibrie\u0308", "Kolibrië"),  # NFC, as every name
]


@pytest.mark.parametrize(("typed", "stored"), NAMES)
def test_the_service_stores_a_name_without_bidi_controls(typed, stored):
    token, _plain = api_token_create(user=UserFactory.create(), name=typed)

    token.refresh_from_db()
    assert token.name == stored


@pytest.mark.parametrize(("typed", "stored"), NAMES)
def test_the_page_stores_and_shows_a_name_without_bidi_controls(client, typed, stored):
    client.force_login(UserFactory.create())

    made = client.post(PAGE, {"name": typed, "key": _key(client.get(PAGE))})

    assert ApiToken.objects.get().name == stored
    for page in (made, client.get(PAGE)):
        assert f"<strong><bdi>{stored}</bdi></strong>" in page.content.decode()
        assert not re.search("[\u202a-\u202e\u2066-\u2069\u200e\u200f]", page.content.decode())


@pytest.mark.parametrize(("typed", "stored"), NAMES)
def test_the_admin_stores_a_name_without_bidi_controls_added_or_renamed(client, typed, stored):
    client.force_login(_league_admin())
    owner = UserFactory.create()
    add = admin_url(ApiToken, "add")
    client.post(add, {"user": owner.pk, "name": typed, "key": _key(client.get(add))})
    token = ApiToken.objects.get()
    assert token.name == stored
    api_token_create(user=owner, name="renamed")
    other = ApiToken.objects.exclude(pk=token.pk).get()

    client.post(admin_url(ApiToken, "change", other.pk), {"name": typed})

    other.refresh_from_db()
    assert other.name == stored
    listed = client.get(admin_url(ApiToken, "changelist")).content.decode()
    assert RLO not in listed and "\u2066" not in listed


@pytest.mark.parametrize("typed", [RLO, f" {RLO}\u2066\u2069 ", "\u200e\u200f"])
def test_a_name_of_bidi_controls_only_is_no_name_at_every_door(client, typed):
    with pytest.raises(RuleViolation) as refused:
        api_token_create(user=UserFactory.create(), name=typed)
    assert refused.value.code == "api_token_name_required"
    client.force_login(_league_admin())

    page = client.post(PAGE, {"name": typed, "key": _key(client.get(PAGE))})
    add = admin_url(ApiToken, "add")
    admin = client.post(
        add, {"user": UserFactory.create().pk, "name": typed, "key": _key(client.get(add))}
    )

    assert "Give the API token a name" in " ".join(page.context["form"].errors["name"])
    assert admin.status_code == 200 and admin.context["adminform"].form.errors["name"]
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize(
    ("typed", "code", "char"),
    [
        ("nul\x00here", "text_control_char", "U+0000"),
        ("\x1b[31mred", "text_control_char", "U+001B"),
        ("two\nlines", "text_control_char", "U+000A"),
        ("c1\x85", "text_control_char", "U+0085"),
        ("half\ud800", "text_surrogate", "U+D800"),
    ],
)
def test_the_service_refuses_a_control_character_with_the_house_message(typed, code, char):
    with pytest.raises(RuleViolation) as refused:
        api_token_create(user=UserFactory.create(), name=typed)

    assert refused.value.code == code and refused.value.params == {"char": char}
    assert char in rule_message(refused.value)
    assert not ApiToken.objects.exists()


@pytest.mark.nl
def test_the_control_character_message_is_the_houses_in_dutch():
    message = rule_message(RuleViolation("text_control_char", char="U+0000"))

    assert message == "Haal het onzichtbare stuurteken U+0000 uit de tekst."


@pytest.mark.parametrize("typed", ["nul\x00here", "esc\x1b", "tab\there"])
def test_the_page_and_the_admin_refuse_a_control_character(client, typed):
    client.force_login(_league_admin())

    page = client.post(PAGE, {"name": typed, "key": _key(client.get(PAGE))})
    add = admin_url(ApiToken, "add")
    admin = client.post(
        add, {"user": UserFactory.create().pk, "name": typed, "key": _key(client.get(add))}
    )

    assert "Remove the invisible control character" in " ".join(page.context["form"].errors["name"])
    assert "Remove the invisible control character" in " ".join(
        admin.context["adminform"].form.errors["name"]
    )
    assert not ApiToken.objects.exists()

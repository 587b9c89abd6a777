"""Django's own error pages come out as ours, in the reader's language: the admin's 403, a
400 (a wrong admin filter, an unknown host) and the CSRF failure a phone with cookies
cleared meets (issue 18's tester found them English or technical: "Meer informatie is
beschikbaar met DEBUG=True")."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.nl]


def test_the_admin_page_a_director_may_not_open_is_a_dutch_403(client: Client) -> None:
    director = UserFactory.create(is_staff=True)
    client.force_login(director)
    response = client.get(reverse("admin:scoring_round_add"))
    assert response.status_code == 403
    html = response.content.decode()
    assert "Niet toegestaan" in html and "403 Forbidden" not in html


def test_a_wrong_admin_filter_is_a_dutch_400(admin_client: Client) -> None:
    response = admin_client.get(
        reverse("admin:scoring_round_changelist") + "?game__status__exact=zzz"
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Dit adres kan niet worden geopend" in html and "Bad Request" not in html


def test_an_unknown_host_is_a_dutch_400(client: Client) -> None:
    response = client.get("/", HTTP_HOST="evil.example")
    assert response.status_code == 400
    assert "Dit adres kan niet worden geopend" in response.content.decode()


def test_a_form_sent_without_its_cookie_is_a_dutch_page_without_setting_names() -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("login"), {"username": "x", "password": "y"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "Dit formulier kon niet worden verstuurd" in html
    assert "DEBUG" not in html and "CSRF" not in html
    assert 'name="viewport"' in html  # made for the phone it happens on

"""What the server log says about a refused page: one line, no traceback."""

from __future__ import annotations

import logging

import pytest
from django.urls import reverse

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_a_403_is_logged_as_one_line_without_a_traceback(client, caplog):
    # Staff without any permission: the admin raises PermissionDenied on its add page.
    client.force_login(UserFactory.create(is_staff=True))
    with caplog.at_level(logging.WARNING, logger="django.request"):
        response = client.get(reverse("admin:tournaments_competition_add"))
    assert response.status_code == 403
    [forbidden] = [r for r in caplog.records if r.name == "django.request"]
    assert (
        forbidden.getMessage()
        == "Forbidden (Permission denied): /admin/tournaments/competition/add/"
    )
    assert forbidden.exc_info is None
    assert "Traceback" not in caplog.text

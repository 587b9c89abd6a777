"""Texts typed at the table and at the login page: control characters and lone surrogates
are a form error naming the field, never a 500 or a stored control character (issue 6,
"Hostile input"; found again by the issue 17 fuzz of the moved forms)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.forms.table import TableDisputeForm
from troefclub.forms import AdminLoginForm, LoginForm


@pytest.mark.parametrize(
    ("comment", "valid"),
    [
        ("Ronde 3 was een kap, geen gewone winst.", True),
        ("Ronde 3:\n\tkap van A", True),  # line breaks and tabs belong in a comment
        ("kap\x01", False),
        ("kap\x00", False),
        ("kap\x7f", False),
        ("kap\ud800", False),  # a lone surrogate can't be stored
    ],
)
def test_dispute_comment_refuses_control_characters(comment: str, valid: bool) -> None:
    form = TableDisputeForm(data={"seen": "token", "comment": comment})
    assert form.is_valid() is valid
    if not valid:
        assert list(form.errors) == ["comment"]


@pytest.mark.django_db
@pytest.mark.parametrize("form_class", [LoginForm, AdminLoginForm])
@pytest.mark.parametrize(
    ("username", "password", "field"),
    [
        ("director\ud800", "secret", "username"),
        ("direc\x00tor", "secret", "username"),
        ("direc\ttor", "secret", "username"),
        ("director", "sec\udfffret", "password"),
    ],
)
def test_login_refuses_unencodable_text_as_a_form_error(
    form_class: type[LoginForm], username: str, password: str, field: str
) -> None:
    form = form_class(data={"username": username, "password": password})
    assert not form.is_valid()  # before authenticate(): no UnicodeEncodeError, no 500
    assert field in form.errors


@pytest.mark.django_db
def test_login_with_a_surrogate_posted_is_a_page_not_a_500(client) -> None:
    # The bytes a browser sends for U+D800 (CESU-style), raw as an attacker would.
    body = "username=director%ED%A0%80%01&password=x%ED%BF%BF"
    response = client.post(reverse("login"), body, content_type="application/x-www-form-urlencoded")
    assert response.status_code == 200
    assert not response.wsgi_request.user.is_authenticated

"""`troefclub.pages.page_number_asked`: what `Paginator.get_page` is given for a query's page."""

import pytest
from django.core.paginator import Paginator

from troefclub.pages import page_number_asked


@pytest.mark.parametrize(
    ("asked", "given", "shown"),
    [
        (None, None, 1),
        ("", "", 1),
        ("2", "2", 2),
        ("0", "1", 1),
        ("000", "1", 1),
        ("-1", "1", 1),
        (" -7 ", "1", 1),
        ("-", "-", 1),  # no number: get_page's first page
        ("abc", "abc", 1),
        ("99", "99", 3),  # past the end: the last page
        ("-٣", "1", 1),  # Arabic-Indic digits are a number to get_page too
    ],
)
def test_zero_and_negative_pages_are_the_first(asked, given, shown):
    assert page_number_asked(asked) == given
    assert Paginator(range(5), 2).get_page(page_number_asked(asked)).number == shown

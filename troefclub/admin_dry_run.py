"""Trying a service call in the admin without keeping it: a form's `clean()` learns whether
the save would be refused, and says why at the field, before anything is saved.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import transaction


class DryRun(Exception):
    """Raised to roll back a service call made only to see whether it would be refused."""


def dry_run(call: Callable[[], object]) -> None:
    """Run `call` in a savepoint and roll it back; its RuleViolation, if any, propagates."""
    try:
        with transaction.atomic():
            call()
            raise DryRun
    except DryRun:
        pass

"""Deductions: competition points taken from an entry with a reason, and voided (never
deleted) with one.
"""

from __future__ import annotations

import datetime
from typing import cast

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from scoring.rules import RuleViolation
from tournaments.models import Deduction
from tournaments.services.locks import competition_entry, competition_locked
from tournaments.tokens import deductions_token, deductions_token_newest
from troefclub.refresh import refresh_on_commit


def deduction_check(points: int, reason: str) -> str:
    """The reason a deduction of `points` is stored with (stripped). Shared by
    `deduction_add` and the bulk importer.

    Raises RuleViolation: `deduction_points_invalid` (not 1–1000), `deduction_reason_missing`.
    """
    if not 1 <= points <= 1000:
        raise RuleViolation("deduction_points_invalid", points=points)
    reason = reason.strip()
    if not reason:
        raise RuleViolation("deduction_reason_missing")
    return reason


@transaction.atomic
def deduction_add(
    *,
    competition_id: int,
    entry_id: int,
    points: int,
    reason: str,
    match_id: int | None = None,
    seen: str,
) -> Deduction:
    """Take competition points from an entry, with the reason shown under the standings.

    `seen` (required) is the `deductions_token` of the list the director saw (the admin
    and an import pass the token as it is). When the list changed since: a deduction
    added since with the same entry, points, reason and match is this form sent twice
    (`deduction_already_added`, nothing added again); anything else is
    `deductions_changed_meanwhile`.

    Raises RuleViolation: `competition_unknown`, `entry_unknown`, `deduction_points_invalid`,
    `deduction_reason_missing`, `deduction_already_added` (params points, entry),
    `deductions_changed_meanwhile`.
    """
    competition = competition_locked(competition_id)
    entry = competition_entry(competition, entry_id)
    reason = deduction_check(points, reason)
    if seen != deductions_token(competition_id=competition.pk):
        newest = deductions_token_newest(seen)
        same_match = Q(match__isnull=True) if match_id is None else Q(match_id=match_id)
        twice = newest is not None and (
            competition.deductions.filter(same_match, pk__gt=newest, entry=entry, points=points)
            .filter(reason=reason)
            .exists()
        )
        if twice:
            raise RuleViolation("deduction_already_added", points=points, entry=str(entry))
        raise RuleViolation("deductions_changed_meanwhile")
    deduction = Deduction.objects.create(
        competition=competition, entry=entry, points=points, reason=reason, match_id=match_id
    )
    refresh_on_commit("standings", competition.pk)
    return deduction


VOID_REASON_MAX = Deduction._meta.get_field("void_reason").max_length


def void_reason_check(reason: str) -> str:
    """The reason a deduction is voided with (stripped). Shared by `deduction_void` and the
    bulk importer.

    Raises RuleViolation: `void_reason_required`, `void_reason_too_long` (param limit).
    """
    reason = reason.strip()
    if not reason:
        raise RuleViolation("void_reason_required")
    if len(reason) > cast(int, VOID_REASON_MAX):
        raise RuleViolation("void_reason_too_long", limit=VOID_REASON_MAX)
    return reason


@transaction.atomic
def deduction_void(
    *, deduction_id: int, reason: str, voided_at: datetime.datetime | None = None
) -> Deduction:
    """Withdraw a deduction without deleting it: it is stamped void with `reason`.

    A voided deduction no longer counts in the standings; the row and its history stay,
    so the audit trail shows what was deducted, when it was voided, by whom and why
    (issue 6: "void with a reason, never hard delete"). `voided_at` defaults to now; an
    import passes the time its file says the deduction was voided.

    No `seen` token: a deduction's entry, points and reason never change, voiding is its
    only change and happens once, so "voided meanwhile" (`deduction_already_void`) is the
    whole of what a stale page could have missed about it.

    Raises RuleViolation: `deduction_unknown`, `void_reason_required` (empty after
    stripping), `void_reason_too_long` (param limit), `deduction_already_void` (params
    voided_at, void_reason).
    """
    reason = void_reason_check(reason)
    # Two directors voiding the same deduction at once: the second must see the first's
    # void and be told, not stamp its own reason over it.
    deduction = Deduction.objects.select_for_update().filter(pk=deduction_id).first()
    if deduction is None:
        raise RuleViolation("deduction_unknown")
    if deduction.voided_at is not None:
        raise RuleViolation(
            "deduction_already_void",
            voided_at=timezone.localtime(deduction.voided_at).strftime("%Y-%m-%d %H:%M"),
            void_reason=deduction.void_reason,
        )
    deduction.voided_at = voided_at or timezone.now()
    deduction.void_reason = reason
    deduction.save(update_fields=["voided_at", "void_reason"])
    refresh_on_commit("standings", deduction.competition_id)
    return deduction

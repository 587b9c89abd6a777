"""The version token of a competition's deductions ("<newest id>:<how many>:<how many void>"):
what a director's list of deductions saw, so a stale form adds nothing twice and a form
sent twice finds its own deduction (`deduction_add`). Deductions are never changed, only
added and voided, so these three numbers say whether the list changed.
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments.models import Deduction


def deductions_token(*, competition_id: int) -> str:
    """The token of a competition's deductions: "<newest id>:<how many>:<how many void>".

    Deductions are never changed, only added and voided, so these three numbers say
    whether the list changed; the newest id lets `deduction_add` find what was added since.
    """
    return deductions_token_of(
        Deduction.objects.filter(competition_id=competition_id).only("pk", "voided_at")
    )


def deductions_token_of(deductions: Iterable[Deduction]) -> str:
    """`deductions_token` from a competition's loaded deductions (all of them, voided too)."""
    rows = [(deduction.pk, deduction.voided_at) for deduction in deductions]
    newest = max((pk for pk, _voided in rows), default=0)
    voided = sum(1 for _pk, voided_at in rows if voided_at is not None)
    return f"{newest}:{len(rows)}:{voided}"


def deductions_token_newest(token: str) -> int | None:
    """The newest deduction id a `deductions_token` saw; None when `token` is not one."""
    head, _sep, _rest = token.partition(":")
    return int(head) if head.isdigit() else None

"""Which standings refreshes a write queued: the on-commit callbacks it registered, run as
its commit would run them, with the broker replaced by a recorder.

A test's transaction never commits, so `django_capture_on_commit_callbacks` hands the
callbacks over instead; counting them says little (a transaction's writes to one
competition register one shared callback each, `troefclub.refresh.RefreshOnCommit`). Running them
says which `standings_refresh` tasks the commit would queue, and for which competitions.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from unittest import mock

from scoring.tasks import standings_refresh


def queued_refreshes(callbacks: Iterable[Callable[[], object]]) -> list[int]:
    """The competition ids of the `standings_refresh` tasks that running `callbacks` (in
    order, as after a commit) queues, in the order queued. A competition whose refresh is
    queued already and hasn't started (its `StandingsRefreshClaim`) gets none: release the
    claims first to ask what a write owes."""
    with mock.patch.object(standings_refresh, "delay") as delay:
        for callback in callbacks:
            callback()
    assert all(call.args == () for call in delay.call_args_list)  # ids by keyword only
    return [call.kwargs["competition_id"] for call in delay.call_args_list]

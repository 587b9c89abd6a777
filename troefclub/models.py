"""The project's own rows: what the reader cache still owes (issue 23)."""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class ReaderCacheBumpOwed(models.Model):
    """A scope of the reader cache (`troefclub.reader_cache`: "competition:12", "ratings",
    ...) whose version could not be bumped after a write committed: the cache did not
    answer. Until the bump is made, the pages stored under the old version would be served
    as if nothing had changed; `reader_cache_bumps_owed_pay` (on the beat, every
    STANDINGS_SWEEP_SECONDS) makes it once the cache answers again and deletes the row.

    One row a scope: `owed_at` is the last failure's time (UTC), so a failure that comes
    while a payment is under way is not deleted with the one it paid.
    """

    scope = models.CharField(_("scope"), max_length=100, unique=True)
    owed_at = models.DateTimeField(_("owed since"))

    class Meta:
        verbose_name = _("reader cache bump owed")
        verbose_name_plural = _("reader cache bumps owed")
        ordering = ["owed_at"]

    def __str__(self) -> str:
        return self.scope

"""The league admin's pages of play (Django admin): competitions with their entries
(`competitions`, `entries`), matchdays, matches and byes (`schedule`), koppels (`koppels`),
games, rounds and standings (`games`), withdrawals and check-ins (`withdrawals`); what
they share about rows that hold a result (`guards`). Every write goes through the
services of the director's pages.
"""

# Django's admin imports this package to register its pages: each module registers its own.
from scoring.admin import (  # noqa: F401
    competitions,
    entries,
    games,
    koppels,
    schedule,
    stages,
    withdrawals,
)

"""The league admin's pages of the registry (Django admin): clubs and players (`clubs`),
squads (`squads`), deductions (`deductions`), and Django's users with our input checks
(`users`). The rows of play (competitions, entries, schedules, koppels, games) are
`scoring.admin`.
"""

# Django's admin imports this package to register its pages: each module registers its own.
from tournaments.admin import clubs, deductions, squads, users  # noqa: F401

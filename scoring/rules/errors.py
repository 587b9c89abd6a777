"""The one exception the rules engine raises."""

from __future__ import annotations

from typing import Any


class RuleViolation(Exception):
    """A result, a correction or a setting that the rules forbid.

    `code` is stable: tests and translations key on it, never on text. `params` fill the
    message that the edges (forms, commands) make from it with `troefclub.rule_messages`. When the
    violation happened while replaying a game, `params["round"]` is the 1-based number of
    the round that broke the rule.
    """

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code, params)
        self.code = code
        self.params: dict[str, Any] = params

    def at(self, **where: Any) -> RuleViolation:
        """The same violation with extra place parameters (round number, …) added."""
        return RuleViolation(self.code, **{**self.params, **where})

    def __str__(self) -> str:
        details = ", ".join(f"{key}={value!r}" for key, value in self.params.items())
        return f"{self.code}({details})" if details else self.code

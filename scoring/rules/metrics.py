"""The standings metrics: each tie-break key defined once, with the words shown for it.

DESIGN.md "Interchange format" (tie-break keys). Everything that lists tie-breaks reads
`METRICS`: the engine (`compute_standings`, `check_tiebreaks`), the standings table's
columns (`scoring.tables`), the admin's choices and their explanations, the standings
page. Adding a tie-break is one `Metric` here, plus what it needs stored and computed: its
`StandingRow` attribute, its `Standing` field (a migration) and its column in
`StandingTable` (tests/rules/test_metrics.py checks they all exist).

The texts are English msgids, not translations: the engine stays free of Django, and the
edges translate them when shown (`gettext(metric.label)`), as they turn rule codes into
words (`troefclub.rule_messages`).
"""

from __future__ import annotations

from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Marks `message` for translation and returns it unchanged: `makemessages` (xgettext)
    extracts the strings passed to a function of this name."""
    return message


@dataclass(frozen=True, slots=True)
class Metric:
    """One standings metric a competition may rank by.

    `key` is the tie-break key (`Competition.tiebreaks`, the interchange format). `column`
    names the `StandingRow` attribute the engine compares, the `Standing` field it is
    stored in, the standings table's column and its name in exports (`manage.py
    standings`, the spreadsheet). `label` names it in lists of tie-breaks, `explanation`
    says what it compares (the admin's help); `header` is the table's short column header
    and `title` its full name (the header's tooltip; "" for none). `always_shown`: False
    when the table shows the column only while it breaks ties.
    """

    key: str
    column: str
    label: str
    explanation: str
    header: str
    title: str = ""
    always_shown: bool = True


# In the order the admin offers them. head_to_head is compared by the engine's mini-table
# (`scoring.rules.standings`), not read off its column: the column holds the mini-table's
# points when they decided a tie.
METRICS: tuple[Metric, ...] = (
    Metric(
        key="points",
        column="points",
        label=gettext_noop("points"),
        explanation=gettext_noop("competition points for wins, draws and losses"),
        header=gettext_noop("Pts"),
        title=gettext_noop("Competition points"),
    ),
    Metric(
        key="saldo",
        column="saldo",
        label=gettext_noop("saldo"),
        explanation=gettext_noop("game points for minus game points against"),
        header=gettext_noop("+/−"),
        title=gettext_noop("Saldo"),
    ),
    Metric(
        key="points_for",
        column="points_for",
        label=gettext_noop("points for"),
        explanation=gettext_noop("game points scored"),
        header=gettext_noop("For"),
        title=gettext_noop("Points for"),
    ),
    Metric(
        key="wins",
        column="won",
        label=gettext_noop("wins"),
        explanation=gettext_noop("matches won"),
        header=gettext_noop("W"),
        title=gettext_noop("Won"),
    ),
    Metric(
        key="kaps",
        column="kaps",
        label=gettext_noop("kaps"),
        explanation=gettext_noop("rounds won with a kap or a kap by partner"),
        header=gettext_noop("Kaps"),
    ),
    Metric(
        key="baunies",
        column="baunies",
        label=gettext_noop("baunies"),
        explanation=gettext_noop("baunies made"),
        header=gettext_noop("Baun."),
        title=gettext_noop("Baunies"),
    ),
    Metric(
        key="buchholz",
        column="buchholz",
        label=gettext_noop("Buchholz (opponents' points)"),
        explanation=gettext_noop("the competition points of the entry's opponents, added up"),
        header=gettext_noop("Buchholz"),
        title=gettext_noop("Buchholz: the competition points of the opponents"),
        always_shown=False,
    ),
    Metric(
        key="head_to_head",
        column="head_to_head",
        label=gettext_noop("head-to-head"),
        explanation=gettext_noop(
            "competition points in the matches among the tied entries (only when each two of "
            "them met equally often)"
        ),
        header=gettext_noop("H2H"),
        title=gettext_noop("Head-to-head: points against the entries tied with it"),
        always_shown=False,
    ),
)

METRIC_OF: dict[str, Metric] = {metric.key: metric for metric in METRICS}

"""Swiss pairing for open pairs tournaments, one matchday at a time.

The issue "Swiss system for open pairs tournaments": each matchday pairs entries with equal
or close competition points, never the same two entries twice while avoidable, at most
one bye per entry; pairings come from networkx's maximum-weight matching (Edmonds'
blossom algorithm), not a greedy loop, and every pairing carries a reason for the
director's page. What the bye is worth is the competition's business (its standings), not
this module's.

How: the entrants are ranked (points, then tiebreak, then input order) and become the
vertices of a graph, plus a "bye" vertex when their count is odd. Every edge costs, in
strict priority (each level outweighs everything below it summed over a whole matchday):

1. a rematch, per time the two already met. The edge stays, so a pairing always exists;
2. the bye away from the lowest-placed entrant, per entrant placed below it. Only the
   entrants with the fewest byes are joined to the bye vertex, so nobody gets a second
   bye while someone has had none (the issue's "at most one bye per entry" is a hard
   rule; rematches are avoided "while avoidable", so they come second);
3. the square of the points difference: one float of 2 points costs more than two of 1;
4. the Dutch order: in a score group of g, position a meets a + g/2 (1–5, 2–6 in a group
   of 8); across groups, the lowest of the higher group meets the highest of the lower.

`networkx.max_weight_matching(G, maxcardinality=True)` with weights `ceiling − cost`
(integers, so networkx stays exact) then gives the cheapest perfect matching: every
perfect matching has the same number of edges, so the heaviest is the cheapest.

Large fields: the blossom algorithm is cubic in Python (1,000 entrants took 1–8 s a round
on the whole field), so above `FULL_GRAPH_MAX` entrants the matchday is paired in blocks of
about `BLOCK` ranks, top down (`_Field.match_in_blocks`): small score groups together, a
big one in slices along its Dutch order. Each block is one small maximum-weight matching
by the same costs, without rematch edges, that may float into the next `LOOKAHEAD` places
below it; whoever it can't pair is carried into the next block. When earlier meetings
cost a block something (more left unpaired than its parity, or floats dearer than pairing
in ranking order would be), it is solved again together with the block above (up to
`MERGED_BLOCKS` blocks), then with a longer reach down. If anyone is still unpaired at the
bottom, the whole field is paired as before: each entrant joined, in its score group, to
the `NEIGHBOURS` around its Dutch partner and beyond it to the `NEIGHBOURS` places lower,
without rematch edges, the window doubling up to the full graph.

What that keeps: a rematch only ever comes from the full graph, when no pairing avoids
it, and the bye goes where the full graph puts it (the lowest-placed entrant with the
fewest byes, unless the others then can't be paired without a rematch), so levels 1 and 2
are exact. Levels 3 and 4 are the blocks' heuristic: on every round of the random
tournaments and histories in tests/tournaments/schedules/test_swiss_blocks.py (blocks of
6, so fields of 8–40 cross many boundaries) the squared floats equal the full graph's;
the Dutch order costs more in under 10 % of them; on the benchmark's 1,000-entrant
tournaments the floats are equal and the Dutch order within a few percent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from itertools import pairwise
from typing import Generic, TypeVar

import networkx as nx  # type: ignore[import-untyped]

from scoring.rules import RuleViolation

H = TypeVar("H", bound=Hashable)

# Measured (`python -m benchmarks.pairing`, 2 cores): the full graph pairs 100 entrants in
# ≤ 0.35 s, 200 in ≤ 1 s, and 1,000 took 1–8 s a round even restricted to a window of 40;
# blocks of 24 pair 1,000 in 0.2–0.4 s CPU a round (32: 0.3–0.5 s, 48: 0.4–0.6 s, with
# the same floats).
FULL_GRAPH_MAX = 100
NEIGHBOURS = 40
BLOCK = 24
LOOKAHEAD = 8
MERGED_BLOCKS = 3


@dataclass(frozen=True, slots=True)
class SwissEntrant(Generic[H]):
    """An entrant before a matchday: its standing so far and its history.

    `points` are competition points; `tiebreak` (e.g. saldo) orders a score group, higher
    first; `opponents` lists everyone met (an entry met twice appears twice); `byes` and
    `home_games` count the byes had and the matches played at home.
    """

    id: H
    points: int
    tiebreak: int = 0
    opponents: tuple[H, ...] = ()
    byes: int = 0
    home_games: int = 0


@dataclass(frozen=True, slots=True)
class SwissPairing(Generic[H]):
    """One match of the matchday and why it was made.

    `reason` is a stable code, `params` fill its message at the edges:
    `same_score_group` (points), `floated` (from_points, to_points: the higher and the lower
    score), `rematch_unavoidable` (times: how often they met before).
    """

    home: H
    away: H
    reason: str
    params: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class SwissRound(Generic[H]):
    """A matchday: the matches in ranking order (table 1 first) and the bye, if any.

    `bye_reason`: `bye_lowest_without_bye` or `bye_unavoidable_repeat` (everybody had one);
    `bye_params`: points, byes (had before), passed_over (lower-placed entrants that could
    have had it but would have forced a rematch; usually 0).
    """

    pairs: tuple[SwissPairing[H], ...]
    bye: H | None = None
    bye_reason: str | None = None
    bye_params: dict[str, int] = field(default_factory=dict)


def swiss_pair(entrants: Sequence[SwissEntrant[H]], *, bye_allowed: bool = True) -> SwissRound[H]:
    """Pair one Swiss matchday (see the module docstring for the order of priorities).

    `bye_allowed=False` forbids a second bye: with an odd count where everybody has had
    one, the matchday can't be paired. Deterministic: the same entrants in the same order
    give the same round.

    Raises RuleViolation: `swiss_too_few_entrants` (count), `swiss_duplicate_entrant`
    (entrant), `swiss_no_bye_possible` (count).
    """
    if len(entrants) < 2:
        raise RuleViolation("swiss_too_few_entrants", count=len(entrants))
    seen: set[H] = set()
    for entrant in entrants:
        if entrant.id in seen:
            raise RuleViolation("swiss_duplicate_entrant", entrant=entrant.id)
        seen.add(entrant.id)

    field_ = _Field(entrants)
    if field_.odd and field_.fewest_byes > 0 and not bye_allowed:
        raise RuleViolation("swiss_no_bye_possible", count=len(entrants))

    if field_.size <= FULL_GRAPH_MAX:
        return field_.round(field_.match(None))
    mate = field_.match_in_blocks()
    window: int | None = NEIGHBOURS
    while mate is None:  # a block could not be paired without a rematch: the whole field
        mate = field_.match(window)
        if window is not None and len(mate) < field_.size + field_.odd:
            mate = None  # a restricted graph pairs without rematches or not at all
            window = None if 2 * window >= field_.size else 2 * window
    return field_.round(mate)


class _Field(Generic[H]):
    """The ranked entrants of one matchday as graph vertices 0..n−1 (rank order); bye = n."""

    def __init__(self, entrants: Sequence[SwissEntrant[H]]) -> None:
        ranked = sorted(
            range(len(entrants)),
            key=lambda index: (-entrants[index].points, -entrants[index].tiebreak, index),
        )
        self.entrants = [entrants[index] for index in ranked]
        self.size = len(self.entrants)
        self.odd = self.size % 2
        self.bye = self.size
        rank = {entrant.id: position for position, entrant in enumerate(self.entrants)}
        self.meetings: list[Counter[int]] = [
            Counter(rank[opponent] for opponent in entrant.opponents if opponent in rank)
            for entrant in self.entrants
        ]
        self.fewest_byes = min(entrant.byes for entrant in self.entrants)
        # score groups: group_start[v], group_size[v]
        self.group_start = [0] * self.size
        self.group_size = [0] * self.size
        start = 0
        for position in range(1, self.size + 1):
            if (
                position == self.size
                or self.entrants[position].points != self.entrants[start].points
            ):
                for member in range(start, position):
                    self.group_start[member] = start
                    self.group_size[member] = position - start
                start = position
        # One unit of each priority outweighs the most that all lower ones can add up to
        # over a matchday (size // 2 + 1 edges; the Dutch term is below 2·size per edge).
        edges = self.size // 2 + 1
        spread = self.entrants[0].points - self.entrants[-1].points
        self.w_score = edges * 2 * self.size + 1
        self.w_bye = edges * (spread * spread * self.w_score + 2 * self.size) + 1
        self.w_rematch = (self.size + 1) * self.w_bye
        most_met = max((max(met.values(), default=0) for met in self.meetings), default=0)
        self.ceiling = (most_met + 1) * self.w_rematch + 1  # every weight stays positive

    def cost(self, a: int, b: int) -> int:
        """The cost of pairing ranks a < b (see the module docstring)."""
        if b == self.bye:
            return (self.size - 1 - a) * self.w_bye
        diff = self.entrants[a].points - self.entrants[b].points
        return self.meetings[a][b] * self.w_rematch + diff * diff * self.w_score + self._dutch(a, b)

    def _dutch(self, a: int, b: int) -> int:
        start, size = self.group_start[a], self.group_size[a]
        if start == self.group_start[b]:
            return abs((b - a) - size // 2)
        return (start + size - 1 - a) + (b - self.group_start[b])

    def candidates(self, a: int, window: int | None) -> range | set[int]:
        """The ranks b > a that vertex a gets an edge to.

        Restricted (`window` set): in a's score group, the `window` around a's Dutch
        partner (the whole group when it is small); beyond the group, the ranks within
        `window` of a (the floats).
        """
        if window is None:
            return range(a + 1, self.size)
        start, size = self.group_start[a], self.group_size[a]
        end = start + size
        if size <= window:
            found = set(range(a + 1, end))
        else:
            partner = a + size // 2
            found = set(
                range(max(a + 1, partner - window // 2), min(end, partner + window // 2 + 1))
            )
        found.update(range(end, min(a + window + 1, self.size)))
        return found

    def match(self, window: int | None) -> dict[int, int]:
        graph = nx.Graph()
        graph.add_nodes_from(range(self.size + self.odd))
        for a in range(self.size):
            for b in sorted(self.candidates(a, window)):
                if window is not None and self.meetings[a][b]:
                    continue  # a restricted graph pairs without rematches or not at all
                graph.add_edge(a, b, weight=self.ceiling - self.cost(a, b))
        if self.odd:
            for a in range(self.size):
                if self.entrants[a].byes == self.fewest_byes:
                    graph.add_edge(a, self.bye, weight=self.ceiling - self.cost(a, self.bye))
        mate: dict[int, int] = {}
        for a, b in nx.max_weight_matching(graph, maxcardinality=True):
            mate[a], mate[b] = b, a
        return mate

    def match_in_blocks(self) -> dict[int, int] | None:
        """The matching block by block, top down, or None if it leaves anyone unpaired.

        The bye goes to the lowest-placed entrant with the fewest byes (where the full
        graph puts it whenever the others can then be paired without a rematch). Small
        score groups are joined into blocks of at most `BLOCK`; a bigger group is cut into
        slices along its Dutch order: slice k holds places k·s … k·s+s−1 of the top half
        and their partners half a group lower (s = BLOCK // 2), counting only the entrants
        still unpaired, so the partners the Dutch order wants share a slice. Each block is
        matched together with the entrants carried into it from above, and may reach
        `LOOKAHEAD` entrants into what follows for its floats; whoever it leaves unpaired
        (only ever because of earlier meetings: the blocks have no rematch edges) is
        carried down.
        """
        mate: dict[int, int] = {}
        if self.odd:
            lowest = max(a for a in range(self.size) if self.entrants[a].byes == self.fewest_byes)
            mate[lowest], mate[self.bye] = self.bye, lowest
        carry: list[int] = []
        solved: list[tuple[list[int], set[tuple[int, int]]]] = []  # members, pairs per block
        start = 0
        while start < self.size:
            end = start + self.group_size[start]
            if end - start > BLOCK:
                group = carry + [v for v in range(start, end) if v not in mate]
                half = len(group) // 2
                count = max(1, -(-2 * half // BLOCK))
                cuts = [k * half // count for k in range(count + 1)]
                slices = [
                    group[first:last] + group[half + first : half + last if last < half else None]
                    for first, last in pairwise(cuts)
                ]
            else:
                while end < self.size and end - start + self.group_size[end] <= BLOCK:
                    end += self.group_size[end]
                slices = [carry + [v for v in range(start, end) if v not in mate]]
            carry = []
            for index, slice_ in enumerate(slices):
                members = sorted({*carry, *(v for v in slice_ if v not in mate)})
                following = [
                    *sorted(v for later in slices[index + 1 :] for v in later),
                    *range(end, self.size),
                ]
                reach = LOOKAHEAD
                ahead = [v for v in following if v not in mate and v not in carry][:reach]
                pairs = self._block_matching(members, ahead)
                # Earlier meetings stand in the way: the block above may get round them by
                # pairing differently, so solve the two as one block; at the top, or when
                # that grew too big, let the block reach further down.
                while self._hindered(members, ahead, pairs):
                    if solved and len(members) + len(solved[-1][0]) <= MERGED_BLOCKS * BLOCK:
                        above, above_pairs = solved.pop()
                        for a, b in above_pairs:
                            del mate[a], mate[b]
                        members = sorted(
                            {*members, *above, *(v for pair in above_pairs for v in pair)}
                        )
                    elif len(ahead) == reach and reach < BLOCK:
                        reach *= 2
                    else:
                        break
                    inside = set(members)
                    ahead = [v for v in following if v not in mate and v not in inside][:reach]
                    pairs = self._block_matching(members, ahead)
                for a, b in pairs:
                    mate[a], mate[b] = b, a
                solved.append((members, pairs))
                carry = [v for v in members if v not in mate]
            start = end
        return None if carry else mate

    def _hindered(self, members: list[int], ahead: list[int], pairs: set[tuple[int, int]]) -> bool:
        """Whether earlier meetings cost a block's pairing something: it leaves more of its
        members without a partner among them than its parity, or its floats square to more
        than pairing the same number of the best-placed entrants in ranking order would
        (the least possible, the cost being convex)."""
        inside = set(members)
        within = sum(1 for a, b in pairs if a in inside and b in inside)
        if len(members) - 2 * within > len(members) % 2:
            return True
        reached = len(pairs) - within
        points = [self.entrants[v].points for v in members[: 2 * within + reached]]
        points += [self.entrants[v].points for v in ahead[:reached]]
        points.sort(reverse=True)
        least = sum((high - low) ** 2 for high, low in zip(points[::2], points[1::2], strict=True))
        return (
            sum((self.entrants[a].points - self.entrants[b].points) ** 2 for a, b in pairs) > least
        )

    def _block_matching(self, members: list[int], ahead: list[int]) -> set[tuple[int, int]]:
        """The pairs of one block: the most members paired, then the least cost.

        An edge weighs `w_bye` (more than the costs of a whole matchday) per member it
        pairs, less its cost, so pairing one more member beats any saving in cost, and two
        entrants of the next block are never paired with each other here.
        """
        graph = nx.Graph()
        graph.add_nodes_from(members)
        graph.add_nodes_from(ahead)
        for index, a in enumerate(members):
            met = self.meetings[a]
            for b in members[index + 1 :]:
                if not met[b]:
                    graph.add_edge(a, b, weight=2 * self.w_bye - self.cost(a, b))
            for b in ahead:
                if not met[b]:
                    low, high = min(a, b), max(a, b)
                    graph.add_edge(a, b, weight=self.w_bye - self.cost(low, high))
        return nx.max_weight_matching(graph)  # type: ignore[no-any-return]

    def round(self, mate: dict[int, int]) -> SwissRound[H]:
        pairs: list[SwissPairing[H]] = []
        bye: H | None = None
        bye_reason: str | None = None
        bye_params: dict[str, int] = {}
        for a in range(self.size):
            b = mate[a]
            if b == self.bye:
                entrant = self.entrants[a]
                bye = entrant.id
                bye_reason = (
                    "bye_lowest_without_bye" if entrant.byes == 0 else ("bye_unavoidable_repeat")
                )
                passed = sum(
                    1 for c in range(a + 1, self.size) if self.entrants[c].byes == entrant.byes
                )
                bye_params = {"points": entrant.points, "byes": entrant.byes, "passed_over": passed}
            elif a < b:
                pairs.append(self._pairing(a, b))
        return SwissRound(pairs=tuple(pairs), bye=bye, bye_reason=bye_reason, bye_params=bye_params)

    def _pairing(self, a: int, b: int) -> SwissPairing[H]:
        high, low = self.entrants[a], self.entrants[b]
        times = self.meetings[a][b]
        if times:
            reason, params = "rematch_unavoidable", {"times": times}
        elif high.points == low.points:
            reason, params = "same_score_group", {"points": high.points}
        else:
            reason, params = "floated", {"from_points": high.points, "to_points": low.points}
        home, away = (low, high) if low.home_games < high.home_games else (high, low)
        return SwissPairing(home=home.id, away=away.id, reason=reason, params=params)

"""Pairing a round: by round robin, Swiss, King of the Hill, Initial Fontes or by hand.

``pair_round`` is the one entry point. It works out the field (active players who have
joined by this round), the standings the pairing goes by (after the round before, or an
earlier one with ``based_on`` so the next round can be posted while one is played), then:

* **Gibsonization** (Swiss and King of the Hill, when ``Rules.gibson``): see ``gibson``.
* **The bye**, in an odd field: to the lowest-ranked among those with the fewest byes so far
  (round robin and Initial Fontes give it by their schedule instead: each player one).
* **The method** pairs the rest (``METHODS``).
* **Who goes first** at each board: ``seat``.

Swiss and King of the Hill pair by minimum-weight perfect matching (``networkx``): each
couple's cost is a tuple compared in order, so a later part only breaks ties of the earlier.

* Swiss: (times they have met, (difference in wins)², (places apart − h)²), where ``h`` is half
  the size of the higher player's win group: within a win group its top half meets its bottom
  half. A couple who have met more than ``Rules.repeats_allowed`` times may not be paired.
* King of the Hill: (met last round, times they have met, (places apart)²): 1 v 2, 3 v 4 ...
  in the standings, moving as little as possible to avoid a rematch.

So neither repeats a pairing while a pairing without one exists.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import networkx as nx

from referee.events import gibson
from referee.events.data import (
    Bout,
    Bye,
    Competitor,
    PairingError,
    Result,
    Rules,
    check_results,
    meetings,
)
from referee.events.schedules import circle_round, fontes_round
from referee.events.standings import Standing, compute_standings


@dataclass(frozen=True)
class Matchup:
    table: int
    first: int
    second: int


@dataclass(frozen=True)
class RoundPairings:
    """A round's pairings in table order, its bye, and who was gibsonized."""

    round: int
    method: str
    pairings: tuple[Matchup, ...]
    bye: int | None = None
    gibsonized: tuple[int, ...] = ()

    def results(self, bye_spread: int) -> list[Result]:
        """The round as results: each game waiting for its scores, and the bye."""
        made: list[Result] = [Bout(self.round, p.first, p.second) for p in self.pairings]
        if self.bye is not None:
            made.append(Bye(self.round, self.bye, bye_spread))
        return made


@dataclass(frozen=True)
class Options:
    """What a method may need beyond the results: ``first_round`` is where a round robin or
    Initial Fontes began, ``fontes_rounds`` how many rounds Initial Fontes runs, ``double`` a
    double round robin, ``manual`` the director's couples and ``manual_bye`` their bye."""

    first_round: int = 1
    fontes_rounds: int = 3
    double: bool = False
    manual: tuple[tuple[int, int], ...] = ()
    manual_bye: int | None = None


@dataclass(frozen=True)
class Situation:
    """What every method reads: the round, the field in standings order, and the history."""

    round: int
    based_on: int
    rules: Rules
    options: Options
    order: tuple[int, ...]
    rows: dict[int, Standing]
    players: tuple[Competitor, ...]
    met: Counter[tuple[int, int]]
    met_last_round: frozenset[tuple[int, int]]
    byes: Counter[int]

    def times_met(self, a: int, b: int) -> int:
        return self.met[(min(a, b), max(a, b))]


Couples = list[tuple[int, int]]
Method = Callable[[Situation, list[int]], tuple[Couples, int | None]]


def _couple(a: int, b: int) -> tuple[int, int]:
    return (min(a, b), max(a, b))


# From this many players a round is matched over each player's likely opponents only
# (``near``), not every couple: networkx's matching grows with the couples it weighs, and a
# field of 300 has 44,850 of them. Smaller fields weigh every couple, as always.
SPARSE_FROM = 64
NEAR = 6  # places either side of a player's likeliest opponent weighed as theirs


def match(
    ids: Sequence[int],
    cost: Callable[[int, int], tuple[int, ...] | None],
    likeliest: Callable[[int], int] | None = None,
) -> Couples:
    """A perfect matching of ``ids`` of least cost, costs compared as tuples; ``None`` forbids
    a couple. Raises ``PairingError`` when no perfect matching exists.

    ``likeliest(i)`` is how many places down ``ids`` the best opponent of ``ids[i]`` would sit
    (``ids`` in standings order); from ``SPARSE_FROM`` players only the couples ``near`` that
    place and ``ids[i]``'s own are weighed, and every couple only if those hold no perfect
    matching. The tuples are folded into one integer whose parts can't carry into each other,
    and networkx finds the maximum-weight matching of largest size over ``top - cost``.
    """
    if likeliest is not None and len(ids) >= SPARSE_FROM:
        couples = near(ids, likeliest)
        found = _matched(ids, {pair: c for pair in couples if (c := cost(*pair)) is not None})
        if found is not None:
            return found
    every = ((a, b) for i, a in enumerate(ids) for b in ids[i + 1 :])
    found = _matched(ids, {pair: c for pair in every if (c := cost(*pair)) is not None})
    if found is None:
        raise PairingError(
            "no_pairing",
            "No pairing of this round keeps every couple within the repeat limit: "
            "raise the limit or pair the round by hand.",
        )
    return found


def near(ids: Sequence[int], likeliest: Callable[[int], int]) -> list[tuple[int, int]]:
    """The couples weighed in a large field, in standings order: each player with the
    ``NEAR`` players either side of their likeliest opponent, and with the ``NEAR`` just
    below them."""
    places = set()
    for i in range(len(ids)):
        centre = i + likeliest(i)
        for j in (*range(centre - NEAR, centre + NEAR + 1), *range(i + 1, i + NEAR + 1)):
            if 0 <= j < len(ids) and j != i:
                places.add((min(i, j), max(i, j)))
    return [(ids[i], ids[j]) for i, j in sorted(places)]


def _matched(ids: Sequence[int], edges: dict[tuple[int, int], tuple[int, ...]]) -> Couples | None:
    """The least-cost perfect matching over ``edges``, or None if they hold none."""
    width = len(next(iter(edges.values()), ()))
    couples = len(ids) // 2
    scales = [1] * width
    for part in range(width - 2, -1, -1):
        largest = max(value[part + 1] for value in edges.values())
        scales[part] = scales[part + 1] * (couples * largest + 1)
    folded = {
        edge: sum(p * s for p, s in zip(value, scales, strict=True))
        for edge, value in edges.items()
    }
    top = max(folded.values(), default=0) + 1
    graph = nx.Graph()
    graph.add_nodes_from(ids)
    for (a, b), value in folded.items():
        graph.add_edge(a, b, weight=top - value)
    found = nx.max_weight_matching(graph, maxcardinality=True)
    if len(found) * 2 != len(ids):
        return None
    return [_couple(a, b) for a, b in found]


def _swiss(situation: Situation, ids: list[int]) -> tuple[Couples, int | None]:
    position = {player: index for index, player in enumerate(situation.order)}
    group_size = Counter(situation.rows[player].wins for player in ids)
    limit = situation.rules.repeats_allowed

    def cost(a: int, b: int) -> tuple[int, ...] | None:
        times = situation.times_met(a, b)
        if times > limit:
            return None
        higher, lower = sorted((a, b), key=position.__getitem__)
        half = max(1, group_size[situation.rows[higher].wins] // 2)
        wins_apart = int(2 * abs(situation.rows[a].wins - situation.rows[b].wins))
        places_apart = position[lower] - position[higher]
        return (times, wins_apart**2, (places_apart - half) ** 2)

    def likeliest(index: int) -> int:  # half its win group down, within the group
        return max(1, group_size[situation.rows[ids[index]].wins] // 2)

    return match(ids, cost, likeliest), None


def _king_of_the_hill(situation: Situation, ids: list[int]) -> tuple[Couples, int | None]:
    position = {player: index for index, player in enumerate(situation.order)}

    def cost(a: int, b: int) -> tuple[int, ...]:
        rematch = _couple(a, b) in situation.met_last_round
        return (int(rematch), situation.times_met(a, b), (position[a] - position[b]) ** 2)

    return match(ids, cost, lambda index: 1), None


def _from_schedule(
    scheduled: Iterable[tuple[int | None, int | None]], field: set[int]
) -> tuple[Couples, int | None]:
    """Couples of a fixed schedule; a player whose scheduled opponent is the phantom, or is
    not in the field (withdrawn, not yet joined), has the bye."""
    couples: Couples = []
    byes: list[int] = []
    for a, b in scheduled:
        if a in field and b in field:
            assert a is not None and b is not None
            couples.append((a, b))
        elif a in field or b in field:
            byes.append(a if a in field else b)  # type: ignore[arg-type]
    if len(byes) > 1:
        raise PairingError(
            "schedule_byes",
            f"This round's schedule leaves {len(byes)} players without an opponent: "
            "pair the round by hand.",
        )
    return couples, (byes[0] if byes else None)


def _round_robin(situation: Situation, ids: list[int]) -> tuple[Couples, int | None]:
    seeding = [player.id for player in situation.players]
    index = situation.round - situation.options.first_round
    scheduled = circle_round(seeding, index, double=situation.options.double)
    return _from_schedule(scheduled, set(ids))


def _initial_fontes(situation: Situation, ids: list[int]) -> tuple[Couples, int | None]:
    rounds = situation.options.fontes_rounds
    index = situation.round - situation.options.first_round
    if not 0 <= index < rounds:
        raise PairingError(
            "fontes_over",
            f"Initial Fontes pairs rounds {situation.options.first_round} to "
            f"{situation.options.first_round + rounds - 1}, not round {situation.round}.",
        )
    seeding = [p.id for p in sorted(situation.players, key=lambda p: -p.rating)]
    return _from_schedule(fontes_round(seeding, rounds, index), set(ids))


def _manual(situation: Situation, ids: list[int]) -> tuple[Couples, int | None]:
    field = set(ids)
    seen: list[int] = []
    for a, b in situation.options.manual:
        if a == b:
            raise PairingError("self_pairing", f"Player {a} can't be paired with themselves.")
        seen += [a, b]
    bye = situation.options.manual_bye
    if bye is not None:
        seen.append(bye)
    unknown = sorted(set(seen) - field)
    if unknown:
        raise PairingError(
            "not_in_field", f"Player {unknown[0]} is not playing in round {situation.round}."
        )
    twice = sorted(player for player, count in Counter(seen).items() if count > 1)
    if twice:
        raise PairingError("paired_twice", f"Player {twice[0]} is paired more than once.")
    missing = sorted(field - set(seen))
    if missing:
        raise PairingError(
            "unpaired", f"Player {missing[0]} has no pairing in round {situation.round}."
        )
    return [(a, b) for a, b in situation.options.manual], bye


#: Each method by the name the API and the pages use.
METHODS: dict[str, Method] = {
    "round_robin": _round_robin,
    "swiss": _swiss,
    "koth": _king_of_the_hill,
    "fontes": _initial_fontes,
    "manual": _manual,
}
#: Methods that pair from the standings, and so take the bye and Gibsonization as stated.
BY_STANDINGS = frozenset({"swiss", "koth"})


def seat(
    a: int, b: int, firsts: Counter[int], seconds: Counter[int], draw: random.Random
) -> tuple[int, int]:
    """(first, second): fewer firsts so far goes first, then more seconds, else a draw."""
    if firsts[a] != firsts[b]:
        return (a, b) if firsts[a] < firsts[b] else (b, a)
    if seconds[a] != seconds[b]:
        return (a, b) if seconds[a] > seconds[b] else (b, a)
    return (a, b) if draw.random() < 0.5 else (b, a)


def _gibson_couples(situation: Situation, ids: list[int]) -> tuple[Couples, int | None, list[int]]:
    """(couples, bye, gibsonized) that Gibsonization decides, as tsh's COP.pm; see
    ``gibson``."""
    rules = situation.rules
    rows = [situation.rows[player] for player in situation.order if player in ids]
    left = rules.rounds - situation.based_on
    found = gibson.gibsonized(rows, left, rules.gibson_spread, rules.prize_places)
    leaders = [row.player.id for row in found]
    couples = [(leaders[i], leaders[i + 1]) for i in range(0, len(leaders) - 1, 2)]
    if len(leaders) % 2 == 0:
        return couples, None, leaders
    leftover = leaders[-1]
    if len(ids) % 2:
        return couples, leftover, leaders
    cashing = {
        row.player.id for row in gibson.can_cash(rows, left, rules.prize_places, len(leaders))
    }
    candidates = [row.player.id for row in rows[len(leaders) :] if row.player.id not in cashing]
    if not candidates:
        return couples, None, leaders
    fewest = min(situation.times_met(leftover, player) for player in candidates)
    opponent = next(p for p in candidates if situation.times_met(leftover, p) == fewest)
    return [*couples, (leftover, opponent)], None, leaders


def pair_round(
    method: str,
    players: Sequence[Competitor],
    results: Iterable[Result],
    rules: Rules,
    round: int,
    *,
    based_on: int | None = None,
    options: Options | None = None,
) -> RoundPairings:
    """Pair ``round`` by ``method`` (a key of ``METHODS``) from the results before it.

    ``based_on`` is the last round whose results the standings count (the round before by
    default; ``round - 2`` pairs from the round before last). Results of later rounds still
    count as meetings, firsts and byes.

    >>> field = [Competitor(1, "Ann", 1700), Competitor(2, "Ben", 1600), Competitor(3, "Cy", 1500)]
    >>> paired = pair_round("swiss", field, [], Rules(rounds=3), 1)
    >>> [(p.table, p.first, p.second) for p in paired.pairings], paired.bye
    ([(1, 1, 2)], 3)
    """
    if method not in METHODS:
        raise PairingError("unknown_method", f"There is no pairing method called {method!r}.")
    options = options or Options()
    based_on = round - 1 if based_on is None else based_on
    if not 0 <= based_on < round:
        raise PairingError(
            "based_on", f"Round {round} can be paired from rounds 0 to {round - 1}, not {based_on}."
        )
    known = check_results(results)
    history = [result for result in known if result.round < round]
    if any(result.round == round for result in known):
        raise PairingError("paired_twice", f"Round {round} has pairings or results already.")
    standings = compute_standings(players, history, rules, through=based_on)
    field_ids = {p.id for p in players if p.active and p.joined_round <= round}
    order = tuple(row.player.id for row in standings if row.player.id in field_ids)
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    byes: Counter[int] = Counter()
    for result in history:
        if isinstance(result, Bout):
            firsts[result.first] += 1
            seconds[result.second] += 1
        elif isinstance(result, Bye):
            byes[result.player] += 1
    last = max((result.round for result in history), default=0)
    situation = Situation(
        round=round,
        based_on=based_on,
        rules=rules,
        options=options,
        order=order,
        rows={row.player.id: row for row in standings},
        players=tuple(players),
        met=Counter(meetings(history)),
        met_last_round=frozenset(meetings(r for r in history if r.round == last)),
        byes=byes,
    )

    remaining = list(order)
    fixed: Couples = []
    bye: int | None = None
    leaders: list[int] = []
    if method in BY_STANDINGS:
        if rules.gibson:
            fixed, bye, leaders = _gibson_couples(situation, remaining)
        taken = {player for couple in fixed for player in couple} | {bye}
        remaining = [player for player in remaining if player not in taken]
        if len(remaining) % 2:
            fewest = min(byes[player] for player in remaining)
            bye = [player for player in remaining if byes[player] == fewest][-1]
            remaining.remove(bye)
    couples, scheduled_bye = METHODS[method](situation, remaining)
    bye = bye if scheduled_bye is None else scheduled_bye

    position = {player: index for index, player in enumerate(order)}
    couples = sorted(fixed + couples, key=lambda c: min(position[c[0]], position[c[1]]))
    pairings = []
    for table, (a, b) in enumerate(couples, start=1):
        draw = random.Random(f"{rules.seed}:{round}:{min(a, b)}:{max(a, b)}")
        first, second = seat(a, b, firsts, seconds, draw)
        pairings.append(Matchup(table, first, second))
    return RoundPairings(round, method, tuple(pairings), bye, tuple(leaders))

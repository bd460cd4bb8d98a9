"""An event's rounds: pairing the next (each table a game made by
``domain.check_create_game``), taking the latest back before its first turn, swapping two
players of it."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from referee import IllegalAction, InputError
from referee.events import (
    Bout,
    EventError,
    Options,
    RoundPairings,
    pair_round,
    seat,
)
from scorekeeper.events.lifecycle import mark_first_tonight
from scorekeeper.events.reads import (
    competitor_of,
    divisions_of,
    entrant_named,
    entrants_of,
    in_division,
    options_of,
    pairings_of,
    refused,
    results_of,
    rules_of,
)
from scorekeeper.events.version import do_bump_for_event
from scorekeeper.games import domain
from scorekeeper.games.errors import Conflict
from scorekeeper.models import (
    Entrant,
    Game,
    Pairing,
    ReplacedGame,
    Tournament,
    TournamentRound,
    Turn,
    name_key,
)


def do_pair_round(
    tournament: Tournament,
    method: str,
    *,
    round: int | None = None,
    based_on: int | None = None,
    manual: Sequence[tuple[str, str]] = (),
    manual_byes: Sequence[str] = (),
) -> TournamentRound:
    """Pair the next round by ``method``, each division on its own, and make a game for each
    table, its first player seated first, with the event's rules: all in one transaction,
    under the event's lock. ``round``, when given, must be the next one (a round paired
    already is refused). ``manual`` and ``manual_byes`` are the couples and byes by hand."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        paired = tournament.round_set.count()
        number = paired + 1
        if round is not None and round != number:
            if round <= paired:
                raise Conflict("paired_twice", f"Round {round} is paired already.")
            raise IllegalAction("not_next", f"The next round to pair is round {number}.")
        if number > tournament.rounds:
            raise Conflict(
                "event_over", f"All {tournament.rounds} rounds of {tournament.name} are paired."
            )
        entrants = entrants_of(tournament)
        made = _pair_divisions(tournament, entrants, method, number, based_on, manual, manual_byes)
        if not any(division.pairings or division.bye for division in made):
            raise IllegalAction("nobody_to_pair", f"Nobody is left to pair in round {number}.")
        try:
            with transaction.atomic():
                paired_round = TournamentRound.objects.create(
                    tournament=tournament,
                    number=number,
                    method=method,
                    based_on=number - 1 if based_on is None else based_on,
                    gibsonized=[pk for division in made for pk in division.gibsonized],
                )
        except IntegrityError:
            raise Conflict("paired_twice", f"Round {number} is paired already.") from None
        entrant_of = {entrant.pk: entrant for entrant in entrants}
        table = 0
        for division in made:
            for pairing in division.pairings:
                table += 1
                first, second = entrant_of[pairing.first], entrant_of[pairing.second]
                game = _table_game(tournament, first, second, table)
                Pairing.objects.create(
                    round=paired_round, table=table, first=first, second=second, game=game
                )
            if division.bye is not None:
                Pairing.objects.create(round=paired_round, first=entrant_of[division.bye])
        mark_first_tonight(tournament)
        do_bump_for_event(tournament)
    return paired_round


def _table_game(tournament: Tournament, first: Entrant, second: Entrant, table: int) -> Game:
    """The game of a table: ``first`` seated first, with the event's rules; its clock waits
    for the table to start it."""
    return domain.check_create_game(
        ruleset=tournament.ruleset,
        players=[first.player.name, second.player.name],
        lexicon=tournament.lexicon,
        challenge_mode=tournament.challenge_mode,
        first=first.player.name,
        club=tournament.club,
        table_number=table,
        options=options_of(tournament),
        clock=tournament.clock,
        clock_waits=True,
    )


def _pair_divisions(
    tournament: Tournament,
    entrants: Sequence[Entrant],
    method: str,
    number: int,
    based_on: int | None,
    manual: Sequence[tuple[str, str]],
    manual_byes: Sequence[str],
) -> list[RoundPairings]:
    """Round ``number`` of each division, paired by the core from that division's results."""
    by_name = {name_key(e.player.name): e for e in entrants}

    def entrant(name: str) -> Entrant:
        if name_key(name) not in by_name:
            raise InputError("unknown_player", f"{name} is not entered in {tournament.name}.")
        return by_name[name_key(name)]

    couples = [(entrant(a), entrant(b)) for a, b in manual]
    for a, b in couples:
        if a.division != b.division:
            raise IllegalAction(
                "other_division",
                f"{a.player.name} and {b.player.name} are in different divisions.",
            )
    byes = [entrant(name) for name in manual_byes]
    pairings = pairings_of(tournament)
    made = []
    for division in divisions_of(entrants):
        field = [e for e in entrants if e.division == division]
        division_byes = [e.pk for e in byes if e.division == division]
        if len(division_byes) > 1:
            raise IllegalAction("two_byes", "A division has at most one bye a round.")
        options = Options(
            fontes_rounds=tournament.fontes_rounds,
            manual=tuple((a.pk, b.pk) for a, b in couples if a.division == division),
            manual_bye=division_byes[0] if division_byes else None,
        )
        try:
            made.append(
                pair_round(
                    method,
                    [competitor_of(e) for e in field],
                    results_of(tournament, in_division(pairings, field)),
                    rules_of(tournament),
                    number,
                    based_on=based_on,
                    options=options,
                )
            )
        except EventError as error:
            raise refused(error) from None
    return made


# Pairing a round again before it starts --------------------------------------------------------
def _unstarted(tournament: Tournament, number: int) -> TournamentRound:
    """Round ``number``, the latest, with no result and no turn at any of its tables; or the
    refusal that says why it can't be paired again."""
    latest = tournament.round_set.order_by("-number").first()
    paired = tournament.round_set.filter(number=number).first()
    if paired is None:
        raise IllegalAction("not_paired", f"Round {number} is not paired.")
    if latest is not None and latest.number != number:
        raise IllegalAction(
            "later_round",
            f"Round {latest.number} is paired after round {number}: take it back first.",
        )
    pairings = list(paired.pairings.order_by("table"))
    begun = set(  # one query for the round, however many tables
        Turn.objects.filter(game__pairing__round=paired)
        .order_by()
        .values_list("game_id", flat=True)
        .distinct()
    )
    for pairing in pairings:
        if pairing.table is None:
            continue
        if pairing.absent_id is not None or pairing.first_score is not None:
            raise Conflict(
                "round_begun",
                f"Table {pairing.table} of round {number} has its result: the round has begun.",
            )
        if pairing.game_id in begun:
            raise Conflict(
                "round_begun",
                f"Table {pairing.table}'s game in round {number} has begun: a round can be "
                "paired again only before its first turn.",
            )
    return paired


def can_pair_again(tournament: Tournament, number: int) -> bool:
    """Whether round ``number`` may still be taken back or swapped (``do_unpair_round``)."""
    try:
        _unstarted(tournament, number)
    except (IllegalAction, Conflict):
        return False
    return True


def do_unpair_round(tournament: Tournament, number: int) -> int:
    """Take back round ``number`` before it starts (the latest round, no game in it with a
    turn): its tables' games are taken away by the domain and the round can be paired again.
    Returns how many games went."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        paired = _unstarted(tournament, number)
        tables = list(paired.pairings.select_related("first__player", "second__player"))
        games = [p.game_id for p in tables if p.game_id is not None]
        for pairing in tables:
            _replace(tournament, pairing, ReplacedGame.Reason.TAKEN_BACK)
        for game_id in games:
            domain.do_remove_game(game_id)
        paired.delete()
        do_bump_for_event(tournament)
    return len(games)


def do_swap(tournament: Tournament, number: int, one: str, other: str) -> TournamentRound:
    """Swap two players of round ``number`` before it starts: each takes the other's place
    (opponent, or bye) and the round counts as paired by hand. Only their two tables change:
    each keeps its number and gets a new game, its first player chosen as the core seats a
    couple (fewer firsts, then more seconds, else the event's draw); every other table keeps
    its game, so the scorer links handed out still open them. Both must be in one division,
    at different tables."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        a, b = entrant_named(tournament, one), entrant_named(tournament, other)
        if a.pk == b.pk:
            raise IllegalAction("self_swap", f"Swap {a.player.name} with someone else.")
        if a.division != b.division:
            raise IllegalAction(
                "other_division", f"{a.player.name} and {b.player.name} are in different divisions."
            )
        paired = _unstarted(tournament, number)
        swapped = {a.pk: b, b.pk: a}
        touched = [
            pairing
            for pairing in paired.pairings.select_related("first__player", "second__player")
            if {pairing.first_id, pairing.second_id} & {a.pk, b.pk}
        ]
        for pairing in touched:
            if {pairing.first_id, pairing.second_id} == {a.pk, b.pk}:
                raise IllegalAction(
                    "same_table",
                    f"{a.player.name} and {b.player.name} are at the same table already.",
                )
        seen = {pk for pairing in touched for pk in (pairing.first_id, pairing.second_id)}
        for entrant in (a, b):
            if entrant.pk not in seen:
                raise IllegalAction(
                    "not_in_round", f"{entrant.player.name} is not paired in round {number}."
                )
        firsts, seconds = _seatings_before(tournament, number)
        for pairing in touched:
            moved = swapped.get(pairing.first_id, pairing.first)
            if pairing.second is None:  # the bye goes to the other player
                pairing.first = moved
                pairing.save(update_fields=["first"])
                continue
            other_side = swapped.get(pairing.second_id or 0, pairing.second)
            draw = random.Random(
                f"{tournament.seed}:{number}:{min(moved.pk, other_side.pk)}:"
                f"{max(moved.pk, other_side.pk)}"
            )
            first_pk, _ = seat(moved.pk, other_side.pk, firsts, seconds, draw)
            first, second = (moved, other_side) if first_pk == moved.pk else (other_side, moved)
            was = pairing.game_id
            assert pairing.table is not None
            _replace(tournament, pairing, ReplacedGame.Reason.SWAPPED)
            pairing.first, pairing.second = first, second
            pairing.game = _table_game(tournament, first, second, pairing.table)
            pairing.save(update_fields=["first", "second", "game"])
            if was is not None:
                domain.do_remove_game(was)
        paired.method = "manual"
        paired.save(update_fields=["method"])
        do_bump_for_event(tournament)
        return paired


def _replace(tournament: Tournament, pairing: Pairing, reason: str) -> None:
    """Keep where a table's game that is about to be taken away was, for its old link."""
    if pairing.game_id is None or pairing.table is None or pairing.second is None:
        return
    ReplacedGame.objects.update_or_create(
        game_id=pairing.game_id,
        defaults={
            "tournament": tournament,
            "round": pairing.round.number,
            "table": pairing.table,
            "players": [pairing.first.player.name, pairing.second.player.name],
            "reason": reason,
            "at": timezone.now(),
        },
    )


def swap_rematches(tournament: Tournament, number: int, one: str, other: str) -> list[str]:
    """The rematches that swapping ``one`` and ``other`` in round ``number`` would make, each
    as a sentence ("Ann Archer and Cy Cole met in round 1."); empty when none (or when the
    swap would be refused: its refusal says why)."""
    try:
        a, b = entrant_named(tournament, one), entrant_named(tournament, other)
    except InputError:
        return []
    swapped = {a.pk: b, b.pk: a}
    pairings = pairings_of(tournament)
    couples = []
    for pairing in pairings:
        if pairing.round.number != number or pairing.second is None:
            continue
        if {pairing.first_id, pairing.second_id} & {a.pk, b.pk}:
            new = (
                swapped.get(pairing.first_id, pairing.first),
                swapped.get(pairing.second_id or 0, pairing.second),
            )
            if new[0].pk != new[1].pk:
                couples.append(new)
    said = []
    for x, y in (sorted(couple, key=lambda e: e.number) for couple in couples):
        met = [
            p.round.number
            for p in pairings
            if p.round.number < number and {p.first_id, p.second_id} == {x.pk, y.pk}
        ]
        if met:
            rounds = " and ".join(str(r) for r in met)
            said.append(
                f"{x.player.name} and {y.player.name} met in round {rounds}: "
                "the swap makes a rematch."
            )
    return said


def _seatings_before(tournament: Tournament, number: int) -> tuple[Counter[int], Counter[int]]:
    """How many times each entrant went first and second before round ``number``."""
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    for result in results_of(tournament):
        if isinstance(result, Bout) and result.round < number:
            firsts[result.first] += 1
            seconds[result.second] += 1
    return firsts, seconds

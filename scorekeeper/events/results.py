"""An event's results kept outside its games: typed in, corrected with a trace, voided, a
forfeit for an absent player, a withdrawal (their open games become forfeit wins)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Q

from referee import IllegalAction, InputError
from scorekeeper.events.entries import SCORE_LOWEST, SCORE_MOST
from scorekeeper.events.reads import entrant_named, final_scores, pairings_of
from scorekeeper.events.version import do_bump_for_event
from scorekeeper.games import domain
from scorekeeper.games.errors import Conflict
from scorekeeper.models import (
    Entrant,
    Game,
    Pairing,
    ResultCorrection,
    Tournament,
    name_key,
)


# Results and withdrawals -----------------------------------------------------------------------
def do_enter_result(
    tournament: Tournament,
    round: int,
    player1: str,
    score1: int,
    player2: str,
    score2: int,
    *,
    by: str = "",
) -> Pairing:
    """Type in the result of a game played without the app ("table 4: Ann 412 Ben 377"):
    kept on the pairing, without a turn log; the table's game, if still open, is abandoned."""
    if name_key(player1) == name_key(player2):
        raise IllegalAction("self_pairing", f"{player1} can't play themselves.")
    for score in (score1, score2):
        if not SCORE_LOWEST <= score <= SCORE_MOST:
            raise InputError("bad_score", f"A score is {SCORE_LOWEST} to {SCORE_MOST}.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        one, two = entrant_named(tournament, player1), entrant_named(tournament, player2)
        pairing = (
            Pairing.objects.select_related("round", "game", "first__player", "second__player")
            .filter(round__tournament=tournament, round__number=round)
            .filter(first__in=(one, two), second__in=(one, two))
            .first()
        )
        if pairing is None:
            raise IllegalAction(
                "not_paired",
                f"{one.player.name} and {two.player.name} are not paired in round {round}.",
            )
        if pairing.absent_id is not None or final_scores(pairing) is not None:
            raise Conflict(
                "has_result",
                f"The game of {one.player.name} and {two.player.name} in round {round} "
                "has its result already.",
            )
        if pairing.first_id == one.pk:
            pairing.first_score, pairing.second_score = score1, score2
        else:
            pairing.first_score, pairing.second_score = score2, score1
        pairing.save(update_fields=["first_score", "second_score"])
        _close(pairing.game, by)
        do_bump_for_event(tournament)
    return pairing


# Corrections with a trace ----------------------------------------------------------------------
def _kept_pairing(tournament: Tournament, round: int, player: str, other: str | None) -> Pairing:
    """The table of ``player`` (and ``other``, if named) in ``round``, or the refusal."""
    one = entrant_named(tournament, player)
    found = (
        Pairing.objects.select_related("round", "game", "first__player", "second__player")
        .filter(round__tournament=tournament, round__number=round, second__isnull=False)
        .filter(Q(first=one) | Q(second=one))
    )
    if other is not None:
        two = entrant_named(tournament, other)
        if two.pk == one.pk:
            raise IllegalAction("self_pairing", f"{one.player.name} can't play themselves.")
        found = found.filter(Q(first=two) | Q(second=two))
        pairing = found.first()
        if pairing is None:
            raise IllegalAction(
                "not_paired",
                f"{one.player.name} and {two.player.name} are not paired in round {round}.",
            )
        return pairing
    pairing = found.first()
    if pairing is None:
        raise IllegalAction("not_paired", f"{one.player.name} has no game in round {round}.")
    return pairing


def _check_kept(pairing: Pairing) -> None:
    """Refuse to correct a result the app's own game gave: its log is where it changes."""
    typed = pairing.first_score is not None or pairing.absent_id is not None
    if not typed and final_scores(pairing) is not None:
        assert pairing.second is not None
        raise IllegalAction(
            "played_in_app",
            f"The game of {pairing.first.player.name} and {pairing.second.player.name} in round "
            f"{pairing.round.number} was played in the app: correct it through its own log "
            "(the game's page, Correct a turn).",
        )


def _trace(pairing: Pairing, by: str, before: tuple[Any, Any, Any]) -> ResultCorrection:
    first, second, absent = before
    return ResultCorrection.objects.create(
        pairing=pairing,
        by=by,
        first_score_before=first,
        second_score_before=second,
        absent_before_id=absent,
        first_score_after=pairing.first_score,
        second_score_after=pairing.second_score,
        absent_after_id=pairing.absent_id,
    )


def do_correct_result(
    tournament: Tournament,
    round: int,
    player1: str,
    score1: int,
    player2: str,
    score2: int,
    *,
    by: str = "",
) -> Pairing:
    """Set the result of a game played without the app: typed in when it has none, else
    corrected (a typed result or a forfeit, whose place the scores take), the old result
    kept with who changed it and when (``ResultCorrection``). Standings, ratings and files
    follow at once; later rounds stay as paired. A game played in the app is refused: its
    own log corrects it."""
    for score in (score1, score2):
        if not SCORE_LOWEST <= score <= SCORE_MOST:
            raise InputError("bad_score", f"A score is {SCORE_LOWEST} to {SCORE_MOST}.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        pairing = _kept_pairing(tournament, round, player1, player2)
        _check_kept(pairing)
        before = (pairing.first_score, pairing.second_score, pairing.absent_id)
        firsts = name_key(pairing.first.player.name) == name_key(player1)
        scores = (score1, score2) if firsts else (score2, score1)
        if before == (*scores, None):
            raise Conflict("same_result", f"Round {round}'s game has that result already.")
        pairing.first_score, pairing.second_score = scores
        pairing.absent = None
        pairing.save(update_fields=["first_score", "second_score", "absent"])
        if before != (None, None, None):
            _trace(pairing, by, before)
        _close(pairing.game, by)
        do_bump_for_event(tournament)
    return pairing


def do_void_result(tournament: Tournament, round: int, player: str, *, by: str = "") -> Pairing:
    """Void the result kept for ``player``'s game of ``round`` (a forfeit, or scores typed
    in): the table waits for a result again, and the old one is kept in its trace."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        pairing = _kept_pairing(tournament, round, player, None)
        _check_kept(pairing)
        before = (pairing.first_score, pairing.second_score, pairing.absent_id)
        if before == (None, None, None):
            raise Conflict("no_result", f"{player}'s game in round {round} has no result to void.")
        pairing.first_score = pairing.second_score = None
        pairing.absent = None
        pairing.save(update_fields=["first_score", "second_score", "absent"])
        _trace(pairing, by, before)
        do_bump_for_event(tournament)
    return pairing


def _close(game: Game | None, by: str) -> None:
    """Abandon a table's game that is still open: its result is kept elsewhere now, and
    the director's screen no longer shows it in play."""
    if game is not None and game.status in (Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS):
        domain.act(game.pk, domain.TurnCommand("abandon", by=by))


def do_forfeit(tournament: Tournament, round: int, absent: str, *, by: str = "") -> Pairing:
    """``absent`` did not turn up for their game of ``round``: a loss by the forfeit margin
    for them and a win by it for their opponent (the event rules' ``Forfeit``), and the table's
    game, if still open, is abandoned through the domain. Refused once the game has a result."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        missing = entrant_named(tournament, absent)
        pairing = (
            Pairing.objects.select_related("round", "game", "first__player", "second__player")
            .filter(round__tournament=tournament, round__number=round, second__isnull=False)
            .filter(Q(first=missing) | Q(second=missing))
            .first()
        )
        if pairing is None:
            raise IllegalAction(
                "not_paired", f"{missing.player.name} has no game in round {round}."
            )
        if pairing.absent_id is not None or final_scores(pairing) is not None:
            raise Conflict(
                "has_result",
                f"{missing.player.name}'s game in round {round} has its result already.",
            )
        pairing.absent = missing
        pairing.save(update_fields=["absent"])
        _close(pairing.game, by)
        do_bump_for_event(tournament)
    return pairing


def do_withdraw(entrant: Entrant, *, by: str = "") -> list[Pairing]:
    """Withdraw a player: later rounds are paired without them, and their games already
    paired and not yet over become forfeit wins for their opponents (those pairings are
    returned, in round order)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=entrant.tournament_id)
        entrant = Entrant.objects.select_related("player").get(pk=entrant.pk)
        if not entrant.active:
            raise Conflict("withdrawn", f"{entrant.player.name} has withdrawn already.")
        entrant.active = False
        entrant.save(update_fields=["active"])
        forfeited = []
        for pairing in pairings_of(tournament):
            mine = entrant.pk in (pairing.first_id, pairing.second_id)
            open_game = pairing.absent_id is None and final_scores(pairing) is None
            if mine and pairing.second_id is not None and open_game:
                pairing.absent = entrant
                pairing.save(update_fields=["absent"])
                _close(pairing.game, by)
                forfeited.append(pairing)
        do_bump_for_event(tournament)
    return forfeited

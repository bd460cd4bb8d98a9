"""A turn sent twice: a double tap on Submit, or a reload of the page that sent it.

The domain refuses the second copy as stale (its ``expected_turn`` is taken). If the turn that
took that number is the very same action, the table meant nothing new, so the page answers
with that turn's success message instead of an error.
"""

from __future__ import annotations

from referee import Play, RefereeError, get_ruleset
from scorekeeper.games.turn_kinds import KINDS
from scorekeeper.models import Game, Turn


def same_turn(
    game: Game, number: int | None, action: str, notation: str, count: int | None
) -> Turn | None:
    """The turn numbered ``number``, if it is in effect and is what this request asks for.

    A play is the same when it put down the same tiles; letters the request wrote on squares
    that now show them (played through) don't count, since the game's board already has them.
    """
    if number is None:
        return None
    turn = (
        game.turns.filter(number=number, undone_at__isnull=True, action=action)
        .select_related("seat__player", "target__seat__player")
        .first()
    )
    if turn is None:
        return None
    kind = KINDS[action]  # the turn found is of this kind
    if kind.exchanges_tiles:
        return turn if count is None or count == turn.count else None
    if not kind.places_tiles:
        return turn
    ruleset = get_ruleset(game.ruleset)
    try:
        asked = {(p.row, p.col, p.tile) for p in Play.parse(notation, ruleset)}
    except RefereeError:
        return None
    entered = {(r, c, t) for r, c, t in turn.tiles}
    if not entered <= asked:
        return None
    through = asked - entered
    game.refresh_from_db(fields=["board"])
    board = game.board
    if all(_top(board, r, c) == t.upper() for r, c, t in through):
        return turn
    return None


def _top(board: object, row: int, col: int) -> str | None:
    """The top tile's letter (a blank's too, in capitals) on a stored board, or None."""
    try:
        stack = board[row][col]  # type: ignore[index]
    except (IndexError, KeyError, TypeError):
        return None
    return str(stack[-1]).upper() if stack else None

"""The referee: the rules of Upwords, Letter UP and the classic crossword game, as plain Python.

Rulesets are data; a ``GameState`` takes plays written the way players write them, checks
them in layers (input, geometry, words, the dictionary), scores them, keeps the bag, the racks
and the challenges, and ends the game. Word lists come from the ``LexiconLibrary`` (one per
process: ``configure``, then ``get_library``), GCG records go through ``read_gcg`` and
``write_gcg``, and ``search`` finds every play a rack allows.

>>> import referee
>>> game = referee.GameState.new("upwords-10", players=2)
>>> game.play(referee.Play.parse("5D MOOD", game.ruleset)).score
8
>>> game.play(referee.Play.parse("G6 EAR", game.ruleset)).notation
'G5 .EAR'

Callers import from here (``from referee import GameState``), never from the modules inside.
The package imports no Django: its Django edge (``apps.py``, the word judge's ``views.py`` and
``urls.py``, ``management/``) is loaded by Django alone and imported by nothing here.
"""

from __future__ import annotations

from referee.board import Board, square_name
from referee.clock import CAPPED as CLOCK_CAPPED
from referee.clock import LOSES as CLOCK_LOSES
from referee.clock import PLAYER as PLAYER_CLOCK
from referee.clock import SETTINGS as CLOCK_SETTINGS
from referee.clock import TURN as TURN_TIMER
from referee.clock import ClockRule, ClockState, check_moment, check_readings, format_ms
from referee.errors import (
    GameOver,
    IllegalAction,
    IllegalPlay,
    InputError,
    RefereeError,
    Violation,
)
from referee.game import (
    ABANDONED,
    FINISHED,
    IN_PROGRESS,
    MAX_PLAYERS,
    VOID,
    GameState,
    Outcome,
    draw_for_first,
)
from referee.gcg import MAX_SIZE as GCG_MAX_SIZE
from referee.gcg import EventKind as GcgEventKind
from referee.gcg import (
    GcgEntry,
    GcgError,
    GcgEvent,
    GcgNote,
    GcgPlayer,
    GcgRecord,
    parse_position,
    play_placements,
    read_gcg,
    write_gcg,
)
from referee.gcg_check import Mismatch, check_record, infer_options
from referee.lexicon import (
    HONOUR_ID,
    HonourSystem,
    Lexicon,
    LexiconFileError,
    LexiconInfo,
    LexiconLibrary,
    UnknownLexicon,
    compile_lexicon,
)
from referee.library import LibraryNotReady, configure, get_library, reset_library
from referee.movegen import Budget, Found, Move, generate, raw_plays, search
from referee.play import Placement, Play
from referee.rules import Evaluation, evaluate
from referee.rulesets import (
    BLANK,
    RULESETS,
    RuleOptions,
    Ruleset,
    challenge_rule,
    challenge_rule_name,
    get_ruleset,
    is_blank,
    tile_in_set,
)

__all__ = [
    # The game clock
    "CLOCK_CAPPED",
    "CLOCK_LOSES",
    "CLOCK_SETTINGS",
    "PLAYER_CLOCK",
    "TURN_TIMER",
    "ClockRule",
    "ClockState",
    "check_moment",
    "check_readings",
    "format_ms",
    # The game
    "ABANDONED",
    "FINISHED",
    "IN_PROGRESS",
    "MAX_PLAYERS",
    "VOID",
    "GameState",
    "Outcome",
    "draw_for_first",
    # Rulesets and options
    "BLANK",
    "RULESETS",
    "RuleOptions",
    "Ruleset",
    "challenge_rule",
    "challenge_rule_name",
    "get_ruleset",
    "is_blank",
    "tile_in_set",
    # The board, plays and the rules
    "Board",
    "square_name",
    "Placement",
    "Play",
    "Evaluation",
    "evaluate",
    # Errors
    "GameOver",
    "IllegalAction",
    "IllegalPlay",
    "InputError",
    "RefereeError",
    "Violation",
    # Word lists
    "HONOUR_ID",
    "HonourSystem",
    "Lexicon",
    "LexiconFileError",
    "LexiconInfo",
    "LexiconLibrary",
    "UnknownLexicon",
    "compile_lexicon",
    "LibraryNotReady",
    "configure",
    "get_library",
    "reset_library",
    # Every play a rack allows
    "Budget",
    "Found",
    "Move",
    "generate",
    "raw_plays",
    "search",
    # GCG records
    "GCG_MAX_SIZE",
    "GcgEntry",
    "GcgError",
    "GcgEvent",
    "GcgEventKind",
    "GcgNote",
    "GcgPlayer",
    "GcgRecord",
    "parse_position",
    "play_placements",
    "read_gcg",
    "write_gcg",
    "Mismatch",
    "check_record",
    "infer_options",
]

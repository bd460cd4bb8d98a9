"""Reading an event: its rows as the event rules' data (``referee.events``) and their answers
back: standings and scorecards per division, ratings, its rounds, results and corrections, the
entrant a name means, what a round taken back left behind, the club's running event.

Standings are computed when read, from each game's stored ``final_score`` (never its turn
log), so a game's end or a correction made after it changes them at once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any
from uuid import UUID

from django.db.models import Count, Max
from django.utils import timezone

from referee import IllegalAction, InputError
from referee.events import (
    Absence,
    Bout,
    Bye,
    Competitor,
    EventError,
    Forfeit,
    Result,
    Rules,
    Standing,
    compute_standings,
    rate_event,
)
from scorekeeper.models import (
    Club,
    Entrant,
    Game,
    Pairing,
    ReplacedGame,
    ResultCorrection,
    Seat,
    Tournament,
    name_key,
)


@dataclass(frozen=True)
class Row:
    """One line of the standings as shown: the event rules' ``Standing``, whether the player is
    gibsonized in the latest round, and their rating before the event and its change."""

    standing: Standing
    entrant: Entrant
    gibsonized: bool
    rating_before: int
    rating_after: int

    @property
    def rating_change(self) -> int:
        return self.rating_after - self.rating_before


def refused(error: EventError) -> IllegalAction:
    """The event rules' refusal as the domain's (422, its code and sentence)."""
    return IllegalAction(error.code, error.message)


# Making an event ---------------------------------------------------------------------------------
def rules_of(tournament: Tournament) -> Rules:
    return Rules(
        rounds=tournament.rounds,
        bye_spread=tournament.bye_spread,
        forfeit_spread=tournament.forfeit_spread,
        gibson=tournament.gibson,
        gibson_spread=tournament.gibson_spread,
        prize_places=tournament.prize_places,
        repeats_allowed=tournament.repeats_allowed,
        seed=tournament.seed,
    )


def options_of(tournament: Tournament) -> dict[str, str]:
    """The rule options the event's games take beyond their ruleset's own."""
    kept = tournament.rejected_challenge
    return {"rejected_challenge": kept} if kept else {}


# The rows as the event rules' data ------------------------------------------------------------
def entrants_of(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.select_related("player").order_by("number"))


def divisions_of(entrants: Sequence[Entrant]) -> list[str]:
    """The divisions of an event's entrants, in the order their first players were entered
    (``[""]`` for an event of one division)."""
    found = dict.fromkeys(entrant.division for entrant in sorted(entrants, key=lambda e: e.number))
    return list(found) or [""]


def in_division(pairings: Sequence[Pairing], entrants: Sequence[Entrant]) -> list[Pairing]:
    """The pairings of a division (both players of a pairing are always in one division)."""
    ids = {entrant.pk for entrant in entrants}
    return [pairing for pairing in pairings if pairing.first_id in ids]


def competitor_of(entrant: Entrant) -> Competitor:
    return Competitor(
        id=entrant.pk,
        name=entrant.player.name,
        rating=entrant.rating,
        career_games=entrant.career_games,
        active=entrant.active,
        joined_round=entrant.joined_round,
        t_name=entrant.t_name,
        t_fields=tuple((str(tag), str(words)) for tag, words in entrant.t_fields.items()),
    )


def pairings_of(tournament: Tournament) -> list[Pairing]:
    return list(
        Pairing.objects.filter(round__tournament=tournament)
        .select_related("round", "game", "first__player", "second__player", "absent__player")
        .prefetch_related("game__seats")
        .order_by("round__number", "table")
    )


def final_scores(pairing: Pairing) -> tuple[int, int] | None:
    """(first's, second's) final scores: typed in, or the game's once it has finished."""
    if pairing.first_score is not None and pairing.second_score is not None:
        return pairing.first_score, pairing.second_score
    game = pairing.game
    if game is None or game.status != Game.Status.FINISHED or pairing.second is None:
        return None
    scores = {seat.player_id: seat.final_score for seat in game.seats.all()}
    first, second = scores.get(pairing.first.player_id), scores.get(pairing.second.player_id)
    if first is None or second is None:
        return None
    return first, second


def result_shown(pairing: Pairing) -> str:
    """A table's result as the event's page shows it: "412–377" (first's score first), "Cy
    Cole absent" for a forfeit, "" while it has none."""
    if pairing.absent_id is not None and pairing.second_id is not None:
        absent = pairing.first if pairing.absent_id == pairing.first_id else pairing.second
        return f"{absent.player.name if absent else ''} absent"
    scores = final_scores(pairing)
    return f"{scores[0]}–{scores[1]}" if scores is not None else ""


def result_of(pairing: Pairing, tournament: Tournament) -> Result:
    number = pairing.round.number
    forfeit = tournament.forfeit_spread if pairing.spread is None else pairing.spread
    if pairing.second_id is None and pairing.absent_id == pairing.first_id:
        return Absence(number, pairing.first_id, forfeit)
    if pairing.second_id is None:
        bye = tournament.bye_spread if pairing.spread is None else pairing.spread
        return Bye(number, pairing.first_id, bye)
    if pairing.absent_id is not None:
        present = pairing.second_id if pairing.absent_id == pairing.first_id else pairing.first_id
        assert present is not None
        return Forfeit(number, present, pairing.absent_id, forfeit)
    scores = final_scores(pairing)
    first, second = scores if scores is not None else (None, None)
    return Bout(number, pairing.first_id, pairing.second_id, first, second)


def results_of(tournament: Tournament, pairings: Sequence[Pairing] | None = None) -> list[Result]:
    found = pairings_of(tournament) if pairings is None else pairings
    return [result_of(pairing, tournament) for pairing in found]


# A pairing read as a plain row (``read_results``, ``latest_tables``), after the round or table.
_PAIRING_ROW = (
    "first_id", "second_id", "absent_id", "first_score", "second_score", "game_id",
    "game__status", "first__player_id", "second__player_id",
)  # fmt: skip


def _final_scores(rows: Sequence[tuple[Any, ...]]) -> dict[tuple[Any, int], int | None]:
    """The final scores of the ended games of these rows (``_PAIRING_ROW`` after one column)
    that have no result typed in, by game and player, in one query."""
    ended = [row[6] for row in rows if row[7] == Game.Status.FINISHED and None in row[4:6]]
    return {
        (game_id, player_id): score
        for game_id, player_id, score in Seat.objects.filter(game_id__in=ended).values_list(
            "game_id", "player_id", "final_score"
        )
    }


def read_results(tournament: Tournament) -> list[Result]:
    """``results_of(tournament)`` read as plain rows, in two queries with no model built
    for each pairing: the standings of an event of hundreds of players and many rounds,
    drawn for its pages (``web.event_parts``) after every change."""
    rows = list(
        Pairing.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table")
        .values_list("round__number", *_PAIRING_ROW, "spread")
    )
    finals = _final_scores(rows)
    found: list[Result] = []
    for number, *row, spread in rows:
        first, second, absent, one, two, game_id, status, first_player, second_player = row
        forfeit = tournament.forfeit_spread if spread is None else spread
        if second is None and absent == first:
            found.append(Absence(number, first, forfeit))
        elif second is None:
            found.append(Bye(number, first, tournament.bye_spread if spread is None else spread))
        elif absent is not None:
            present = second if absent == first else first
            found.append(Forfeit(number, present, absent, forfeit))
        elif one is not None and two is not None:
            found.append(Bout(number, first, second, one, two))
        elif status == Game.Status.FINISHED:
            scores = finals.get((game_id, first_player)), finals.get((game_id, second_player))
            if scores[0] is None or scores[1] is None:
                scores = (None, None)
            found.append(Bout(number, first, second, *scores))
        else:
            found.append(Bout(number, first, second, None, None))
    return found


@dataclass(frozen=True)
class Listed:
    """An entrant as the event's live part lists them: their entry's number, division and
    whether they still play, and the player the event's rules reckon with."""

    number: int
    division: str
    active: bool
    competitor: Competitor


def read_entrants(tournament: Tournament) -> list[Listed]:
    """The event's entrants in entry order, read as plain rows in one query (no model built
    for each of hundreds): for the live part, drawn after every change."""
    rows = tournament.entrants.order_by("number").values_list(
        "pk", "number", "division", "active", "rating", "career_games", "joined_round",
        "t_name", "t_fields", "player__name",
    )  # fmt: skip
    return [
        Listed(
            number,
            division,
            active,
            Competitor(
                id=pk,
                name=name,
                rating=rating,
                career_games=career_games,
                active=active,
                joined_round=joined_round,
                t_name=t_name,
                t_fields=tuple((str(tag), str(words)) for tag, words in t_fields.items()),
            ),
        )
        for (
            pk,
            number,
            division,
            active,
            rating,
            career_games,
            joined_round,
            t_name,
            t_fields,
            name,
        ) in rows
    ]


@dataclass(frozen=True)
class Table:
    """A table of the latest round as the event's live part shows it: its number (None for
    the bye), its players' entries and names (``second`` "" for the bye), its result as
    ``result_shown`` says it, and its game."""

    table: int | None
    first_id: int
    first: str
    second: str
    result: str
    game_id: UUID | None


def latest_tables(tournament: Tournament) -> tuple[int, list[Table], list[int]]:
    """The latest round's number (0 before the first), its tables in table order (the bye
    last) and the entrants gibsonized in it, read as plain rows in three queries."""
    latest = tournament.round_set.order_by("-number").values_list("number", "gibsonized").first()
    if latest is None:
        return 0, [], []
    number, gibsonized = latest
    rows = list(
        Pairing.objects.filter(round__tournament=tournament, round__number=number)
        .order_by("table")
        .values_list("table", *_PAIRING_ROW, "first__player__name", "second__player__name")
    )
    finals = _final_scores(rows)
    tables = []
    for table, *row, first_name, second_name in rows:
        first, second, absent, one, two, game_id, status, first_player, second_player = row
        result = ""  # as ``result_shown`` says it
        if absent is not None and second is not None:
            result = f"{first_name if absent == first else second_name} absent"
        elif one is not None and two is not None:
            result = f"{one}–{two}"
        elif status == Game.Status.FINISHED and second is not None:
            scores = finals.get((game_id, first_player)), finals.get((game_id, second_player))
            if scores[0] is not None and scores[1] is not None:
                result = f"{scores[0]}–{scores[1]}"
        tables.append(Table(table, first, first_name, second_name or "", result, game_id))
    tables.sort(key=lambda t: (t.table is None, t.table or 0))
    return number, tables, list(gibsonized or [])


# Pairing a round -------------------------------------------------------------------------------
def entrant_named(tournament: Tournament, name: str) -> Entrant:
    found = tournament.entrants.select_related("player").filter(player__name_key=name_key(name))
    entrant = found.first()
    if entrant is None:
        raise InputError("unknown_player", f"{name} is not entered in {tournament.name}.")
    return entrant


def where_now(replaced: ReplacedGame) -> list[str]:
    """What an old scorer link of a game taken away says: what happened, and where its
    table's game and its players are now (no secret: the event's page shows the same)."""
    tournament = replaced.tournament
    how = "taken back" if replaced.reason == ReplacedGame.Reason.TAKEN_BACK else "changed by a swap"
    said = [
        f"This was table {replaced.table}'s game in round {replaced.round} of "
        f"{tournament.name}: the round was {how} before the game began, so this game is gone."
    ]
    paired = (
        Pairing.objects.filter(round__tournament=tournament, round__number=replaced.round)
        .select_related("first__player", "second__player")
        .order_by("table")
    )
    if not paired:
        said.append(f"Round {replaced.round} is not paired again yet: ask the director.")
        return said
    keys = {name_key(name) for name in replaced.players}
    for pairing in paired:
        first = pairing.first.player.name
        second = pairing.second.player.name if pairing.second else ""
        if pairing.table == replaced.table:
            said.append(f"Table {pairing.table} is now {first} v {second}.")
        for name, other in ((first, second), (second, first)):
            if name and name_key(name) in keys and pairing.table != replaced.table:
                seat = f"table {pairing.table} against {other}" if other else "the bye"
                said.append(f"{name} now has {seat}.")
    said.append("The director's printed round has each table's new QR code.")
    return said


def games_in_play(tournament: Tournament) -> tuple[int, int]:
    """The latest round and how many of its tables wait for a result (0, 0 before any)."""
    latest = tournament.round_set.order_by("-number").first()
    if latest is None:
        return 0, 0
    pairings = [p for p in pairings_of(tournament) if p.round_id == latest.pk]
    waiting = sum(
        1
        for p in pairings
        if p.second_id is not None and p.absent_id is None and final_scores(p) is None
    )
    return latest.number, waiting


def pairings_by_pk(pk: int) -> Pairing:
    """One pairing as ``pairings_of`` reads them (its players, round and game)."""
    return (
        Pairing.objects.select_related(
            "round", "game", "first__player", "second__player", "absent__player"
        )
        .prefetch_related("game__seats")
        .get(pk=pk)
    )


def today() -> Date:
    return timezone.localdate()


# Reading an event ------------------------------------------------------------------------------
def division_standings(
    tournament: Tournament, results: Sequence[Result] | None = None
) -> list[tuple[str, list[Row]]]:
    """Each division's standings in order, with scorecards, Gibsons and ratings, the
    divisions in entry order (one, named ``""``, for an event of one division); from
    ``results`` (``read_results``'s) when the caller has read them already."""
    entrants = entrants_of(tournament)
    results = results_of(tournament) if results is None else results
    latest = tournament.round_set.order_by("-number").first()
    gibsonized = set(latest.gibsonized) if latest else set()
    by_id = {entrant.pk: entrant for entrant in entrants}
    found = []
    for division in divisions_of(entrants):
        players = [competitor_of(entrant) for entrant in entrants if entrant.division == division]
        ids = {player.id for player in players}
        played = [result for result in results if _player_of(result) in ids]
        ratings = rate_event(players, played, tournament.rounds)
        rows = [
            Row(
                standing=row,
                entrant=by_id[row.player.id],
                gibsonized=row.player.id in gibsonized,
                rating_before=ratings[row.player.id].before,
                rating_after=ratings[row.player.id].after,
            )
            for row in compute_standings(players, played, rules_of(tournament))
        ]
        found.append((division, rows))
    return found


@dataclass(frozen=True)
class ListedRow:
    """One line of the standings as the live part shows it (``Row``'s, from ``Listed``)."""

    standing: Standing
    number: int
    active: bool
    gibsonized: bool
    rating_before: int
    rating_after: int


@dataclass(frozen=True)
class Division:
    """What a division's standings are drawn from: its name ("" when the event has one), its
    entrants in entry order, their results and who of them is gibsonized in the latest round.
    Two equal ``Division``s of one event draw the same standings."""

    name: str
    entrants: tuple[Listed, ...]
    played: tuple[Result, ...]
    gibsonized: frozenset[int]


def divisions_from(
    entrants: Sequence[Listed], results: Sequence[Result], gibsonized: Collection[int]
) -> list[Division]:
    """The event's divisions in entry order, as ``division_standings`` takes them, from plain
    rows (``read_entrants``, ``read_results`` and ``latest_tables``' Gibsons)."""
    found = []
    for name in dict.fromkeys(entrant.division for entrant in entrants) or [""]:
        listed = tuple(entrant for entrant in entrants if entrant.division == name)
        ids = {entrant.competitor.id for entrant in listed}
        played = tuple(result for result in results if _player_of(result) in ids)
        found.append(Division(name, listed, played, frozenset(ids.intersection(gibsonized))))
    return found


def listed_standings(tournament: Tournament, division: Division) -> list[ListedRow]:
    """A division's standings as ``division_standings`` has them: the same order and figures."""
    players = [entrant.competitor for entrant in division.entrants]
    by_id = {entrant.competitor.id: entrant for entrant in division.entrants}
    ratings = rate_event(players, division.played, tournament.rounds)
    rows = []
    for standing in compute_standings(players, division.played, rules_of(tournament)):
        entrant, rating = by_id[standing.player.id], ratings[standing.player.id]
        rows.append(
            ListedRow(
                standing,
                entrant.number,
                entrant.active,
                standing.player.id in division.gibsonized,
                rating.before,
                rating.after,
            )
        )
    return rows


def _player_of(result: Result) -> int:
    """A player of ``result``: both of a pairing are always in one division."""
    if isinstance(result, Bout):
        return result.first
    if isinstance(result, Forfeit):
        return result.present
    return result.player


def standings(tournament: Tournament, division: str | None = None) -> list[Row]:
    """The standings of ``division`` in order; of the only one when ``None``, refused when
    the event has several and none is named."""
    divided = division_standings(tournament)
    if division is None and len(divided) == 1:
        return divided[0][1]
    for name, rows in divided:
        if name_key(name) == name_key(division or ""):
            return rows
    names = " or ".join(name for name, _ in divided)
    if len(divided) == 1:
        raise InputError("unknown_division", f"{tournament.name} has no divisions.")
    if division is None:
        raise InputError("which_division", f"{tournament.name} has divisions: name one ({names}).")
    raise InputError("unknown_division", f"{tournament.name} has no division {division} ({names}).")


@dataclass(frozen=True)
class KeptRating:
    """A player's rating after their latest event here, for their page and the next event."""

    tournament: Tournament
    rating: int
    career_games: int


def kept_rating(
    player_id: int, club: Club | None = None, *, besides: Tournament | None = None
) -> KeptRating | None:
    """The rating ``player_id`` left their latest event with (of ``club``, if given; other
    than ``besides``), and their career games after it; None before any."""
    entries = Entrant.objects.filter(player_id=player_id).select_related("tournament__club")
    if besides is not None:
        entries = entries.exclude(tournament=besides)
    if club is not None:
        entries = entries.filter(tournament__club=club)
    latest = entries.order_by("-tournament__date", "-tournament__created_at").first()
    if latest is None:
        return None
    tournament = latest.tournament
    players = [competitor_of(entrant) for entrant in entrants_of(tournament)]
    change = rate_event(players, results_of(tournament), tournament.rounds)[latest.pk]
    return KeptRating(tournament, change.after, latest.career_games + change.games)


def rounds_of(tournament: Tournament) -> Mapping[int, list[Pairing]]:
    """Each round's pairings in table order (the bye last), by round number."""
    found: dict[int, list[Pairing]] = {}
    for pairing in pairings_of(tournament):
        found.setdefault(pairing.round.number, []).append(pairing)
    for pairings in found.values():
        pairings.sort(key=lambda p: (p.table is None, p.table or 0))
    return found


def running_event(club: Club) -> Tournament | None:
    """The event the director marked as tonight's, once a round of it is paired: what the
    director's screen shows while it runs, and until the night is over (``do_mark_tonight``;
    any other event made today, an import or a test, never takes the screen over)."""
    today = timezone.localdate()
    found = club.tournaments.filter(tonight=today, archived=False, round_set__isnull=False)
    return found.distinct().order_by("-created_at").first()


def event_stamp(club: Club) -> str:
    """A word that changes with any change to the club's events that leaves its games as they
    were (a player entered, a round taken back, a forfeit or a result of a closed game), for
    the director's screen's ``ETag`` beside its games' own."""
    seen = Pairing.objects.filter(round__tournament__club=club).aggregate(
        tables=Count("pk"), latest=Max("pk"), absent=Count("absent"), typed=Count("first_score")
    )
    entered = Entrant.objects.filter(tournament__club=club, active=True).count()
    # A correction changes scores typed in without changing how many are; tonight's mark and
    # an archive change which event the screen shows.
    corrected = ResultCorrection.objects.filter(pairing__round__tournament__club=club).count()
    shown = running_event(club)
    tonight = f"{shown.pk}" if shown is not None else "-"
    return (
        f"{seen['tables']}.{seen['latest']}.{seen['absent']}.{seen['typed']}.{entered}"
        f".{corrected}.{tonight}"
    )


def names_of(tournament: Tournament) -> dict[int, str]:
    return {e.pk: e.player.name for e in tournament.entrants.select_related("player")}

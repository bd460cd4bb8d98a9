"""A club's tournament as the record keeps it: the one path that makes an event, pairs its
rounds (each pairing a game made by ``domain.check_create_game``), takes a result typed in and
withdraws a player; and the reads that turn its rows into the plain core's data
(``referee.events``) and its answers back: standings, scorecards, ratings, the ``.t``
file.

An event has one or more divisions (``Entrant.division``; ``""`` when it has one): each is
paired, ranked, gibsonized and exported on its own, as a separate event sharing the rounds and
the table numbers (a round's tables run on from one division to the next).

Standings are computed when read, from each game's stored ``final_score`` (never its turn
log), so a game's end or a correction made after it changes them at once. Every change here
and every change to an event's game is news on its club's channel (``live.news``), which the
director's screen follows; every change to what the event's pages show (a game of it ended, a
result, a pairing, an entry) moves the event's version on (``announce``), which they follow.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date as Date
from typing import Any

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from referee import IllegalAction, InputError, get_ruleset
from referee.events import (
    UNRATED,
    Absence,
    Bout,
    Bye,
    Competitor,
    EventError,
    Forfeit,
    Options,
    Result,
    RoundPairings,
    Rules,
    Standing,
    compute_standings,
    pair_round,
    rate_event,
    read_t,
    seat,
    write_t,
)
from scorekeeper.game import domain, event_version, membership
from scorekeeper.game.club_settings import ClubRules, check_clock, check_rules
from scorekeeper.game.refusals import Conflict
from scorekeeper.game.word_policy import AUTO, MANUAL, resolve_lexicon
from scorekeeper.models import (
    Club,
    Entrant,
    Game,
    Pairing,
    ReplacedGame,
    ResultCorrection,
    Seat,
    Tournament,
    TournamentRound,
    Turn,
    name_key,
    name_problem,
)

MAX_ROUNDS = 30
MAX_ENTRANTS = 300  # a national event; its pages and pairing are bounded for as many
MAX_RATING = 3000
MAX_CAREER_GAMES = 100_000
SCORE_LOWEST, SCORE_MOST = -1000, 10000  # a game's score typed in or read from a .t file
MAX_DIVISION_NAME = 40


@dataclass(frozen=True)
class Entry:
    """A player as the director enters them: a name, a rating (0: unrated), career games,
    and their division (``""``: the event's only one)."""

    name: str
    rating: int = UNRATED
    career_games: int = 0
    division: str = ""


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
    """The core's refusal as the domain's (422, its code and sentence)."""
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


def check_entries(
    entries: Sequence[Entry], taken: Sequence[str] = (), divisions: Sequence[str] | None = None
) -> list[Entry]:
    """The entries with their names tidied, or the refusal of the first that won't do.
    ``divisions`` are the event's (for late entries; ``None`` while it is made): a division
    is spelt as it was first, and every player is in a named division or none is."""
    if not entries:
        raise InputError("no_players", "Enter at least one player.")
    if len(entries) > MAX_ENTRANTS:  # refused before each name is checked
        raise InputError("too_many_players", f"An event has at most {MAX_ENTRANTS} players.")
    entered = {name_key(name) for name in taken}
    seen = set(entered)
    tidied = []
    for entry in entries:
        (name,) = _names([entry.name])
        if name_key(name) in entered:
            raise InputError("duplicate_player", f"{name} is entered already.")
        if name_key(name) in seen:
            raise InputError("duplicate_player", f"{name} is entered twice.")
        seen.add(name_key(name))
        if not 0 <= entry.rating <= MAX_RATING:
            raise InputError("bad_rating", f"A rating is 0 (unrated) to {MAX_RATING}.")
        if not 0 <= entry.career_games <= MAX_CAREER_GAMES:
            raise InputError("bad_career_games", f"Career games are 0 to {MAX_CAREER_GAMES:,}.")
        division = " ".join(entry.division.split())
        if len(division) > MAX_DIVISION_NAME or name_problem(division or "A"):
            raise InputError(
                "bad_division", f"A division's name is at most {MAX_DIVISION_NAME} characters."
            )
        tidied.append(Entry(name, entry.rating, entry.career_games, division))
    if len(seen) > MAX_ENTRANTS:
        raise InputError("too_many_players", f"An event has at most {MAX_ENTRANTS} players.")
    return _in_divisions(tidied, divisions)


def _in_divisions(entries: list[Entry], divisions: Sequence[str] | None) -> list[Entry]:
    spelt = {name_key(name): name for name in divisions or ()}
    for entry in entries:
        spelt.setdefault(name_key(entry.division), entry.division)
    named = [name for name in spelt.values() if name]
    if named and "" in spelt.values():
        if divisions is not None and divisions != [""]:
            raise InputError(
                "which_division", f"Name each player's division: {' or '.join(named)}."
            )
        raise InputError("which_division", "Put every player in a division, or none.")
    return [Entry(e.name, e.rating, e.career_games, spelt[name_key(e.division)]) for e in entries]


def _names(names: Sequence[str]) -> list[str]:
    # The same checks as a game's players (visible, not too long), one name at a time.
    return domain.check_player_names(list(names))


def do_create_tournament(
    club: Club,
    *,
    name: str,
    ruleset: str,
    rounds: int,
    players: Sequence[Entry],
    lexicon: str | None = None,
    challenge_mode: str = AUTO,
    date: Date | None = None,
    bye_spread: int = 50,
    forfeit_spread: int = 50,
    gibson: bool = True,
    gibson_spread: int = 500,
    prize_places: int = 1,
    repeats_allowed: int = 1,
    fontes_rounds: int = 3,
    seed: int = 0,
    rejected_challenge: str = "",
    clock: object = None,
    keep_ratings: bool = True,
    by: AbstractBaseUser | None = None,
) -> Tournament:
    """Make an event of ``club`` with its players, each put on the club's roster (a name
    new to the app becomes a player) as ``membership.do_put_on_roster`` allows at the hand
    of ``by``, the director (None: nobody's consent). ``rejected_challenge`` is a failed
    challenge's rule in its games ("": the ruleset's own) and ``clock`` their clock rule, as
    ``POST /api/games/`` takes it (None: no clock). Everything is checked before anything is
    stored."""
    if not name.strip() or len(name) > 120:
        raise InputError("bad_name", "An event's name is 1 to 120 characters.")
    if problem := name_problem(name):
        raise InputError("bad_name", problem)
    rules = get_ruleset(ruleset)
    lexicon_id, _ = resolve_lexicon(settings.DEFAULT_LEXICON if lexicon is None else lexicon)
    if challenge_mode not in (AUTO, MANUAL):
        raise InputError(
            "bad_challenge_mode", "challenge_mode must be auto (checked as played) or manual."
        )
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InputError("bad_rules", f"An event has 1 to {MAX_ROUNDS} rounds.")
    for label, value in (
        ("bye spread", bye_spread),
        ("forfeit spread", forfeit_spread),
        ("Gibson spread", gibson_spread),
        ("prize places", prize_places),
        ("repeat limit", repeats_allowed),
    ):
        if not 0 <= value <= 1000:
            raise InputError("bad_rules", f"The {label} is 0 to 1000.")
    if not 1 <= fontes_rounds <= MAX_ROUNDS or fontes_rounds % 2 == 0:
        raise InputError(
            "bad_rules", f"Initial Fontes runs an odd number of rounds, 1 to {MAX_ROUNDS - 1}."
        )
    entries = check_entries(players)
    checked = check_rules(ClubRules(rejected_challenge=rejected_challenge))
    tournament = Tournament(
        club=club,
        name=" ".join(name.split()),
        ruleset=rules.id,
        lexicon=lexicon_id,
        challenge_mode=challenge_mode,
        rounds=rounds,
        bye_spread=bye_spread,
        forfeit_spread=forfeit_spread,
        gibson=gibson,
        gibson_spread=gibson_spread,
        prize_places=prize_places,
        repeats_allowed=repeats_allowed,
        fontes_rounds=fontes_rounds,
        seed=seed,
        rejected_challenge=checked.rejected_challenge,
        clock=check_clock(clock),
    )
    if date is not None:
        tournament.date = date
    with transaction.atomic():
        tournament.save()
        _enter(tournament, entries, joined_round=1, keep_ratings=keep_ratings, by=by)
    return tournament


def do_import_tournament(club: Club, text: str, **fields: Any) -> Tournament:
    """Start an event from tsh's ``.t`` file: its players and ratings, in its line order,
    and its results so far as rounds paired by hand, each game's scores typed in (a game
    paired and not finished waits for its result; a bye and an absence keep their kind, at
    the event's own margins). ``fields`` are ``do_create_tournament``'s."""
    try:
        division = read_t(text, most_players=MAX_ENTRANTS)
    except EventError as error:
        raise InputError(error.code, error.message) from None
    for result in division.results:
        if isinstance(result, Bout):
            for score in (result.first_score, result.second_score):
                if score is not None and not SCORE_LOWEST <= score <= SCORE_MOST:
                    raise InputError(
                        "bad_score",
                        f"Round {result.round} has a score of {score}: a score is "
                        f"{SCORE_LOWEST} to {SCORE_MOST}.",
                    )
    played = max((result.round for result in division.results), default=0)
    if played > fields.get("rounds", 0):
        raise InputError("bad_rules", f"The file has {played} rounds: the event needs as many.")
    entries = [
        Entry(player.name, player.rating, player.career_games) for player in division.players
    ]
    with transaction.atomic():
        tournament = do_create_tournament(club, players=entries, keep_ratings=False, **fields)
        entrant_of = {line: entrant for line, entrant in enumerate(entrants_of(tournament), 1)}
        for line, player in enumerate(division.players, start=1):
            kept = entrant_of[line]
            kept.t_name, kept.t_fields, kept.active = (
                player.t_name,
                dict(player.t_fields),
                player.active,
            )
            kept.save(update_fields=["t_name", "t_fields", "active"])
        for number in range(1, played + 1):
            paired = TournamentRound.objects.create(
                tournament=tournament, number=number, method="manual", based_on=number - 1
            )
            _import_round(paired, [r for r in division.results if r.round == number], entrant_of)
    return tournament


def _import_round(
    paired: TournamentRound, results: Sequence[Result], entrant_of: Mapping[int, Entrant]
) -> None:
    """A round of a ``.t`` file as pairings by hand: each game with its seats and scores, each
    bye and absence with its own spread."""
    table = 0
    for result in results:
        if isinstance(result, Bout):
            table += 1
            Pairing.objects.create(
                round=paired,
                table=table,
                first=entrant_of[result.first],
                second=entrant_of[result.second],
                first_score=result.first_score,
                second_score=result.second_score,
            )
        elif isinstance(result, Bye):
            Pairing.objects.create(
                round=paired, first=entrant_of[result.player], spread=result.spread
            )
        elif isinstance(result, Absence):
            absent = entrant_of[result.player]
            Pairing.objects.create(round=paired, first=absent, absent=absent, spread=result.spread)


def do_add_players(
    tournament: Tournament, players: Sequence[Entry], *, by: AbstractBaseUser | None = None
) -> list[Entrant]:
    """Late entries: paired from the next round on; the rounds before count as losses by
    the forfeit margin (the event rules' ``Absence``). Refused once every round is paired, and in
    an event of divisions for a division it doesn't have. Each joins the club's roster as
    ``do_create_tournament``'s players do."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entrants = entrants_of(tournament)
        taken = [entrant.player.name for entrant in entrants]
        divisions = divisions_of(entrants)
        entries = check_entries(players, taken, divisions)
        for entry in entries:
            if entry.division not in divisions:
                names = " or ".join(divisions)
                raise InputError(
                    "unknown_division",
                    f"{tournament.name} has no division {entry.division} ({names}).",
                )
        joined = tournament.round_set.count() + 1
        if joined > tournament.rounds:
            raise IllegalAction(
                "all_paired", f"Every round of {tournament.name} is paired: nobody can join now."
            )
        made = _enter(tournament, entries, joined_round=joined, by=by)
        announce(tournament)
    return made


def _enter(
    tournament: Tournament,
    entries: Sequence[Entry],
    *,
    joined_round: int,
    keep_ratings: bool = True,
    by: AbstractBaseUser | None,
) -> list[Entrant]:
    last = tournament.entrants.order_by("-number").values_list("number", flat=True).first() or 0
    entered = set(tournament.entrants.values_list("player_id", flat=True))
    made = []
    for number, entry in enumerate(entries, start=last + 1):
        try:
            place = membership.do_put_on_roster(
                tournament.club, domain.player_named(entry.name), by, or_new_entrant=True
            )
        except membership.NotOnRoster as refused:
            raise IllegalAction("not_on_roster", refused.message) from None
        player = place.player
        if player.pk in entered:
            raise InputError(
                "duplicate_player", f"{player.name} is entered in {tournament.name} already."
            )
        entered.add(player.pk)
        keep = keep_ratings and not entry.rating
        kept = kept_rating(player.pk, tournament.club, besides=tournament) if keep else None
        if kept is not None:  # an entry without a rating takes the one its last event left
            career = max(entry.career_games, kept.career_games)
            entry = Entry(entry.name, kept.rating, career, entry.division)
        made.append(
            Entrant.objects.create(
                tournament=tournament,
                player=player,
                number=number,
                rating=entry.rating,
                career_games=entry.career_games,
                division=entry.division,
                joined_round=joined_round,
            )
        )
    return made


# The rows as the core's data -------------------------------------------------------------------
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


def core_player(entrant: Entrant) -> Competitor:
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


def core_results(tournament: Tournament, pairings: Sequence[Pairing] | None = None) -> list[Result]:
    found = pairings_of(tournament) if pairings is None else pairings
    return [result_of(pairing, tournament) for pairing in found]


def read_results(tournament: Tournament) -> list[Result]:
    """``core_results(tournament)`` read as plain rows, in two queries with no model built
    for each pairing: the standings of an event of hundreds of players and many rounds,
    drawn for its pages (``web.event_parts``) after every change."""
    rows = list(
        Pairing.objects.filter(round__tournament=tournament)
        .order_by("round__number", "table")
        .values_list(
            "round__number",
            "first_id",
            "second_id",
            "absent_id",
            "first_score",
            "second_score",
            "game_id",
            "game__status",
            "first__player_id",
            "second__player_id",
            "spread",
        )  # fmt: skip
    )
    ended = [row[6] for row in rows if row[7] == Game.Status.FINISHED and row[4] is None]
    finals = {
        (game_id, player_id): score
        for game_id, player_id, score in Seat.objects.filter(game_id__in=ended).values_list(
            "game_id", "player_id", "final_score"
        )
    }
    found: list[Result] = []
    for (
        number,
        first,
        second,
        absent,
        one,
        two,
        game_id,
        status,
        first_player,
        second_player,
        spread,
    ) in rows:
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


def latest_round(tournament: Tournament) -> tuple[int, list[Pairing]]:
    """The latest round's number (0 before the first) and its pairings in table order (the
    bye last), with their players."""
    number = tournament.round_set.aggregate(latest=Max("number"))["latest"] or 0
    pairings = list(
        Pairing.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("round", "game", "first__player", "second__player")
        .prefetch_related("game__seats")
        .order_by("table")
    )
    pairings.sort(key=lambda p: (p.table is None, p.table or 0))
    return number, pairings


# Pairing a round -------------------------------------------------------------------------------
def entrant_named(tournament: Tournament, name: str) -> Entrant:
    found = tournament.entrants.select_related("player").filter(player__name_key=name_key(name))
    entrant = found.first()
    if entrant is None:
        raise InputError("unknown_player", f"{name} is not entered in {tournament.name}.")
    return entrant


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
        _mark_first_tonight(tournament)
        announce(tournament)
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
                    [core_player(e) for e in field],
                    core_results(tournament, in_division(pairings, field)),
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
        announce(tournament)
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
        announce(tournament)
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


def _seatings_before(tournament: Tournament, number: int) -> tuple[Counter[int], Counter[int]]:
    """How many times each entrant went first and second before round ``number``."""
    firsts: Counter[int] = Counter()
    seconds: Counter[int] = Counter()
    for result in core_results(tournament):
        if isinstance(result, Bout) and result.round < number:
            firsts[result.first] += 1
            seconds[result.second] += 1
    return firsts, seconds


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
        announce(tournament)
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
        announce(tournament)
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
        announce(tournament)
    return pairing


def pairings_by_pk(pk: int) -> Pairing:
    """One pairing as ``pairings_of`` reads them (its players, round and game)."""
    return (
        Pairing.objects.select_related(
            "round", "game", "first__player", "second__player", "absent__player"
        )
        .prefetch_related("game__seats")
        .get(pk=pk)
    )


def corrections_of_pairing(pairing: Pairing) -> list[ResultCorrection]:
    return list(pairing.corrections.select_related("absent_before__player", "absent_after__player"))


def today() -> Date:
    return timezone.localdate()


def corrections_of(tournament: Tournament) -> list[ResultCorrection]:
    """Every correction of the event's results, oldest first, with their pairings' players."""
    return list(
        ResultCorrection.objects.filter(pairing__round__tournament=tournament)
        .select_related(
            "pairing__round",
            "pairing__first__player",
            "pairing__second__player",
            "absent_before__player",
            "absent_after__player",
        )
        .order_by("at", "pk")
    )


def correction_sentence(correction: ResultCorrection) -> str:
    """ "Round 2, Ann Archer v Ben Baker: 412–377 became 402–377 (by dora)."""
    pairing = correction.pairing
    assert pairing.second is not None

    def result(first: int | None, second: int | None, absent: Entrant | None) -> str:
        if absent is not None:
            return f"a forfeit ({absent.player.name} absent)"
        if first is None or second is None:
            return "no result"
        return f"{first}–{second}"

    was = result(
        correction.first_score_before, correction.second_score_before, correction.absent_before
    )
    now = result(
        correction.first_score_after, correction.second_score_after, correction.absent_after
    )
    who = f" (by {correction.by})" if correction.by else ""
    return (
        f"Round {pairing.round.number}, {pairing.first.player.name} v "
        f"{pairing.second.player.name}: {was} became {now}{who}."
    )


def _close(game: Game | None, by: str) -> None:
    """Abandon a table's game that is still open: its result is kept elsewhere now, and
    the director's screen no longer shows it in play."""
    if game is not None and game.status in (Game.Status.IN_PROGRESS, Game.Status.AWAITING_RACKS):
        domain.act(game.pk, "abandon", by=by)


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
        announce(tournament)
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
        announce(tournament)
    return forfeited


def announce(tournament: Tournament) -> None:
    """The event changed: its version moves on (``event_version.do_bump``: every event page's
    ``ETag`` and drawn part follow it) and, once the transaction commits, its pages and the
    club's screens hear of it (a game's own changes are announced by the domain). Every
    change to an event calls this, in its transaction."""
    event_version.do_bump([tournament.pk], tournament.club_id)


# Reading an event ------------------------------------------------------------------------------
def division_standings(
    tournament: Tournament, results: Sequence[Result] | None = None
) -> list[tuple[str, list[Row]]]:
    """Each division's standings in order, with scorecards, Gibsons and ratings, the
    divisions in entry order (one, named ``""``, for an event of one division); from
    ``results`` (``read_results``'s) when the caller has read them already."""
    entrants = entrants_of(tournament)
    results = core_results(tournament) if results is None else results
    latest = tournament.round_set.order_by("-number").first()
    gibsonized = set(latest.gibsonized) if latest else set()
    by_id = {entrant.pk: entrant for entrant in entrants}
    found = []
    for division in divisions_of(entrants):
        players = [core_player(entrant) for entrant in entrants if entrant.division == division]
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
    players = [core_player(entrant) for entrant in entrants_of(tournament)]
    change = rate_event(players, core_results(tournament), tournament.rounds)[latest.pk]
    return KeptRating(tournament, change.after, latest.career_games + change.games)


def export_t(tournament: Tournament, division: str | None = None) -> str:
    """A division as tsh's ``.t`` file, one line a player in entry order (the only division
    when ``None``; refused when the event has several and none is named)."""
    rows = standings(tournament, division)
    field = sorted((row.entrant for row in rows), key=lambda entrant: entrant.number)
    players = [core_player(entrant) for entrant in field]
    try:
        return write_t(
            players,
            core_results(tournament, in_division(pairings_of(tournament), field)),
            absence_spread=tournament.forfeit_spread,
        )
    except EventError as error:
        raise refused(error) from None


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


# The event itself: tonight's, its date, archived, deleted ---------------------------------------
def do_mark_tonight(tournament: Tournament, on: bool = True) -> Tournament:
    """Make the event tonight's on the club's director's screen (the club's other events are
    then not), or no longer (``on`` False)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        today = timezone.localdate()
        if on and tournament.archived:
            raise IllegalAction("archived", f"{tournament.name} is archived: bring it back first.")
        if on:
            tournament.club.tournaments.filter(tonight=today).exclude(pk=tournament.pk).update(
                tonight=None
            )
        tournament.tonight = today if on else None
        tournament.save(update_fields=["tonight"])
        announce(tournament)
    return tournament


def _mark_first_tonight(tournament: Tournament) -> None:
    """An event of today paired when the club has no event marked tonight becomes tonight's:
    the usual evening needs no extra step, and a second event never takes the screen over."""
    today = timezone.localdate()
    first = tournament.date == today and not tournament.archived and tournament.tonight != today
    if first and not tournament.club.tournaments.filter(tonight=today).exists():
        tournament.tonight = today
        tournament.save(update_fields=["tonight"])


def do_change_event(
    tournament: Tournament, *, date: Date | None = None, archived: bool | None = None
) -> Tournament:
    """Set the event's date, or archive it (kept and read, off the club's list and its
    director's screen) or bring it back."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        changed = []
        if date is not None:
            tournament.date = date
            changed.append("date")
        if archived is not None:
            tournament.archived = archived
            changed.append("archived")
            if archived:
                tournament.tonight = None
                changed.append("tonight")
        if changed:
            tournament.save(update_fields=changed)
            announce(tournament)
    return tournament


def check_no_results(tournament: Tournament) -> None:
    """Refuse to delete an event with a result: a game begun or ended, typed in, or forfeit."""
    pairings = Pairing.objects.filter(round__tournament=tournament, second__isnull=False)
    kept = pairings.filter(Q(first_score__isnull=False) | Q(absent__isnull=False))
    begun = Turn.objects.filter(game__pairing__round__tournament=tournament)
    if kept.exists() or begun.exists():
        raise Conflict(
            "has_results",
            f"{tournament.name} has results: archive it instead (an event is deleted only "
            "before any result).",
        )


def do_delete_tournament(tournament: Tournament) -> str:
    """Delete an event that has no result yet (a test, a mistake): its rounds' games are taken
    away through the domain, then the event with its players' entries. Returns its name."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
        check_no_results(tournament)
        games = Pairing.objects.filter(round__tournament=tournament, game__isnull=False)
        for game_id in games.values_list("game_id", flat=True):
            domain.do_remove_game(game_id)
        name = tournament.name
        announce(tournament)
        tournament.delete()
    return name


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


__all__ = [
    "Entry",
    "Row",
    "do_add_players",
    "do_change_event",
    "do_create_tournament",
    "do_delete_tournament",
    "do_enter_result",
    "do_forfeit",
    "do_mark_tonight",
    "do_correct_result",
    "do_pair_round",
    "do_swap",
    "do_unpair_round",
    "do_void_result",
    "do_withdraw",
    "division_standings",
    "divisions_of",
    "export_t",
    "standings",
]

"""An event's players: the one path that makes an event with its entries, and late
entries (each earlier round a forfeit loss). A withdrawal is a result's (``results``)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date as Date

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction

from referee import IllegalAction, InputError, get_ruleset
from referee.events import (
    UNRATED,
)
from scorekeeper.clubs import membership
from scorekeeper.clubs.club_settings import ClubRules, check_clock, check_rules
from scorekeeper.events.reads import divisions_of, entrants_of, kept_rating
from scorekeeper.events.version import do_bump_for_event
from scorekeeper.games import domain
from scorekeeper.games.word_policy import AUTO, MANUAL, resolve_lexicon
from scorekeeper.models import (
    Club,
    Entrant,
    Tournament,
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
        do_bump_for_event(tournament)
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

"""The API of a club's tournament: make a club, make an event, enter players late, withdraw
one, pair its rounds, type in a result, read its standings and its ``.t`` file.

A change is a director's (``accounts.account_of``: the session with CSRF, or the account's
token); reading an event is anyone's. Each route calls one operation of
``scorekeeper.events`` (or ``membership`` for a club); a paired game is played
through ``/api/games/{id}/`` as any other.
"""

from __future__ import annotations

from datetime import date as Date
from typing import Any, Literal
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from ninja import Field, Schema, Status

from scorekeeper import limits
from scorekeeper.api.accounts import NotSignedIn, account_of
from scorekeeper.api.clubs import club_named, director_of
from scorekeeper.api.endpoints import READ, WRITE, ApiError, Int, Text, answers, api
from scorekeeper.api.schemas import (
    ClubOut,
    CorrectionOut,
    EntrantOut,
    EventStateOut,
    ForfeitOut,
    KeptResultOut,
    PairingOut,
    ResultLineOut,
    ResultOut,
    RoundOut,
    StandingOut,
    TournamentOut,
    UnpairedOut,
    WithdrawalOut,
)
from scorekeeper.events import reads
from scorekeeper.events.entries import (
    MAX_CAREER_GAMES,
    MAX_DIVISION_NAME,
    MAX_ENTRANTS,
    MAX_RATING,
    MAX_ROUNDS,
    Entry,
    do_add_players,
    do_create_tournament,
)
from scorekeeper.events.files import T_FILE_MOST, do_import_tournament
from scorekeeper.events.lifecycle import do_change_event, do_delete_tournament, do_mark_tonight
from scorekeeper.events.reads import (
    corrections_of,
    corrections_of_pairing,
    entrant_named,
    final_scores,
    pairings_by_pk,
    pairings_of,
    today,
)
from scorekeeper.events.results import (
    do_correct_result,
    do_enter_result,
    do_forfeit,
    do_void_result,
    do_withdraw,
)
from scorekeeper.events.rounds import do_pair_round, do_swap, do_unpair_round
from scorekeeper.game import club_settings
from scorekeeper.game.membership import do_create_club
from scorekeeper.models import (
    Club,
    Entrant,
    Pairing,
    ResultCorrection,
    Tournament,
    TournamentRound,
)

DIRECTING = (401, 403, *WRITE)


class ClubIn(Schema):
    name: Text = Field(..., max_length=80, examples=["Riverside"])


class EntryIn(Schema):
    name: Text = Field(..., examples=["Ann Archer"], description="as people write it")
    rating: Int = Field(0, ge=0, le=MAX_RATING, description="0: unrated")
    career_games: Int = Field(
        0, ge=0, le=MAX_CAREER_GAMES, description="rated games before this event"
    )
    division: Text = Field(
        "",
        max_length=MAX_DIVISION_NAME,
        examples=["A"],
        description="the player's division; leave out for an event of one division",
    )


class GibsonIn(Schema):
    on: bool = True
    spread: Int = Field(500, ge=0, le=1000, description="the margin a game assumed")
    prize_places: Int = Field(1, ge=0, le=1000)


class EventIn(Schema):
    """An event's rules: everything a new event takes but its players."""

    name: Text = Field(..., max_length=120, examples=["Friday night"])
    date: Date | None = Field(None, description="YYYY-MM-DD; by default today")
    ruleset: str | None = Field(
        None, examples=["upwords-10"], description="by default the club's usual game"
    )
    lexicon: str | None = Field(
        None,
        examples=["TWL06"],
        description="or 'honour'; by default the club's usual dictionary, else the server's",
    )
    challenge_mode: Literal["auto", "manual"] | None = Field(
        None, description="by default the club's usual word checking, else auto"
    )
    rounds: Int = Field(..., ge=1, le=MAX_ROUNDS)
    bye_spread: Int = Field(50, ge=0, le=1000)
    forfeit_spread: Int = Field(50, ge=0, le=1000)
    repeats_allowed: Int = Field(
        1, ge=0, le=1000, description="Swiss: how many times a couple may meet again"
    )
    gibson: GibsonIn = GibsonIn(on=True, spread=500, prize_places=1)
    fontes_rounds: Int = Field(
        3, ge=1, le=MAX_ROUNDS, description="Initial Fontes: how many rounds (odd)"
    )
    rejected_challenge: str | None = Field(
        None,
        description="a failed challenge's rule in its games (none, lose_turn, minus_5, "
        "bonus_5, bonus_10; empty: the ruleset's own); by default the club's usual one",
    )
    clock: Any = Field(
        None,
        description="its games' clock, as POST /api/games/ takes it "
        '({"kind": "player", "minutes": 25} or {"kind": "turn", "seconds": 75}; null: none); '
        "left out, the club's usual clock",
        examples=[{"kind": "player", "minutes": 25}],
    )

    def rules(self, club: Club) -> dict[str, Any]:
        """The event's game rules: as given, else the club's usual ones."""
        usual = club_settings.rules_of(club)
        ruleset = self.ruleset or usual.ruleset
        if not ruleset:
            raise ApiError(422, "no_ruleset", f"Give the ruleset: {club.name} keeps no usual game.")
        return {
            "ruleset": ruleset,
            "lexicon": self.lexicon or usual.lexicon or None,
            "challenge_mode": self.challenge_mode or usual.challenge_mode or "auto",
            "rejected_challenge": (
                usual.rejected_challenge
                if self.rejected_challenge is None
                else self.rejected_challenge
            ),
            "clock": self.clock if "clock" in self.model_fields_set else usual.clock,
        }

    def fields(self, club: Club) -> dict[str, Any]:
        """``do_create_tournament``'s keywords but its players."""
        return {
            "name": self.name,
            "date": self.date,
            "rounds": self.rounds,
            "bye_spread": self.bye_spread,
            "forfeit_spread": self.forfeit_spread,
            "repeats_allowed": self.repeats_allowed,
            "gibson": self.gibson.on,
            "gibson_spread": self.gibson.spread,
            "prize_places": self.gibson.prize_places,
            "fontes_rounds": self.fontes_rounds,
            **self.rules(club),
        }


class TournamentIn(EventIn):
    players: list[EntryIn] = Field(..., min_length=1, max_length=MAX_ENTRANTS)


class ImportIn(EventIn):
    t_file: str = Field(
        ...,
        max_length=T_FILE_MOST,
        description="the text of tsh's .t file: one line a player, 'Last, First rating "
        "opponents; scores' (its results so far become rounds paired by hand)",
        examples=["Archer, Ann 1700 2; 412\nBaker, Ben 1600 1; 377\n"],
    )


class RoundIn(Schema):
    method: Literal["swiss", "round_robin", "koth", "fontes", "manual"]
    round: Int | None = Field(None, description="the round meant; refused unless it is the next")
    based_on: Int | None = Field(
        None, description="the last round the standings count (the round before by default)"
    )
    pairings: list[tuple[Text, Text]] = Field(
        default_factory=list, description="manual: the couples, by name", max_length=200
    )
    bye: Text | None = Field(None, description="manual: who has the bye")
    byes: list[Text] = Field(
        default_factory=list, max_length=200, description="manual: a bye for each division"
    )


class ResultIn(Schema):
    round: Int = Field(..., ge=1)
    player1: Text
    score1: Int
    player2: Text
    score2: Int


def _tournament(tournament_id: int) -> Tournament:
    found = Tournament.objects.select_related("club").filter(pk=tournament_id).first()
    if found is None:
        raise Http404
    return found


def _described(tournament: Tournament) -> TournamentOut:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "ruleset": tournament.ruleset,
        "lexicon": tournament.lexicon,
        "challenge_mode": tournament.challenge_mode,
        "rounds": tournament.rounds,
        "rounds_paired": tournament.round_set.count(),
        "players": tournament.entrants.count(),
        "rejected_challenge": tournament.rejected_challenge,
        "clock": tournament.clock,
    }


def _round(paired: TournamentRound) -> RoundOut:
    pairings = list(
        paired.pairings.select_related("first__player", "second__player", "game").order_by("table")
    )
    tables: list[PairingOut] = [
        {
            "table": p.table,
            "first": p.first.player.name,
            "second": p.second.player.name,
            "game": None if p.game is None else {"id": str(p.game.pk), "token": p.game.token},
        }
        for p in pairings
        if p.second is not None and p.table is not None
    ]
    byes = [p.first.player.name for p in pairings if p.second is None]
    return {"round": paired.number, "method": paired.method, "pairings": tables, "byes": byes}


@api.post("/clubs/", **answers(201, ClubOut, *DIRECTING), summary="Make a club, as its director")
def create_club(request: HttpRequest, payload: ClubIn) -> Status[ClubOut]:
    try:
        user = account_of(request)
    except NotSignedIn as refused:
        raise ApiError(refused.status, refused.code, refused.message) from None
    club = do_create_club(payload.name, user)
    return Status(201, {"slug": club.slug, "name": club.name})


@api.post(
    "/clubs/{slug}/tournaments/",
    **answers(201, TournamentOut, *DIRECTING, 404),
    summary="Make a tournament of the club, with its players",
)
def create_tournament(
    request: HttpRequest, slug: str, payload: TournamentIn
) -> Status[TournamentOut]:
    club = club_named(slug)
    user = director_of(request, club)
    made = do_create_tournament(
        club,
        players=[Entry(p.name, p.rating, p.career_games, p.division) for p in payload.players],
        **payload.fields(club),
        by=user,
    )
    return Status(201, _described(made))


@api.post(
    "/clubs/{slug}/tournaments/import",
    **answers(201, TournamentOut, *DIRECTING, 404),
    summary="Start an event from tsh's .t file: its players, ratings and results so far",
)
def import_tournament(request: HttpRequest, slug: str, payload: ImportIn) -> Status[TournamentOut]:
    club = club_named(slug)
    user = director_of(request, club)
    made = do_import_tournament(club, payload.t_file, **payload.fields(club), by=user)
    return Status(201, _described(made))


@api.get(
    "/clubs/{slug}/tournaments/",
    **answers(200, list[TournamentOut], *READ, 404),
    summary="A club's tournaments, the latest first",
)
def list_tournaments(request: HttpRequest, slug: str) -> list[TournamentOut]:
    return [_described(t) for t in club_named(slug).tournaments.all()]


@api.post(
    "/tournaments/{tournament_id}/rounds/",
    **answers(201, RoundOut, *DIRECTING, 404),
    summary="Pair the next round; each table's game is made, its first player to move",
)
def pair_round(request: HttpRequest, tournament_id: int, payload: RoundIn) -> Status[RoundOut]:
    tournament = _tournament(tournament_id)
    director_of(request, tournament.club)
    limits.check_paired_games(request)
    paired = do_pair_round(
        tournament,
        payload.method,
        round=payload.round,
        based_on=payload.based_on,
        manual=payload.pairings,
        manual_byes=[*payload.byes, *([payload.bye] if payload.bye else [])],
    )
    limits.count_paired_games(request, paired.pairings.filter(game__isnull=False).count())
    return Status(201, _round(paired))


class SwapIn(Schema):
    players: tuple[Text, Text] = Field(
        ..., examples=[["Ann Archer", "Cy Cole"]], description="each takes the other's place"
    )


@api.delete(
    "/tournaments/{tournament_id}/rounds/{number}",
    **answers(200, UnpairedOut, *DIRECTING, 404),
    summary="Take back a round before its first turn: its games go, and it can be paired again",
)
def unpair_round(request: HttpRequest, tournament_id: int, number: int) -> UnpairedOut:
    tournament = _tournament(tournament_id)
    director_of(request, tournament.club)
    removed = do_unpair_round(tournament, number)
    return {"round": number, "games_removed": removed}


@api.post(
    "/tournaments/{tournament_id}/rounds/{number}/swap",
    **answers(200, RoundOut, *DIRECTING, 404),
    summary="Swap two players of a round before its first turn; the round as paired now",
)
def swap(request: HttpRequest, tournament_id: int, number: int, payload: SwapIn) -> RoundOut:
    tournament = _tournament(tournament_id)
    director_of(request, tournament.club)
    return _round(do_swap(tournament, number, *payload.players))


class LateEntriesIn(Schema):
    players: list[EntryIn] = Field(..., min_length=1, max_length=MAX_ENTRANTS)


class WithdrawalIn(Schema):
    name: Text = Field(..., examples=["Ben Baker"], description="the player who leaves the event")


def _entrant(entrant: Entrant) -> EntrantOut:
    return {
        "name": entrant.player.name,
        "rating": entrant.rating,
        "career_games": entrant.career_games,
        "division": entrant.division,
        "joined_round": entrant.joined_round,
        "active": entrant.active,
    }


def _forfeit(pairing: Pairing, tournament: Tournament) -> ForfeitOut:
    absent = pairing.first if pairing.absent_id == pairing.first_id else pairing.second
    present = pairing.second if absent == pairing.first else pairing.first
    assert absent is not None and present is not None
    return {
        "round": pairing.round.number,
        "table": pairing.table,
        "absent": absent.player.name,
        "present": present.player.name,
        "spread": tournament.forfeit_spread,
    }


@api.post(
    "/tournaments/{tournament_id}/players/",
    **answers(201, list[EntrantOut], *DIRECTING, 404),
    summary="Late entries: paired from the next round on, each round before a forfeit loss",
)
def add_players(
    request: HttpRequest, tournament_id: int, payload: LateEntriesIn
) -> Status[list[EntrantOut]]:
    tournament = _tournament(tournament_id)
    user = director_of(request, tournament.club)
    made = do_add_players(
        tournament,
        [Entry(p.name, p.rating, p.career_games, p.division) for p in payload.players],
        by=user,
    )
    return Status(201, [_entrant(entrant) for entrant in made])


@api.post(
    "/tournaments/{tournament_id}/withdrawals/",
    **answers(201, WithdrawalOut, *DIRECTING, 404),
    summary="Withdraw a player: not paired again; their open games become forfeit wins",
)
def withdraw(
    request: HttpRequest, tournament_id: int, payload: WithdrawalIn
) -> Status[WithdrawalOut]:
    tournament = _tournament(tournament_id)
    user = director_of(request, tournament.club)
    entrant = entrant_named(tournament, payload.name)
    forfeited = do_withdraw(entrant, by=user.get_username())
    answer: WithdrawalOut = {
        "name": entrant.player.name,
        "from_round": tournament.round_set.count() + 1,
        "forfeits": [_forfeit(pairing, tournament) for pairing in forfeited],
    }
    return Status(201, answer)


class ForfeitIn(Schema):
    round: Int = Field(..., ge=1)
    absent: Text = Field(..., examples=["Ben Baker"], description="the player who didn't come")


@api.post(
    "/tournaments/{tournament_id}/forfeits/",
    **answers(201, ForfeitOut, *DIRECTING, 404),
    summary="A paired player is absent: a loss by the forfeit margin, a win for the opponent",
)
def forfeit(request: HttpRequest, tournament_id: int, payload: ForfeitIn) -> Status[ForfeitOut]:
    tournament = _tournament(tournament_id)
    user = director_of(request, tournament.club)
    pairing = do_forfeit(tournament, payload.round, payload.absent, by=user.get_username())
    return Status(201, _forfeit(pairing, tournament))


@api.post(
    "/tournaments/{tournament_id}/results/",
    **answers(201, ResultOut, *DIRECTING, 404),
    summary="Type in the result of a game played without the app",
)
def enter_result(request: HttpRequest, tournament_id: int, payload: ResultIn) -> Status[ResultOut]:
    tournament = _tournament(tournament_id)
    user = director_of(request, tournament.club)
    pairing = do_enter_result(
        tournament,
        payload.round,
        payload.player1,
        payload.score1,
        payload.player2,
        payload.score2,
        by=user.get_username(),
    )
    answer: ResultOut = {
        "round": payload.round,
        "table": pairing.table,
        "player1": entrant_named(tournament, payload.player1).player.name,
        "score1": payload.score1,
        "player2": entrant_named(tournament, payload.player2).player.name,
        "score2": payload.score2,
    }
    return Status(201, answer)


@api.get(
    "/tournaments/{tournament_id}/standings",
    **answers(200, list[StandingOut], *READ, 404),
    summary="The standings in order, places shared shown as 1=; of one division",
)
def standings(
    request: HttpRequest, tournament_id: int, division: Text | None = None
) -> list[StandingOut]:
    """``division`` names the division asked for; an event of several needs it."""
    rows = reads.standings(_tournament(tournament_id), division)
    return [
        {
            "rank": row.standing.rank,
            "name": row.standing.player.name,
            "wins": row.standing.wins,
            "losses": row.standing.losses,
            "spread": row.standing.spread,
            "gibsonized": row.gibsonized,
            "rating_before": row.rating_before,
            "rating_change": row.rating_change,
        }
        for row in rows
    ]


@api.get(
    "/tournaments/{tournament_id}/standings.csv",
    **answers(308, None, *READ, 404),
    summary="Where the standings' CSV file is: /tournaments/{id}/standings.csv",
)
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    # As the .t file: one address, the page's (rank, name, wins, losses, spread, games,
    # gibsonized, rating_before, rating_after, rating_change; a header line first).
    tournament = _tournament(tournament_id)
    path = reverse("tournament_standings_csv", args=[tournament.pk])
    return HttpResponseRedirect(path, status=308)


@api.get(
    "/tournaments/{tournament_id}/export.t",
    **answers(308, None, *READ, 404),
    summary="Where the event's tsh .t file is: /tournaments/{id}/export.t (?division=)",
)
def export_t(
    request: HttpRequest, tournament_id: int, division: Text | None = None
) -> HttpResponse:
    # The file has one address, the page's; the API points there.
    tournament = _tournament(tournament_id)
    address = reverse("tournament_export_t", args=[tournament.pk])
    if division is not None:
        address += "?" + urlencode({"division": division})
    return HttpResponseRedirect(address, status=308)


# Corrections with a trace, and the event itself ----------------------------------------------
class VoidIn(Schema):
    round: Int = Field(..., ge=1)
    player: Text = Field(..., examples=["Ben Baker"], description="either player of the table")


class EventChangeIn(Schema):
    date: Date | None = Field(None, description="YYYY-MM-DD")
    archived: bool | None = Field(None, description="archived: off the club's list and screen")
    tonight: bool | None = Field(
        None, description="the event the club's director's screen shows tonight"
    )


def _kept(first: int | None, second: int | None, absent: Entrant | None) -> KeptResultOut:
    return {
        "score1": first,
        "score2": second,
        "absent": absent.player.name if absent is not None else None,
    }


def _correction(correction: ResultCorrection) -> CorrectionOut:
    return {
        "by": correction.by,
        "at": correction.at.isoformat(),
        "before": _kept(
            correction.first_score_before,
            correction.second_score_before,
            correction.absent_before,
        ),
        "after": _kept(
            correction.first_score_after, correction.second_score_after, correction.absent_after
        ),
    }


def _result_line(
    pairing: Pairing, corrections: list[ResultCorrection] | None = None
) -> ResultLineOut:
    kind = "game"
    scores = final_scores(pairing)
    if pairing.second is None:
        kind = "absence" if pairing.absent_id == pairing.first_id else "bye"
    elif pairing.absent_id is not None:
        kind = "forfeit"
    elif pairing.first_score is not None:
        kind = "typed"
    elif scores is None:
        kind = "waiting"
    first, second = scores if scores is not None and kind in ("game", "typed") else (None, None)
    absent = pairing.first if pairing.absent_id == pairing.first_id else pairing.second
    return {
        "round": pairing.round.number,
        "table": pairing.table,
        "kind": kind,
        "player1": pairing.first.player.name,
        "score1": first,
        "player2": pairing.second.player.name if pairing.second else None,
        "score2": second,
        "absent": absent.player.name if kind == "forfeit" and absent is not None else None,
        "corrections": [_correction(c) for c in corrections or []],
    }


@api.get(
    "/tournaments/{tournament_id}/results/",
    **answers(200, list[ResultLineOut], *READ, 404),
    summary="Every round's tables and byes with their results and the corrections made",
)
def list_results(request: HttpRequest, tournament_id: int) -> list[ResultLineOut]:
    tournament = _tournament(tournament_id)
    made: dict[int, list[ResultCorrection]] = {}
    for correction in corrections_of(tournament):
        made.setdefault(correction.pairing_id, []).append(correction)
    return [_result_line(p, made.get(p.pk)) for p in pairings_of(tournament)]


def _line_of(pairing: Pairing) -> ResultLineOut:
    pairing = pairings_by_pk(pairing.pk)
    return _result_line(pairing, list(corrections_of_pairing(pairing)))


@api.put(
    "/tournaments/{tournament_id}/results/",
    **answers(200, ResultLineOut, *DIRECTING, 404),
    summary="Set or correct the result of a game played without the app (or of a forfeit); "
    "the old result is kept with who corrected it and when",
)
def correct_result(request: HttpRequest, tournament_id: int, payload: ResultIn) -> ResultLineOut:
    tournament = _tournament(tournament_id)
    user = director_of(request, tournament.club)
    pairing = do_correct_result(
        tournament,
        payload.round,
        payload.player1,
        payload.score1,
        payload.player2,
        payload.score2,
        by=user.get_username(),
    )
    return _line_of(pairing)


@api.post(
    "/tournaments/{tournament_id}/results/void",
    **answers(200, ResultLineOut, *DIRECTING, 404),
    summary="Void a forfeit or a typed-in result: the table waits for a result again",
)
def void_result(request: HttpRequest, tournament_id: int, payload: VoidIn) -> ResultLineOut:
    tournament = _tournament(tournament_id)
    user = director_of(request, tournament.club)
    pairing = do_void_result(tournament, payload.round, payload.player, by=user.get_username())
    return _line_of(pairing)


def _state(tournament: Tournament) -> EventStateOut:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "archived": tournament.archived,
        "tonight": tournament.tonight == today(),
    }


@api.patch(
    "/tournaments/{tournament_id}",
    **answers(200, EventStateOut, *DIRECTING, 404),
    summary="Set an event's date, archive it (or bring it back), make it tonight's",
)
def change_event(request: HttpRequest, tournament_id: int, payload: EventChangeIn) -> EventStateOut:
    tournament = _tournament(tournament_id)
    director_of(request, tournament.club)
    tournament = do_change_event(tournament, date=payload.date, archived=payload.archived)
    if payload.tonight is not None:
        tournament = do_mark_tonight(tournament, payload.tonight)
    return _state(tournament)


@api.delete(
    "/tournaments/{tournament_id}",
    **answers(204, None, *DIRECTING, 404),
    summary="Delete an event that has no result yet (else archive it)",
)
def delete_event(request: HttpRequest, tournament_id: int) -> Status[None]:
    tournament = _tournament(tournament_id)
    director_of(request, tournament.club)
    do_delete_tournament(tournament)
    return Status(204, None)

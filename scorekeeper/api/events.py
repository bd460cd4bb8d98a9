"""The API of a club's tournament: make a club, make an event, enter players late, withdraw
one, pair its rounds, type in a result, read its standings and its ``.t`` file.

A change is a director's (``accounts.account_of``: the session with CSRF, or the account's
token); reading an event is anyone's. Each route calls one operation of
``scorekeeper.events`` (or ``membership`` for a club); a paired game is played
through ``/api/games/{id}/`` as any other.

Each route keeps the OpenAPI operation id it had when this module was ``api/tournaments.py``
(``operation_id``): clients made from the schema keep their method names.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from ninja import Status

from scorekeeper.api import schemas
from scorekeeper.api.accounts import NotSignedIn, account_of
from scorekeeper.api.clubs import club_named, director_of
from scorekeeper.api.endpoints import READ, WRITE, ApiError, Text, answers, api
from scorekeeper.api.event_inputs import (
    ClubIn,
    EventChangeIn,
    ForfeitIn,
    ImportIn,
    LateEntriesIn,
    ResultIn,
    RoundIn,
    SwapIn,
    TournamentIn,
    VoidIn,
    WithdrawalIn,
)
from scorekeeper.clubs.membership import do_create_club
from scorekeeper.events import reads
from scorekeeper.events.access import access_event
from scorekeeper.events.corrections import corrections_of, corrections_of_pairing
from scorekeeper.events.entries import (
    Entry,
    do_add_players,
    do_create_tournament,
)
from scorekeeper.events.files import do_import_tournament
from scorekeeper.events.lifecycle import do_change_event, do_delete_tournament, do_mark_tonight
from scorekeeper.events.reads import (
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
from scorekeeper.http import limits
from scorekeeper.models import (
    Entrant,
    Pairing,
    ResultCorrection,
    Tournament,
    TournamentRound,
)

DIRECTING = (401, 403, *WRITE)


def _described(tournament: Tournament) -> schemas.TournamentOut:
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


def _round(paired: TournamentRound) -> schemas.RoundOut:
    pairings = list(
        paired.pairings.select_related("first__player", "second__player", "game").order_by("table")
    )
    tables: list[schemas.PairingOut] = [
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


@api.post(
    "/clubs/",
    **answers(201, schemas.ClubOut, *DIRECTING),
    summary="Make a club, as its director",
    operation_id="scorekeeper_api_tournaments_create_club",
)
@limits.limited("accounts")
def create_club(request: HttpRequest, payload: ClubIn) -> Status[schemas.ClubOut]:
    try:
        user = account_of(request)
    except NotSignedIn as refused:
        raise ApiError(refused.status, refused.code, refused.message) from None
    club = do_create_club(payload.name, user)
    return Status(201, {"slug": club.slug, "name": club.name})


@api.post(
    "/clubs/{slug}/tournaments/",
    **answers(201, schemas.TournamentOut, *DIRECTING, 404),
    summary="Make a tournament of the club, with its players",
    operation_id="scorekeeper_api_tournaments_create_tournament",
)
@limits.limited("events")
def create_tournament(
    request: HttpRequest, slug: str, payload: TournamentIn
) -> Status[schemas.TournamentOut]:
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
    **answers(201, schemas.TournamentOut, *DIRECTING, 404),
    summary="Start an event from tsh's .t file: its players, ratings and results so far",
    operation_id="scorekeeper_api_tournaments_import_tournament",
)
@limits.limited("events")
def import_tournament(
    request: HttpRequest, slug: str, payload: ImportIn
) -> Status[schemas.TournamentOut]:
    club = club_named(slug)
    user = director_of(request, club)
    made = do_import_tournament(club, payload.t_file, **payload.fields(club), by=user)
    return Status(201, _described(made))


@api.get(
    "/clubs/{slug}/tournaments/",
    **answers(200, list[schemas.TournamentOut], *READ, 404),
    summary="A club's tournaments, the latest first",
    operation_id="scorekeeper_api_tournaments_list_tournaments",
)
def list_tournaments(request: HttpRequest, slug: str) -> list[schemas.TournamentOut]:
    return [_described(t) for t in club_named(slug).tournaments.all()]


@api.post(
    "/tournaments/{tournament_id}/rounds/",
    **answers(201, schemas.RoundOut, *DIRECTING, 404),
    summary="Pair the next round; each table's game is made, its first player to move",
    operation_id="scorekeeper_api_tournaments_pair_round",
)
@limits.limited("pairings")
def pair_round(
    request: HttpRequest, tournament_id: int, payload: RoundIn
) -> Status[schemas.RoundOut]:
    tournament = access_event(tournament_id)
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


@api.delete(
    "/tournaments/{tournament_id}/rounds/{number}",
    **answers(200, schemas.UnpairedOut, *DIRECTING, 404),
    summary="Take back a round before its first turn: its games go, and it can be paired again",
    operation_id="scorekeeper_api_tournaments_unpair_round",
)
def unpair_round(request: HttpRequest, tournament_id: int, number: int) -> schemas.UnpairedOut:
    tournament = access_event(tournament_id)
    director_of(request, tournament.club)
    removed = do_unpair_round(tournament, number)
    return {"round": number, "games_removed": removed}


@api.post(
    "/tournaments/{tournament_id}/rounds/{number}/swap",
    **answers(200, schemas.RoundOut, *DIRECTING, 404),
    summary="Swap two players of a round before its first turn; the round as paired now",
    operation_id="scorekeeper_api_tournaments_swap",
)
def swap(
    request: HttpRequest, tournament_id: int, number: int, payload: SwapIn
) -> schemas.RoundOut:
    tournament = access_event(tournament_id)
    director_of(request, tournament.club)
    return _round(do_swap(tournament, number, *payload.players))


def _entrant(entrant: Entrant) -> schemas.EntrantOut:
    return {
        "name": entrant.player.name,
        "rating": entrant.rating,
        "career_games": entrant.career_games,
        "division": entrant.division,
        "joined_round": entrant.joined_round,
        "active": entrant.active,
    }


def _forfeit(pairing: Pairing, tournament: Tournament) -> schemas.ForfeitOut:
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
    **answers(201, list[schemas.EntrantOut], *DIRECTING, 404),
    summary="Late entries: paired from the next round on, each round before a forfeit loss",
    operation_id="scorekeeper_api_tournaments_add_players",
)
@limits.limited("entries")
def add_players(
    request: HttpRequest, tournament_id: int, payload: LateEntriesIn
) -> Status[list[schemas.EntrantOut]]:
    tournament = access_event(tournament_id)
    user = director_of(request, tournament.club)
    made = do_add_players(
        tournament,
        [Entry(p.name, p.rating, p.career_games, p.division) for p in payload.players],
        by=user,
    )
    return Status(201, [_entrant(entrant) for entrant in made])


@api.post(
    "/tournaments/{tournament_id}/withdrawals/",
    **answers(201, schemas.WithdrawalOut, *DIRECTING, 404),
    summary="Withdraw a player: not paired again; their open games become forfeit wins",
    operation_id="scorekeeper_api_tournaments_withdraw",
)
def withdraw(
    request: HttpRequest, tournament_id: int, payload: WithdrawalIn
) -> Status[schemas.WithdrawalOut]:
    tournament = access_event(tournament_id)
    user = director_of(request, tournament.club)
    entrant = entrant_named(tournament, payload.name)
    forfeited = do_withdraw(entrant, by=user.get_username())
    answer: schemas.WithdrawalOut = {
        "name": entrant.player.name,
        "from_round": tournament.round_set.count() + 1,
        "forfeits": [_forfeit(pairing, tournament) for pairing in forfeited],
    }
    return Status(201, answer)


@api.post(
    "/tournaments/{tournament_id}/forfeits/",
    **answers(201, schemas.ForfeitOut, *DIRECTING, 404),
    summary="A paired player is absent: a loss by the forfeit margin, a win for the opponent",
    operation_id="scorekeeper_api_tournaments_forfeit",
)
def forfeit(
    request: HttpRequest, tournament_id: int, payload: ForfeitIn
) -> Status[schemas.ForfeitOut]:
    tournament = access_event(tournament_id)
    user = director_of(request, tournament.club)
    pairing = do_forfeit(tournament, payload.round, payload.absent, by=user.get_username())
    return Status(201, _forfeit(pairing, tournament))


@api.post(
    "/tournaments/{tournament_id}/results/",
    **answers(201, schemas.ResultOut, *DIRECTING, 404),
    summary="Type in the result of a game played without the app",
    operation_id="scorekeeper_api_tournaments_enter_result",
)
def enter_result(
    request: HttpRequest, tournament_id: int, payload: ResultIn
) -> Status[schemas.ResultOut]:
    tournament = access_event(tournament_id)
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
    answer: schemas.ResultOut = {
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
    **answers(200, list[schemas.StandingOut], *READ, 404),
    summary="The standings in order, places shared shown as 1=; of one division",
    operation_id="scorekeeper_api_tournaments_standings",
)
def standings(
    request: HttpRequest, tournament_id: int, division: Text | None = None
) -> list[schemas.StandingOut]:
    """``division`` names the division asked for; an event of several needs it."""
    rows = reads.standings(access_event(tournament_id), division)
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
    operation_id="scorekeeper_api_tournaments_standings_csv",
)
def standings_csv(request: HttpRequest, tournament_id: int) -> HttpResponse:
    # As the .t file: one address, the page's (rank, name, wins, losses, spread, games,
    # gibsonized, rating_before, rating_after, rating_change; a header line first).
    tournament = access_event(tournament_id)
    path = reverse("event_standings_csv", args=[tournament.pk])
    return HttpResponseRedirect(path, status=308)


@api.get(
    "/tournaments/{tournament_id}/export.t",
    **answers(308, None, *READ, 404),
    summary="Where the event's tsh .t file is: /tournaments/{id}/export.t (?division=)",
    operation_id="scorekeeper_api_tournaments_export_t",
)
def export_t(
    request: HttpRequest, tournament_id: int, division: Text | None = None
) -> HttpResponse:
    # The file has one address, the page's; the API points there.
    tournament = access_event(tournament_id)
    address = reverse("event_export_t", args=[tournament.pk])
    if division is not None:
        address += "?" + urlencode({"division": division})
    return HttpResponseRedirect(address, status=308)


def _kept(first: int | None, second: int | None, absent: Entrant | None) -> schemas.KeptResultOut:
    return {
        "score1": first,
        "score2": second,
        "absent": absent.player.name if absent is not None else None,
    }


def _correction(correction: ResultCorrection) -> schemas.CorrectionOut:
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
) -> schemas.ResultLineOut:
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
    **answers(200, list[schemas.ResultLineOut], *READ, 404),
    summary="Every round's tables and byes with their results and the corrections made",
    operation_id="scorekeeper_api_tournaments_list_results",
)
def list_results(request: HttpRequest, tournament_id: int) -> list[schemas.ResultLineOut]:
    tournament = access_event(tournament_id)
    made: dict[int, list[ResultCorrection]] = {}
    for correction in corrections_of(tournament):
        made.setdefault(correction.pairing_id, []).append(correction)
    return [_result_line(p, made.get(p.pk)) for p in pairings_of(tournament)]


def _line_of(pairing: Pairing) -> schemas.ResultLineOut:
    pairing = pairings_by_pk(pairing.pk)
    return _result_line(pairing, list(corrections_of_pairing(pairing)))


@api.put(
    "/tournaments/{tournament_id}/results/",
    **answers(200, schemas.ResultLineOut, *DIRECTING, 404),
    summary="Set or correct the result of a game played without the app (or of a forfeit); "
    "the old result is kept with who corrected it and when",
    operation_id="scorekeeper_api_tournaments_correct_result",
)
def correct_result(
    request: HttpRequest, tournament_id: int, payload: ResultIn
) -> schemas.ResultLineOut:
    tournament = access_event(tournament_id)
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
    **answers(200, schemas.ResultLineOut, *DIRECTING, 404),
    summary="Void a forfeit or a typed-in result: the table waits for a result again",
    operation_id="scorekeeper_api_tournaments_void_result",
)
def void_result(request: HttpRequest, tournament_id: int, payload: VoidIn) -> schemas.ResultLineOut:
    tournament = access_event(tournament_id)
    user = director_of(request, tournament.club)
    pairing = do_void_result(tournament, payload.round, payload.player, by=user.get_username())
    return _line_of(pairing)


def _state(tournament: Tournament) -> schemas.EventStateOut:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "date": tournament.date.isoformat(),
        "archived": tournament.archived,
        "tonight": tournament.tonight == today(),
    }


@api.patch(
    "/tournaments/{tournament_id}",
    **answers(200, schemas.EventStateOut, *DIRECTING, 404),
    summary="Set an event's date, archive it (or bring it back), make it tonight's",
    operation_id="scorekeeper_api_tournaments_change_event",
)
def change_event(
    request: HttpRequest, tournament_id: int, payload: EventChangeIn
) -> schemas.EventStateOut:
    tournament = access_event(tournament_id)
    director_of(request, tournament.club)
    tournament = do_change_event(tournament, date=payload.date, archived=payload.archived)
    if payload.tonight is not None:
        tournament = do_mark_tonight(tournament, payload.tonight)
    return _state(tournament)


@api.delete(
    "/tournaments/{tournament_id}",
    **answers(204, None, *DIRECTING, 404),
    summary="Delete an event that has no result yet (else archive it)",
    operation_id="scorekeeper_api_tournaments_delete_event",
)
def delete_event(request: HttpRequest, tournament_id: int) -> Status[None]:
    tournament = access_event(tournament_id)
    director_of(request, tournament.club)
    do_delete_tournament(tournament)
    return Status(204, None)

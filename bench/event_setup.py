"""The event bench's event, made in the server's database (run with the server's
environment): a club, 300 players in 3 divisions, 24 rounds, 7 of them played and round 8
paired (150 tables, each with its game). Prints one JSON object: the event, its tables' games
and tokens, and how long pairing round 8 took (``do_pair_round``: every division, its games
made, in one transaction).

    python -m bench.event_setup PLAYERS ROUNDS PLAYED DIVISIONS
"""

from __future__ import annotations

import json
import sys
import time


def main(argv: list[str]) -> None:
    import django

    django.setup()
    from bench.event_data import played_event
    from scorekeeper.events.rounds import do_pair_round
    from scorekeeper.models import Club

    players, rounds, played, divisions = (int(a) for a in argv[:4])
    club = Club.objects.create(name="Weekend club", slug="weekend")
    event = played_event(
        club, players=players, rounds=rounds, played=played, divisions=divisions,
        lexicon="CSW19", gibson=False,
    )  # fmt: skip
    began = time.perf_counter()
    paired = do_pair_round(event, "swiss")
    pairing_ms = (time.perf_counter() - began) * 1000
    games = [p.game for p in paired.pairings.select_related("game").order_by("table") if p.game]
    tables = [{"id": str(game.pk), "token": game.token, "entry": 0} for game in games]
    print(json.dumps({"event": event.pk, "tables": tables, "pair_round_ms": round(pairing_ms)}))


if __name__ == "__main__":
    main(sys.argv[1:])

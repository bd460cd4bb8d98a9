"""Replay every game's turn log through the referee and report any disagreement."""

from __future__ import annotations

import uuid

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from referee import RefereeError
from scorekeeper.games import checkpoints
from scorekeeper.games.consistency import audit_game
from scorekeeper.games.domain import fetch_game
from scorekeeper.models import Game


class Command(BaseCommand):
    help = "Replay every game's log and report games whose stored state or final_score disagrees."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("game_ids", nargs="*", help="only these games (default: all)")
        parser.add_argument(
            "--rebuild-checkpoints",
            action="store_true",
            help="make each game's checkpoints again from its log once it agrees with it "
            "(games stored before checkpoints were kept have none)",
        )

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        games = Game.objects.order_by("created_at")
        if options["game_ids"]:
            ids = [_game_id(text) for text in options["game_ids"]]
            games = games.filter(pk__in=ids)
            missing = set(ids) - set(games.values_list("pk", flat=True))
            if missing:
                # A game asked for by id and not checked must not pass as checked.
                shown = ", ".join(str(pk) for pk in ids if pk in missing)
                raise CommandError(f"There is no game {shown}.")
        failures = []
        checked = 0
        for game in games.iterator():
            checked += 1
            problems = _problems(game)
            if not problems and options["rebuild_checkpoints"]:
                with transaction.atomic():  # under the game's lock: no turn in between
                    locked = fetch_game(game.pk, lock=True)
                    made = checkpoints.rebuild(locked, locked.seats.count())
                self.stdout.write(f"{game.pk}: {made} checkpoint(s) made from its log")
            if problems:
                failures.append(f"{game.pk}: " + "; ".join(problems))
                self.stdout.write(self.style.ERROR(f"{game.pk}: {len(problems)} problem(s)"))
                for problem in problems:
                    self.stdout.write(f"  - {problem}")
        bad = len(failures)
        summary = f"Checked {checked} game(s): {checked - bad} agree with their logs, {bad} do not."
        if failures:
            raise CommandError("\n".join([summary, *failures]))
        self.stdout.write(self.style.SUCCESS(summary))


def _game_id(text: str) -> uuid.UUID:
    try:
        return uuid.UUID(text)
    except ValueError:
        raise CommandError(f"{text!r} is not a game id.") from None


def _problems(game: Game) -> list[str]:
    try:
        return audit_game(game)
    except (RefereeError, LookupError, TypeError, ValueError) as error:
        # The stored state itself does not read (a last play the board can't hold, say):
        # that is a finding about this game, not a reason to stop checking the others.
        message = error.message if isinstance(error, RefereeError) else str(error)
        return [f"the stored state does not read: {message}"]

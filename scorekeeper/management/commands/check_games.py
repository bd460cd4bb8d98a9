"""Replay every game's turn log through the referee and report any disagreement."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from scorekeeper.domain import check_game
from scorekeeper.models import Game


class Command(BaseCommand):
    help = "Replay every game's log and report games whose stored state or final_score disagrees."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("game_ids", nargs="*", help="only these games (default: all)")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        games = Game.objects.order_by("created_at")
        if options["game_ids"]:
            games = games.filter(pk__in=options["game_ids"])
        bad = 0
        checked = 0
        for game in games.iterator():
            checked += 1
            problems = check_game(game)
            if problems:
                bad += 1
                self.stdout.write(self.style.ERROR(f"{game.pk}: {len(problems)} problem(s)"))
                for problem in problems:
                    self.stdout.write(f"  - {problem}")
        summary = f"Checked {checked} game(s): {checked - bad} agree with their logs, {bad} do not."
        if bad:
            raise CommandError(summary)
        self.stdout.write(self.style.SUCCESS(summary))

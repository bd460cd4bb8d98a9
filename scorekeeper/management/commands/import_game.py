"""Recreate a game from its JSON record (as written by export_game)."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from referee.errors import InputError
from scorekeeper.records import import_game


class Command(BaseCommand):
    help = "Import a game from its JSON record; the replay of its log must match its state."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("path", type=Path)
        parser.add_argument("--new-id", action="store_true", help="give the game a new id")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        try:
            record = json.loads(options["path"].read_text("utf-8"))
        except OSError as error:
            raise CommandError(f"Can't read {options['path']}: {error.strerror}.") from None
        except ValueError:
            raise CommandError(f"{options['path']} is not JSON.") from None
        try:
            game = import_game(record, new_id=options["new_id"])
        except InputError as error:
            raise CommandError(error.message) from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported game {game.pk}; its new token is {game.token}")
        )

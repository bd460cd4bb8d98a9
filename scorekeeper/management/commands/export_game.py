"""Write a game's record: lossless JSON (default) or GCG for Letter UP games."""

from __future__ import annotations

import json
import uuid

from django.core.management.base import BaseCommand, CommandError

from referee import InputError
from scorekeeper.models import Game
from scorekeeper.records.gcg_export import game_to_gcg
from scorekeeper.records.json_record import export_record


class Command(BaseCommand):
    help = "Print a game's record as JSON (re-importable) or GCG."

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("game_id")
        parser.add_argument("--format", choices=["json", "gcg"], default="json")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        try:
            game = Game.objects.filter(pk=uuid.UUID(options["game_id"])).first()
        except ValueError:
            game = None
        if game is None:
            raise CommandError(f"There is no game {options['game_id']}.")
        try:
            if options["format"] == "gcg":
                self.stdout.write(game_to_gcg(game), ending="")
            else:
                self.stdout.write(json.dumps(export_record(game), indent=2))
        except InputError as error:
            raise CommandError(error.message) from None

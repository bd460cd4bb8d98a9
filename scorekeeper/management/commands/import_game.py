"""Import a game: its JSON record (as written by export_record), or a GCG file."""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from referee import GCG_MAX_SIZE, RULESETS, InputError
from scorekeeper.records.gcg_import import import_gcg, nobody
from scorekeeper.records.json_record import import_record


class Command(BaseCommand):
    help = (
        "Import a game from its JSON record (the replay of its log must match its state) or "
        "from a GCG file (every scored line recomputed; differences listed)."
    )

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--format",
            choices=["json", "gcg"],
            help="the file's format (by default from its extension: .gcg is GCG, else JSON)",
        )
        parser.add_argument("--new-id", action="store_true", help="JSON: give the game a new id")
        parser.add_argument(
            "--strict", action="store_true", help="GCG: refuse a record that differs anywhere"
        )
        parser.add_argument(
            "--ruleset",
            choices=[r.id for r in RULESETS.values() if r.gcg],
            help="GCG: the ruleset (by default the one its title names, else crossword-classic)",
        )
        parser.add_argument("--json", action="store_true", help="GCG: print one JSON object")
        parser.add_argument(
            "--link",
            action="store_true",
            help="GCG: the record's players are the players known by those names (made if "
            "new), their games counted on their records; by default they are new names, "
            "linked to no one, as an upload's are",
        )

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        path: Path = options["path"]
        kind = options["format"] or ("gcg" if path.suffix.lower() == ".gcg" else "json")
        try:
            if kind == "gcg" and path.stat().st_size > GCG_MAX_SIZE:
                raise CommandError(
                    f"{path} has {path.stat().st_size:,} bytes: a game record has at most "
                    f"{GCG_MAX_SIZE:,}."
                )
            data = path.read_bytes()
        except OSError as error:
            raise CommandError(f"Can't read {path}: {error.strerror}.") from None
        if kind == "gcg":
            self.gcg(data, options)
        else:
            self.record(data, options)

    def gcg(self, data: bytes, options: dict) -> None:  # type: ignore[type-arg]
        try:
            imported = import_gcg(
                data,
                ruleset=options["ruleset"],
                strict=options["strict"],
                linked=None if options["link"] else nobody,
            )
        except InputError as error:
            raise CommandError(error.message) from None
        if options["json"]:
            self.stdout.write(json.dumps(imported.to_dict(), ensure_ascii=False))
            return
        for m in imported.mismatches:
            self.stdout.write(
                f"line {m.line}: {m.text.strip()} — recorded {m.recorded}, computed {m.computed}"
                f" ({m.message})"
            )
        game = imported.game
        if imported.linked_here:
            self.stdout.write(
                self.style.SUCCESS(f"Game {game.pk} was here already: its players are linked now.")
            )
            return
        differ = len(imported.mismatches)
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported game {game.pk} ({game.ruleset}, {game.lexicon}); "
                + (
                    f"{differ} line{'s' if differ != 1 else ''} differ from the rules; "
                    if differ
                    else "every scored line agrees with the rules; "
                )  # fmt: skip
                + f"its token is {game.token}"
            )
        )

    def record(self, data: bytes, options: dict) -> None:  # type: ignore[type-arg]
        try:
            record = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise CommandError(f"{options['path']} is not JSON.") from None
        try:
            game = import_record(record, new_id=options["new_id"])
        except InputError as error:
            raise CommandError(error.message) from None
        self.stdout.write(
            self.style.SUCCESS(f"Imported game {game.pk}; its new token is {game.token}")
        )

"""Delete what has expired from the stores requests write to: rate-limit counts of windows
that have ended, and answers kept for retries past their day. Requests delete some as they
go; run this from a daily timer to keep the tables small whatever the traffic."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from scorekeeper.http import limits, retries


class Command(BaseCommand):
    help = "Delete expired rate-limit counts and expired answers kept for retries."

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        counts, answers = limits.sweep(), retries.sweep()
        self.stdout.write(f"Deleted {counts} rate-limit counts and {answers} kept answers.")

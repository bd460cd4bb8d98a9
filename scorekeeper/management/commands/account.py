"""Accounts with no mail set up: ``account add USERNAME`` makes one, ``account reset USERNAME``
gives it a new password, ``account token USERNAME`` a new personal API token (replacing the
one before). There is no sign-up page; Django's ``changepassword`` works too."""

from __future__ import annotations

import sys
from typing import Any, TextIO

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from scorekeeper.api.accounts import new_account_token
from scorekeeper.clubs.membership import random_password


class Command(BaseCommand):
    help = (
        "add USERNAME: make an account (the password read from stdin, or a random one printed "
        "once); reset USERNAME: give it a new random password, printed once; token USERNAME: a "
        "new API token (Authorization: Bearer <token>), printed once."
    )

    stealth_options = ("stdin",)  # tests pass the password as call_command(..., stdin=...)

    def add_arguments(self, parser):  # type: ignore[no-untyped-def]
        parser.add_argument("what", choices=["add", "reset", "token"])
        parser.add_argument("username")

    def handle(self, *args, **options):  # type: ignore[no-untyped-def]
        User = get_user_model()
        username = options["username"].strip()
        if options["what"] == "add":
            if not username:
                raise CommandError("Give the account a username.")
            if User.objects.filter(username=username).exists():
                raise CommandError(f"There is already an account called {username}.")
            given = self._read_password(options.get("stdin") or sys.stdin)
            password = given or random_password()
            user = User(username=username)
            self._check(password, user)
            user.set_password(password)
            user.save()
            self.stdout.write(self.style.SUCCESS(f"Made the account {username}."))
        else:
            found = User.objects.filter(username=username).first()
            if found is None:
                raise CommandError(f"There is no account called {username}.")
            user = found
            if options["what"] == "token":
                self.stdout.write(new_account_token(user))  # alone on its line, for scripts
                return
            given, password = "", random_password()
            user.set_password(password)
            user.save(update_fields=["password"])
            self.stdout.write(self.style.SUCCESS(f"Reset the password of {username}."))
        if not given:
            self.stdout.write(f"Password (shown this once): {password}")

    def _read_password(self, stdin: TextIO) -> str:
        """A password piped in (``echo pw | manage.py account add ann``); none from a terminal."""
        if stdin.isatty():
            return ""
        return stdin.readline().rstrip("\r\n")

    def _check(self, password: str, user: Any) -> None:
        try:
            validate_password(password, user)
        except ValidationError as error:
            raise CommandError("That password won't do: " + " ".join(error.messages)) from None

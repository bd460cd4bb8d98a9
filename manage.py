#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys

# Commands that serve requests, or check the deployment's settings, need those settings,
# SECRET_KEY included.
SERVING = {"runserver", "testserver", "check"}


def serves(argv: list[str]) -> bool:
    """Whether this command line serves requests or checks the deployment's settings.

    >>> serves(["manage.py", "runserver"]), serves(["manage.py", "check", "--deploy"])
    (True, True)
    >>> serves(["manage.py", "account", "add", "ann"]), serves(["manage.py"])
    (False, False)
    """
    return len(argv) > 1 and argv[1] in SERVING


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    if not serves(sys.argv):
        # Any other command works from a fresh clone with no SECRET_KEY set: settings then
        # give it a throwaway key of its own (config/settings.py).
        os.environ["SCOREKEEPER_COMMAND"] = sys.argv[1] if len(sys.argv) > 1 else "help"
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()

"""``manage.py check --deploy`` with production settings: clean apart from the choices
docs/deploy.md documents (W005, W008, W021), each of which its setting turns off."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# Documented in docs/deploy.md: HSTS for subdomains and preloading are the domain
# owner's call; the TLS proxy redirects plain HTTP (so /healthz works from a load balancer).
DOCUMENTED = {"security.W005", "security.W008", "security.W021"}


def deploy_check(**extra: str) -> set[str]:
    # A production server's environment: none of the test run's switches (the browser tests
    # set DJANGO_ALLOW_ASYNC_UNSAFE while they run).
    unset = {"DEBUG", "TESTING", "SECURE", "DJANGO_SETTINGS_MODULE", "DJANGO_ALLOW_ASYNC_UNSAFE"}
    env = {k: v for k, v in os.environ.items() if k not in unset}
    env.update(SECRET_KEY=secrets.token_urlsafe(50), ALLOWED_HOSTS="scores.example.org", **extra)
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    return set(re.findall(r"\((\w+\.[WE]\d+)\)", output))


def test_deploy_check_finds_only_the_documented_choices():
    assert deploy_check() == DOCUMENTED
    deploy = (ROOT / "docs" / "deploy.md").read_text()
    for check in DOCUMENTED:
        assert check in deploy, check


def test_each_documented_choice_is_one_setting_away():
    assert not deploy_check(
        SECURE_SSL_REDIRECT="1",
        SECURE_HSTS_INCLUDE_SUBDOMAINS="1",
        SECURE_HSTS_PRELOAD="1",
        SECURE_HSTS_SECONDS="31536000",
    )

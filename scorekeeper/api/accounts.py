"""Who is calling, for the API's routes that act for an account (a club's director): the
browser's session, with Django's CSRF check on a change, or a personal token
(``Authorization: Bearer <token>``, made by ``manage.py account token USERNAME``).

Only a token's SHA-256 digest is stored; a token is compared by looking its digest up.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from ninja.utils import check_csrf

from scorekeeper.http.middleware import bearer_token
from scorekeeper.models import AccountToken


class NotSignedIn(Exception):
    """No account, or a token or CSRF check that fails: ``status`` is 401 or 403."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def new_account_token(user: AbstractBaseUser) -> str:
    """A new personal token for ``user``, replacing the one before: shown once, kept as its
    digest."""
    token = secrets.token_urlsafe(32)
    AccountToken.objects.update_or_create(user=user, defaults={"digest": digest(token)})
    return token


def account_of(request: HttpRequest) -> Any:
    """The account making the request, or ``NotSignedIn``."""
    if request.headers.get("Authorization", "").strip():
        token = bearer_token(request)
        found = None if token is None else AccountToken.objects.filter(digest=digest(token))
        kept = None if found is None else found.select_related("user").first()
        if kept is None or not kept.user.is_active:
            raise NotSignedIn(401, "unauthorized", "That token opens no account.")
        return kept.user
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        raise NotSignedIn(
            401,
            "unauthorized",
            "Sign in, or send your account's token: Authorization: Bearer <token>.",
        )
    if request.method not in ("GET", "HEAD", "OPTIONS") and check_csrf(request) is not None:
        raise NotSignedIn(403, "csrf_failed", "The request has no valid CSRF token.")
    return user

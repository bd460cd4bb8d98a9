"""Tiny helpers that read settings from the environment and fail loudly on a bad value."""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TypeVar

from django.core.exceptions import ImproperlyConfigured

N = TypeVar("N", int, float)

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def envstr(name: str, default: str = "") -> str:
    return os.environ.get(name, default)


def envbool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name} must be one of 1/0, true/false, yes/no, on/off; got {raw!r}"
    )


def envint(name: str, default: int) -> int:
    return _number(name, default, int, "an integer")


def envfloat(name: str, default: float) -> float:
    return _number(name, default, float, "a number")


def _number(name: str, default: N, kind: Callable[[str], N], what: str) -> N:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        return kind(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be {what}; got {raw!r}") from None


def envlist(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]

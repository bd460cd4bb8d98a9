"""Logging: one JSON object a line, and no secret in any line.

A scorer link carries its game's secret (``/games/<id>/score/<secret>/``). ``MaskSecrets``
sits on every handler (Django's and gunicorn's, access log included) and masks it wherever it
appears in a record: the message, its arguments, extra fields such as a request, and a
traceback.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from gunicorn.glogging import Logger as GunicornBaseLogger

# The secret follows /score/ in a scorer link (but not the names of the scorer's pages, whose
# addresses carry no secret); a Bearer token follows "Bearer ".
_PAGES = r"(?:turn|preview|correct|abandon|first|hand-over|new-link|qr\.svg)(?=[?\s\"',;]|$)"
_SECRETS = re.compile(rf"(/score/(?!{_PAGES})|[Bb]earer\s+|[?&]token=)[^/\s?&\"',;]+")
MASK = r"\1***"


def mask(text: str) -> str:
    """
    >>> mask('"POST /games/1/score/s3cr3t-x_Y/turn HTTP/1.1" 302')
    '"POST /games/1/score/***/turn HTTP/1.1" 302'
    >>> mask('"POST /games/1/score/turn HTTP/1.1" 302 /games/1/score/turnip-s3cr3t/')
    '"POST /games/1/score/turn HTTP/1.1" 302 /games/1/score/***/'
    """
    return _SECRETS.sub(MASK, text)


_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {"message", "asctime"}


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        data = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        data.update({k: v for k, v in vars(record).items() if k not in _STANDARD})
        if record.exc_text:  # left by MaskSecrets: formatted once, secrets masked
            data["exception"] = record.exc_text
        elif record.exc_info:
            data["exception"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str)


class MaskSecrets(logging.Filter):
    """Masks scorer secrets in every record a handler writes (it changes the record, so put it
    on handlers: every logger's records pass through them)."""

    _plain = logging.Formatter()

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask(message)
        if masked != message:
            record.msg, record.args = masked, None
        for name, value in list(vars(record).items()):
            if name in _STANDARD:
                continue
            text = value if isinstance(value, str) else None
            if text is None and value is not None and not isinstance(value, int | float | bool):
                text = str(value)  # a request object, say: its repr holds the path
                if mask(text) != text:
                    setattr(record, name, mask(text))
                continue
            if text is not None and mask(text) != text:
                setattr(record, name, mask(text))
        if record.exc_info and not record.exc_text:
            record.exc_text = self._plain.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = mask(record.exc_text)
        return True


class QuietDisallowedHost(logging.Filter):
    """A request for a host this server does not serve is a client's mistake or a scan: the
    refused-request line (one WARNING) says it; Django's own ERROR with a traceback goes."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.name != "django.security.DisallowedHost"


class GunicornLogger(GunicornBaseLogger):  # type: ignore[misc]  # gunicorn is untyped
    """gunicorn's error and access logs, with the secrets masked like the app's own."""

    def setup(self, cfg: Any) -> None:
        super().setup(cfg)
        for log in (self.error_log, self.access_log):
            for handler in log.handlers:
                handler.addFilter(MaskSecrets())

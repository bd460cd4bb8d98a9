"""Logging: one JSON object a line, and no secret in any line.

A scorer link carries its game's secret (``/games/<id>/score/<secret>/``). ``MaskSecrets``
sits on every handler (Django's and gunicorn's, access log included) and masks it wherever it
appears in a record: the message, its arguments, extra fields such as a request, and a
traceback; in a path written plainly or percent-encoded (``/sc%6Fre/``), as the raw request line
of an access log has it.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import Any

from gunicorn.glogging import Logger as GunicornBaseLogger

# The secret follows /score/ in a scorer link (but not the names of the scorer's pages, whose
# addresses carry no secret), however many slashes stand around it; a Bearer token follows
# "Bearer ".
_PAGES = (
    r"(?:turn|preview|correct|correct-preview|abandon|first|hand-over|new-link|qr\.svg)"
    r"(?=[?\s\"',;]|$)"
)
_SECRETS = re.compile(rf"(/(?i:score)/+(?!{_PAGES})|[Bb]earer\s+|[?&]token=)([^/\s?&\"',;]+)")
MASK = r"\1***"
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")


def mask(text: str) -> str:
    """``text`` with every scorer secret and token masked, in a path written plainly or
    percent-encoded: a server decodes ``/sc%6Fre/`` to ``/score/`` before it routes it, so
    the escapes of ASCII characters are read decoded, and what follows is masked as written.

    >>> mask('"POST /games/1/score/s3cr3t-x_Y/turn HTTP/1.1" 302')
    '"POST /games/1/score/***/turn HTTP/1.1" 302'
    >>> mask('"POST /games/1/score/turn HTTP/1.1" 302 /games/1/score/turnip-s3cr3t/')
    '"POST /games/1/score/turn HTTP/1.1" 302 /games/1/score/***/'
    >>> mask('"GET /games/1/sc%6Fre/s3cr3t/ HTTP/1.1" 200 /games/1/%73core%2f%73%33cr3t')
    '"GET /games/1/sc%6Fre/***/ HTTP/1.1" 200 /games/1/%73core%2f***'
    """
    if "%" not in text:
        return _SECRETS.sub(MASK, text)
    # The text as a server would read it, one character for each escape, and where in
    # ``text`` each character of that reading starts.
    read, starts, at = [], [], 0
    while at < len(text):
        escape = _ESCAPE.match(text, at)
        starts.append(at)
        if escape and int(escape.group(1), 16) < 0x80:
            read.append(chr(int(escape.group(1), 16)))
            at = escape.end()
        else:  # a character as written (a non-ASCII byte's escape counts as its first "%")
            read.append(text[at])
            at += 1
    starts.append(len(text))
    parts, kept = [], 0
    for found in _SECRETS.finditer("".join(read)):
        secret_from, secret_to = starts[found.start(2)], starts[found.end(2)]
        parts += [text[kept:secret_from], "***"]
        kept = secret_to
    return "".join([*parts, text[kept:]])


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

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

# A scorer link's secret is in its path after /score/ (/games/<id>/score/<secret>/), however
# the path is spelt: every segment after /score/ is masked but the names of the scorer's pages
# (whose addresses carry no secret), "score" itself and the dot segments ("/score/./<secret>/",
# "/score/../score/<secret>/"), up to where the path ends. A Bearer token follows "Bearer ",
# and a token a "token=".
_PAGES = frozenset(
    ["turn", "preview", "correct", "correct-preview", "abandon", "first", "hand-over",
     "new-link", "qr.svg", ".", ".."]
)  # fmt: skip
_SCORE = re.compile(r"/(?i:score)(?=[/\\])")
_TOKENS = re.compile(r"(?:[Bb]earer\s+|[?&]token=)([^/\s?&\"',;]+)")
_PATH_ENDS = re.compile(r"[\s\"'<>?#,;]")
_SEGMENT = re.compile(r"[^/\\\s\"'<>?#,;]+")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")
# A server decodes a path once; a proxy before it may have decoded it once more.
_DECODINGS = 3


def _secrets(read: str) -> list[tuple[int, int]]:
    """Where the secrets are in ``read``, a text as a server reads it: (start, end) pairs."""
    spans = {found.span(1) for found in _TOKENS.finditer(read)}
    for found in _SCORE.finditer(read):
        ends = _PATH_ENDS.search(read, found.end())
        path_end = ends.start() if ends else len(read)
        for segment in _SEGMENT.finditer(read, found.end(), path_end):
            word = segment.group()
            if word not in _PAGES and word.lower() != "score":
                spans.add(segment.span())
    return sorted(spans)


def _decoded(text: str) -> tuple[str, list[int]]:
    """``text`` as a server reads it (one character for each escape of an ASCII character;
    a non-ASCII byte's escape counts as its first "%"), and where in ``text`` each character
    of that reading starts (with one more: the end)."""
    read, starts, at = [], [], 0
    while at < len(text):
        escape = _ESCAPE.match(text, at)
        starts.append(at)
        if escape and int(escape.group(1), 16) < 0x80:
            read.append(chr(int(escape.group(1), 16)))
            at = escape.end()
        else:
            read.append(text[at])
            at += 1
    starts.append(len(text))
    return "".join(read), starts


def mask(text: str) -> str:
    """``text`` with every scorer secret and token masked, in a path written plainly or
    percent-encoded (once or more): a server decodes ``/sc%6Fre/`` to ``/score/`` before it
    routes it, so the escapes of ASCII characters are read decoded, and what follows is
    masked as written.

    >>> mask('"POST /games/1/score/s3cr3t-x_Y/turn HTTP/1.1" 302')
    '"POST /games/1/score/***/turn HTTP/1.1" 302'
    >>> mask('"POST /games/1/score/turn HTTP/1.1" 302 /games/1/score/turnip-s3cr3t/')
    '"POST /games/1/score/turn HTTP/1.1" 302 /games/1/score/***/'
    >>> mask('"GET /games/1/sc%6Fre/s3cr3t/ HTTP/1.1" 200 /games/1/%73core%2f%73%33cr3t')
    '"GET /games/1/sc%6Fre/***/ HTTP/1.1" 200 /games/1/%73core%2f***'
    >>> mask("/games/1/score/./s3cr3t/ /games/1/score/../score/s3cr3t/turn")
    '/games/1/score/./***/ /games/1/score/../score/***/turn'
    """
    read, starts = text, list(range(len(text) + 1))
    for _ in range(_DECODINGS):
        if "%" not in read:
            break
        read, more = _decoded(read)
        starts = [starts[at] for at in more]
    parts, kept = [], 0
    for secret_from, secret_to in _secrets(read):
        begin, end = starts[secret_from], starts[secret_to]
        if begin < kept:
            continue
        parts += [text[kept:begin], "***"]
        kept = end
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

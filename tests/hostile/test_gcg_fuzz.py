"""Hostile game records: real GCG files mutated (lines cut, dropped, repeated or swapped, huge
numbers, encoding declarations swapped or garbled, control characters and lone surrogates,
random bytes), sent to every reader of records: the API (``POST /api/games/import``), the
upload page (``/games/import``) and ``manage.py import_game``.

Each answers with a game or with a refusal that says why (a 4xx JSON error, a 4xx page, a
``CommandError``), never a server error; a refused record writes nothing, and an imported game
is the replay of its log.
"""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.games.consistency import audit_game
from scorekeeper.models import Game, Player, Seat, Turn
from tests.hostile.clients import HOSTILE, HostileClient, api_error, rolled_back

pytestmark = pytest.mark.django_db

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gcg"
RECORDS = {f"{p.parent.name}/{p.name}": p.read_bytes() for p in sorted(FIXTURES.rglob("*.gcg"))}
TARGETS = ("api", "page", "command")

ENCODINGS = [
    "punycode", "idna", "unicode_escape", "raw_unicode_escape", "undefined", "utf-16",
    "utf-32", "utf-7", "base64", "rot13", "cp1252", "ISO-8859-1", "UTF-8", "shift_jis",
    "nonsense", "utf-8-sig", "\xff\xfe", "x" * 300,
]  # fmt: skip
ODD = [
    "\x00", "\x01", "\x0b", "\x0c", "\x1c", "\x7f", "\x85", "\u2028", "\ufeff", "\u202e",
    "\u200b", "\ud800", "\udfff", "\\ud800", "\\x00", "\\U0010ffff", "é", "ﬁ", "ß", "\u0130",
    "Ｑ", "²", "٣", "😀", "A\u0301\u0301\u0301\u0301", ">", "#", ":", "(", ")", "--", "\t",
]  # fmt: skip
HUGE = ["9" * 7, "9" * 4301, "9" * 10_000, "-" + "9" * 4400, "+" + "9" * 4400, "0" * 5000, "²"]
DIGITS = re.compile(rb"\d+")


def odd_bytes(text: str) -> bytes:
    return text.encode("utf-8", errors="surrogatepass")  # a lone surrogate as CESU bytes


@st.composite
def mutated_records(draw: st.DrawFn) -> bytes:
    """A real record, mutated one to four times."""
    lines = RECORDS[draw(st.sampled_from(sorted(RECORDS)))].split(b"\n")

    def index() -> int:
        return draw(st.integers(0, max(len(lines) - 1, 0)))

    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            lines = [b""]
        kind = draw(
            st.sampled_from(
                ["cut", "drop", "repeat", "swap", "huge", "encoding", "odd", "bytes", "recode"]
            )
        )
        at = index()
        if kind == "cut":
            lines[at] = lines[at][: draw(st.integers(0, len(lines[at])))]
        elif kind == "drop":
            del lines[at]
        elif kind == "repeat":
            lines[at:at] = [lines[at]] * draw(st.sampled_from([1, 9, 2500]))
        elif kind == "swap":
            other = index()
            lines[at], lines[other] = lines[other], lines[at]
        elif kind == "huge":
            runs = list(DIGITS.finditer(lines[at]))
            if runs:
                run = runs[draw(st.integers(0, len(runs) - 1))]
                number = draw(st.sampled_from(HUGE)).encode()
                lines[at] = lines[at][: run.start()] + number + lines[at][run.end() :]
        elif kind == "encoding":
            name = draw(st.sampled_from(ENCODINGS))
            lines.insert(at, b"#character-encoding " + odd_bytes(name))
        elif kind == "odd":
            cut = draw(st.integers(0, len(lines[at])))
            text = odd_bytes(draw(st.sampled_from(ODD)))
            lines[at] = lines[at][:cut] + text + lines[at][cut:]
        elif kind == "bytes":
            cut = draw(st.integers(0, len(lines[at])))
            lines[at] = lines[at][:cut] + draw(st.binary(min_size=1, max_size=24)) + lines[at][cut:]
        else:  # the whole file in another encoding, as far as it goes
            codec = draw(st.sampled_from(["utf-16", "latin-1", "utf-8-sig", "cp1252"]))
            text = b"\n".join(lines).decode("utf-8", errors="replace")
            return text.encode(codec, errors="replace")
    return b"\n".join(lines)


def rows() -> dict[str, int]:
    return {model.__name__: model.objects.count() for model in (Game, Player, Seat, Turn)}


def imported_game(before: dict[str, int]) -> Game:
    """The one game the import added, stored as the replay of its log."""
    game = Game.objects.order_by("-created_at").first()
    assert game is not None and rows()["Game"] == before["Game"] + 1
    assert audit_game(game) == []
    return game


def send(hostile: HostileClient, target: str, record: bytes, tmp_path: Path) -> bool:
    """Send the record to one reader; True if it imported it, False if it refused it, saying
    why. Anything else (a 5xx, another exception) fails the test."""
    if target == "api":
        text = record.decode("utf-8", errors="surrogateescape")  # invalid bytes: lone surrogates
        response = hostile.post("/api/games/import", {"gcg": text}, content_type="application/json")
        if response.status_code == 201:
            return True
        api_error(response.status_code, response["Content-Type"], response.content)
        return False
    if target == "page":
        upload = SimpleUploadedFile("game.gcg", record)
        response = hostile.post("/games/import", {"file": upload})
        if response.status_code == 302:
            return True
        assert 400 <= response.status_code < 500, response.status_code
        page = response.content.decode()
        refusal = re.search(r'<div class="refusal" role="alert">(.+?)</div>', page, re.S)
        assert refusal is not None and refusal.group(1).strip(), page[:2000]
        return False
    path = tmp_path / "game.gcg"
    path.write_bytes(record)
    try:
        call_command("import_game", str(path), "--format", "gcg", stdout=io.StringIO())
    except CommandError as error:
        assert str(error).strip()
        return False
    return True


A_PLAY = b"#player1 a A\n#player2 b B\n>a: AEINRST 8D RETAINS +66 66\n"


@settings(HOSTILE, max_examples=150)
@given(record=mutated_records(), target=st.sampled_from(TARGETS))
# The attacker's findings, on every reader.
@example(record=A_PLAY + b">a: (ABCDEFG) +20 86\n#rack9 ABC\n", target="api")
@example(record=A_PLAY + b">a: (ABCDEFG) +20 86\n#rack9 ABC\n", target="page")
@example(record=A_PLAY + b">b: ABC 9C AB +" + b"9" * 4400 + b" 8\n", target="command")
@example(record=A_PLAY + b">b: ABC -" + b"9" * 4400 + b" +0 0\n", target="api")
@example(record=b"#character-encoding punycode\n" + A_PLAY + b"-99999999\n", target="page")
@example(record=b"#character-encoding idna\n" + A_PLAY + b"#note " + b"a" * 80, target="page")
@example(record=b"#character-encoding unicode_escape\n" + A_PLAY + b"#note \\ud800", target="page")
@example(record=A_PLAY + b"#note \xed\xa0\x80\n", target="page")
@example(record=A_PLAY + b">b: (time) -1 -1\n" * 2500, target="api")
def test_a_mutated_record_is_imported_or_refused_saying_why(
    hostile: HostileClient, tmp_path: Path, record: bytes, target: str
) -> None:
    with rolled_back():
        before = rows()
        if send(hostile, target, record, tmp_path):
            imported_game(before)
        else:
            assert rows() == before  # a refused record writes nothing


def test_any_answer_names_a_line_for_a_line_it_refuses(hostile: HostileClient) -> None:
    response = hostile.post(
        "/api/games/import",
        {"gcg": (A_PLAY + b">b: ABC -" + b"9" * 4400 + b" +0 0\n").decode()},
        content_type="application/json",
    )
    error: dict[str, Any] = api_error(
        response.status_code, response["Content-Type"], response.content
    )
    assert error["line"] == 4 and error["message"].startswith("Line 4: ")

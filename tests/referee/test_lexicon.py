"""The dictionary layer: reading word lists, compiling them once, and the library of lexica."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import referee.lexicon
from referee import LibraryNotReady, get_library, reset_library
from referee.lexicon import (
    HONOUR_ID,
    CompiledLexicon,
    HonourSystem,
    Lexicon,
    LexiconFileError,
    LexiconLibrary,
    UnknownLexicon,
    WordSet,
    compile_lexicon,
    pyscrabbler_csw19_path,
    read_word_list,
)

# From shared/lexica/README.md.
README_COUNTS = {
    "ENABLE": 172_820,
    "TWL06": 178_691,
    "SOWPODS": 267_751,
    "CSW19": 279_496,
    "CSW21": 279_077,
    "NWL2023": 196_601,
}
README_SHA256 = {
    "ENABLE": "b819e7b67f8f2c80640ae76f0edbe59a4a1befb6de0f348463642ad49bdd2ad3",
    "TWL06": "576f29fa16c7ee47621300c877b5ce338beeb5d34fff1d289ed37310522bfee8",
    "SOWPODS": "8fa1b8384c6121b2cd16697f68c46569570b788204ca2633a79b2b61ef71886b",
    "CSW19": "4f3fcd3f698018f803b72aaeeb98f60c4098acae69d085704f2e36eb1dc168c9",
    "CSW21": "fa584fb550b77709f3386d44a885e2d56d34ffae01c20ffaf9036efa03736642",
    "NWL2023": "7ced912101628ad7f80a38553fa79a5e6c2a163dd871d7251ca4cef10b12b97f",
}
CSW19_WORDS = 279_496
ROOT = Path(__file__).resolve().parents[2]

# Which lists hold the two-letter words that tell them apart.
TWO_LETTER_WORDS = {
    #          ENABLE TWL06  SOWPODS CSW19 CSW21  NWL2023
    "QI": dict(zip(README_COUNTS, (False, True, True, True, True, True), strict=True)),
    "ZA": dict(zip(README_COUNTS, (False, True, True, True, True, True), strict=True)),
    "KI": dict(zip(README_COUNTS, (False, True, True, True, True, True), strict=True)),
    "ZO": dict(zip(README_COUNTS, (False, False, True, True, True, False), strict=True)),
}


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def sha256_of(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


# ---------------------------------------------------------------------------
# The real lists in LEXICON_DIR


@pytest.fixture(scope="session")
def lexica_dir() -> Path:
    folder = os.environ.get("LEXICON_DIR")
    if not folder:
        reason = "LEXICON_DIR is not set; point it at shared/lexica to check the real word lists"
        if os.environ.get("CI") == "true":
            pytest.fail(f"{reason} (CI must run these tests).")
        pytest.skip(reason)
    return Path(folder)


@pytest.fixture(scope="session")
def real_library(lexica_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> LexiconLibrary:
    # Session-scoped so the six lists are compiled once for all the tests below.
    return LexiconLibrary([lexica_dir], tmp_path_factory.mktemp("lexicon-cache"), fallback=False)


@pytest.mark.lexica
def test_library_offers_every_list_in_the_folder(real_library: LexiconLibrary) -> None:
    assert set(README_COUNTS) <= set(real_library.ids())
    assert {info.source for info in real_library.infos()} == {"LEXICON_DIR"}


@pytest.mark.lexica
@pytest.mark.parametrize(("lexicon_id", "count"), README_COUNTS.items())
def test_word_count_matches_the_readme(
    real_library: LexiconLibrary, lexicon_id: str, count: int
) -> None:
    assert real_library.get(lexicon_id).word_count == count


@pytest.mark.lexica
@pytest.mark.parametrize(("lexicon_id", "sha256"), README_SHA256.items())
def test_checksum_matches_the_readme(
    real_library: LexiconLibrary, lexicon_id: str, sha256: str
) -> None:
    assert real_library.get(lexicon_id).checksum == f"sha256:{sha256}"


@pytest.mark.lexica
@pytest.mark.parametrize(
    ("word", "lexicon_id", "present"),
    [
        (word, lexicon_id, present)
        for word, row in TWO_LETTER_WORDS.items()
        for lexicon_id, present in row.items()
    ],
)
def test_two_letter_words_tell_the_lists_apart(
    real_library: LexiconLibrary, word: str, lexicon_id: str, present: bool
) -> None:
    assert real_library.get(lexicon_id).contains(word) is present


@pytest.mark.lexica
@pytest.mark.parametrize("lexicon_id", README_COUNTS)
@pytest.mark.parametrize("word", ["OXYPHENBUTAZONE", "SESQUIPEDALIAN", "ZYZZYVA", "KNICKKNACKS"])
def test_long_real_words_are_in_every_list(
    real_library: LexiconLibrary, lexicon_id: str, word: str
) -> None:
    assert word in real_library.get(lexicon_id)


@pytest.mark.lexica
def test_enable_lacks_knickknack_but_the_tournament_lists_have_it(
    real_library: LexiconLibrary,
) -> None:
    assert "KNICKKNACK" not in real_library.get("ENABLE")
    assert "KNICKKNACK" in real_library.get("TWL06")


@pytest.mark.lexica
@pytest.mark.parametrize("not_a_word", ["qi", "Qi", "QI ", " QI", "Q1", "QI-", "", "QÏ", None, 7])
def test_contains_rejects_anything_but_uppercase_letters(
    real_library: LexiconLibrary, not_a_word: object
) -> None:
    csw19 = real_library.get("CSW19")
    assert csw19.contains(not_a_word) is False  # type: ignore[arg-type]
    assert (not_a_word in csw19) is False


@pytest.mark.lexica
def test_lookups_are_case_insensitive_on_the_id(real_library: LexiconLibrary) -> None:
    assert real_library.get("twl06") is real_library.get("TWL06")


# ---------------------------------------------------------------------------
# The CSW19 list inside the pyscrabbler package


def test_pyscrabbler_carries_csw19() -> None:
    path = pyscrabbler_csw19_path()
    assert path is not None and path.name == "Dictionary.txt" and path.is_file()


def test_with_no_folders_the_library_offers_pyscrabblers_csw19(tmp_path: Path) -> None:
    library = LexiconLibrary([], tmp_path / "cache")
    assert library.ids() == ["CSW19"]
    assert library.infos()[0].source == "pyscrabbler"
    csw19 = library.get("CSW19")
    assert csw19.word_count == CSW19_WORDS
    assert "ZO" in csw19 and "QI" in csw19
    # The checksum is of the file as shipped (CRLF), so sha256sum on it agrees.
    assert csw19.checksum == sha256_of(library.infos()[0].path)


def test_a_csw19_in_a_folder_replaces_the_packaged_one(tmp_path: Path) -> None:
    write(tmp_path / "lists" / "CSW19.txt", "ZO\n")
    library = LexiconLibrary([tmp_path / "lists"], tmp_path / "cache")
    assert [(i.id, i.source) for i in library.infos()] == [("CSW19", "LEXICON_DIR")]
    assert library.get("CSW19").word_count == 1


def test_no_fallback_means_no_csw19(tmp_path: Path) -> None:
    assert LexiconLibrary([], tmp_path / "cache", fallback=False).ids() == []


def test_get_library_without_lexicon_dir_still_has_a_dictionary(
    settings: Any, tmp_path: Path
) -> None:
    settings.LEXICON_DIR = None
    settings.LEXICON_USER_DIR = tmp_path / "user"
    settings.LEXICON_CACHE_DIR = tmp_path / "cache"
    reset_library()
    try:
        assert get_library().ids() == ["CSW19"]
        assert get_library() is get_library()
    finally:
        reset_library()


def test_get_library_refuses_a_lexicon_dir_that_is_not_a_folder(
    settings: Any, tmp_path: Path
) -> None:
    settings.LEXICON_DIR = str(tmp_path / "missing")
    settings.LEXICON_USER_DIR = tmp_path / "user"
    settings.LEXICON_CACHE_DIR = tmp_path / "cache"
    reset_library()
    try:
        with pytest.raises(LibraryNotReady, match="LEXICON_DIR .* is not a folder"):
            get_library()
    finally:
        reset_library()


def test_a_settings_override_points_the_library_at_the_new_folder(
    settings: Any, tmp_path: Path
) -> None:
    settings.LEXICON_DIR = None
    settings.LEXICON_USER_DIR = tmp_path / "user"
    settings.LEXICON_CACHE_DIR = tmp_path / "cache"
    reset_library()
    assert "CLUB" not in get_library().ids()
    write(tmp_path / "lists" / "CLUB.txt", "MOOD\n")
    settings.LEXICON_DIR = str(tmp_path / "lists")  # no reset_library(): the app hears it
    try:
        assert get_library().ids() == ["CLUB", "CSW19"]
        assert "MOOD" in get_library().get("CLUB")
    finally:
        reset_library()


def _python(code: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    root = Path(__file__).resolve().parents[2]
    return subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True
    )


def test_the_engine_and_its_library_work_without_django(tmp_path: Path) -> None:
    write(tmp_path / "lists" / "CLUB.txt", "MOOD\nDEAR\n")
    code = f"""
import sys
import referee
from referee import library
try:
    referee.get_library()
except referee.LibraryNotReady as error:
    print("not ready:", error)
referee.configure(lexicon_dir={str(tmp_path / "lists")!r}, user_dir={str(tmp_path / "u")!r},
                  cache_dir={str(tmp_path / "cache")!r})
print(referee.get_library().get("CLUB").contains("MOOD"), referee.get_library() is library.get_library())
print(sorted(m for m in sys.modules if m.split(".")[0] == "django"))
"""
    result = _python(code, tmp_path)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("not ready: The word lists are not configured")
    assert lines[1:] == ["True True", "[]"]


# ---------------------------------------------------------------------------
# Compiling once, loading by mmap


@pytest.fixture
def small_list(tmp_path: Path) -> Path:
    return write(tmp_path / "lists" / "SMALL.txt", "UP\nWORDS\nSTACK\n")


def test_compiling_twice_reuses_the_compiled_trie(small_list: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    first = compile_lexicon(small_list, cache)
    before = first.path.stat() if first.path else None
    second = compile_lexicon(small_list, cache)
    assert second.path == first.path and second.path is not None and before is not None
    after = second.path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert len(list(cache.glob("*.marisa"))) == 1


def test_a_compiled_list_loads_without_reading_the_source(
    small_list: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    compile_lexicon(small_list, tmp_path / "cache")

    def no_reading(path: Path) -> bytes:
        raise AssertionError(f"read {path} although its sidecar matched")

    monkeypatch.setattr(referee.lexicon, "_read_bytes", no_reading)
    lexicon = compile_lexicon(small_list, tmp_path / "cache")
    assert lexicon.word_count == 3 and "STACK" in lexicon


def test_a_touched_but_unchanged_list_is_rehashed_not_rebuilt(
    small_list: Path, tmp_path: Path
) -> None:
    first = compile_lexicon(small_list, tmp_path / "cache")
    assert first.path is not None
    before = first.path.stat()
    os.utime(small_list, ns=(before.st_mtime_ns + 10**9, before.st_mtime_ns + 10**9))
    second = compile_lexicon(small_list, tmp_path / "cache")
    assert second.path == first.path and second.path is not None
    assert second.path.stat().st_ino == before.st_ino
    sidecar = json.loads(second.path.with_suffix(".json").read_text())
    assert sidecar["mtime_ns"] == small_list.stat().st_mtime_ns


def test_a_changed_list_gets_a_new_checksum_and_its_new_words(
    small_list: Path, tmp_path: Path
) -> None:
    first = compile_lexicon(small_list, tmp_path / "cache")
    mtime = small_list.stat().st_mtime_ns
    write(small_list, "UP\nDOWN\n")
    os.utime(small_list, ns=(mtime + 10**9, mtime + 10**9))  # as an edit a second later would
    second = compile_lexicon(small_list, tmp_path / "cache")
    assert second.checksum != first.checksum
    assert second.checksum == sha256_of(small_list)
    assert "DOWN" in second and "STACK" not in second
    assert second.path != first.path


def test_the_checksum_is_the_sha256_of_the_file_bytes(tmp_path: Path) -> None:
    source = write(tmp_path / "CRLF.txt", b"up\r\nwords\r\n")
    lexicon = compile_lexicon(source, tmp_path / "cache")
    assert lexicon.checksum == sha256_of(source)
    assert lexicon.id == "CRLF"


def test_the_compiled_trie_is_memory_mapped(small_list: Path, tmp_path: Path) -> None:
    maps = Path("/proc/self/maps")
    if not maps.exists():
        pytest.skip("needs /proc/self/maps (Linux) to see the process's mappings")
    lexicon = compile_lexicon(small_list, tmp_path / "cache")
    assert isinstance(lexicon, CompiledLexicon) and lexicon.path is not None
    assert str(lexicon.path.resolve()) in maps.read_text()


def test_the_cache_is_named_for_the_id_and_checksum(small_list: Path, tmp_path: Path) -> None:
    lexicon = compile_lexicon(small_list, tmp_path / "cache", "Mine")
    digest = lexicon.checksum.removeprefix("sha256:")
    assert lexicon.path == tmp_path / "cache" / f"Mine-{digest[:16]}.marisa"
    sidecar = json.loads(lexicon.path.with_suffix(".json").read_text())
    assert sidecar["id"] == "Mine" and sidecar["word_count"] == 3
    assert sidecar["checksum"] == lexicon.checksum
    assert sidecar["size"] == small_list.stat().st_size
    # Nothing half-written left behind.
    assert sorted(p.suffix for p in (tmp_path / "cache").iterdir()) == [".json", ".marisa"]


def test_a_lost_or_torn_cache_is_rebuilt(small_list: Path, tmp_path: Path) -> None:
    first = compile_lexicon(small_list, tmp_path / "cache")
    assert first.path is not None
    first.path.with_suffix(".json").write_text("{not json")
    assert "UP" in compile_lexicon(small_list, tmp_path / "cache")
    first.path.unlink()
    assert "UP" in compile_lexicon(small_list, tmp_path / "cache")
    first.path.write_bytes(b"not a trie")
    assert "UP" in compile_lexicon(small_list, tmp_path / "cache")


def test_compiling_a_missing_list_says_so(tmp_path: Path) -> None:
    with pytest.raises(LexiconFileError, match="does not exist"):
        compile_lexicon(tmp_path / "GONE.txt", tmp_path / "cache")


# ---------------------------------------------------------------------------
# Reading word lists


def test_a_missing_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(LexiconFileError, match=r"No word list at .*GONE\.txt"):
        read_word_list(tmp_path / "GONE.txt")


def test_a_folder_is_not_a_word_list(tmp_path: Path) -> None:
    with pytest.raises(LexiconFileError, match="is a folder"):
        read_word_list(tmp_path)


@pytest.mark.parametrize("text", ["", "\n\n  \r\n", "# only a comment\n\n"], ids=repr)
def test_a_list_with_no_words_is_an_error(tmp_path: Path, text: str) -> None:
    with pytest.raises(LexiconFileError, match="has no words"):
        read_word_list(write(tmp_path / "EMPTY.txt", text))


def test_lines_that_are_not_words_are_named_by_line_number(tmp_path: Path) -> None:
    path = write(tmp_path / "BAD.txt", "UP\nno way\nDOWN\nX1\n")
    with pytest.raises(LexiconFileError) as raised:
        read_word_list(path)
    message = str(raised.value)
    assert "2 lines that are not words" in message
    assert "line 2: 'no way'" in message and "line 4: 'X1'" in message
    assert "line 1" not in message and "line 3" not in message


def test_a_single_bad_line_reads_as_one(tmp_path: Path) -> None:
    with pytest.raises(LexiconFileError, match=r"1 line that is not a word .*: line 2: 'Q-'\."):
        read_word_list(write(tmp_path / "BAD.txt", "QI\nQ-\n"))


def test_many_bad_lines_show_the_first_few_and_count_the_rest(tmp_path: Path) -> None:
    path = write(tmp_path / "BAD.txt", "".join(f"word {n}\n" for n in range(12)))
    with pytest.raises(LexiconFileError, match=r"line 5: 'word 4'\ \(and 7 more\)") as raised:
        read_word_list(path)
    assert "line 6" not in str(raised.value)


def test_non_ascii_letters_are_not_words(tmp_path: Path) -> None:
    # "straße".upper() is "STRASSE": the check must come before uppercasing.
    with pytest.raises(LexiconFileError, match="line 1: 'straße'"):
        read_word_list(write(tmp_path / "DE.txt", "straße\n"))


def test_crlf_lowercase_and_duplicates_are_normalised(tmp_path: Path) -> None:
    path = write(tmp_path / "MIXED.txt", b"words\r\nUp\r\n  stack \r\nUP\r\n")
    assert read_word_list(path) == ["STACK", "UP", "WORDS"]


def test_comments_blank_lines_and_a_byte_order_mark_are_skipped(tmp_path: Path) -> None:
    path = write(tmp_path / "NOTES.txt", "\ufeff# my list\nUP\n\n   # indented note\nDOWN\n")
    assert read_word_list(path) == ["DOWN", "UP"]


def test_progress_reports_bytes_read_up_to_the_whole_file(tmp_path: Path) -> None:
    path = write(tmp_path / "BIG.txt", "".join(f"{'A' * (n % 7 + 1)}B\n" for n in range(20_000)))
    reported: list[int] = []
    read_word_list(path, progress=reported.append)
    assert reported == sorted(reported)
    assert len(reported) > 1 and reported[-1] == path.stat().st_size


# ---------------------------------------------------------------------------
# The stand-ins and the library


def test_the_honour_system_accepts_every_word() -> None:
    honour = HonourSystem()
    assert honour.contains("XYZZY") and honour.contains("qi") and "" in honour
    assert (honour.id, honour.word_count, honour.checksum) == (HONOUR_ID, 0, "")


def test_every_kind_of_lexicon_has_the_engine_interface(small_list: Path, tmp_path: Path) -> None:
    compiled = compile_lexicon(small_list, tmp_path / "cache")
    for lexicon in (HonourSystem(), WordSet("T", ["UP"]), compiled):
        assert isinstance(lexicon, Lexicon)


def test_a_word_set_uppercases_its_words_and_checksums_them_like_a_file() -> None:
    words = WordSet("TINY", ["up", "Down"])
    assert words.contains("UP") and "DOWN" in words
    assert not words.contains("up") and not words.contains("LEFT")
    assert words.contains(1) is False  # type: ignore[arg-type]
    assert words.word_count == 2
    assert words.checksum == "sha256:" + hashlib.sha256(b"DOWN\nUP\n").hexdigest()


def test_a_word_set_refuses_non_words() -> None:
    with pytest.raises(ValueError, match="'up down'"):
        WordSet("TINY", ["up down"])


def test_an_unknown_id_is_an_unknown_lexicon(tmp_path: Path) -> None:
    library = LexiconLibrary([], tmp_path / "cache")
    with pytest.raises(UnknownLexicon) as raised:
        library.get("TWL98")
    assert isinstance(raised.value, KeyError)
    assert str(raised.value) == "There is no lexicon called 'TWL98'. Available: CSW19, honour."
    assert "TWL98" not in library


def test_the_library_hands_out_the_honour_system_by_its_id(tmp_path: Path) -> None:
    library = LexiconLibrary([], tmp_path / "cache", fallback=False)
    assert isinstance(library.get("honour"), HonourSystem)
    assert library.get("HONOUR") is library.get("honour")
    assert "honour" in library and HONOUR_ID not in library.ids()


def test_the_library_keeps_one_object_per_id_in_any_case(small_list: Path, tmp_path: Path) -> None:
    library = LexiconLibrary([small_list.parent], tmp_path / "cache")
    assert library.get("small") is library.get("SMALL")
    assert "Small" in library and library.get("SMALL").id == "SMALL"


def test_an_earlier_folder_wins_and_imports_are_labelled(tmp_path: Path) -> None:
    write(tmp_path / "main" / "ONE.txt", "UP\n")
    write(tmp_path / "user" / "ONE.txt", "DOWN\n")
    write(tmp_path / "user" / "TWO.txt", "LEFT\n")
    write(tmp_path / "user" / "honour.txt", "RIGHT\n")  # can't shadow the honour system
    write(tmp_path / "user" / "notes.md", "not a list\n")
    library = LexiconLibrary(
        [tmp_path / "main", tmp_path / "user"],
        tmp_path / "cache",
        fallback=False,
        user_dir=tmp_path / "user",
    )
    assert [(i.id, i.source) for i in library.infos()] == [
        ("ONE", "LEXICON_DIR"),
        ("TWO", "imported"),
    ]
    assert "UP" in library.get("ONE") and "DOWN" not in library.get("ONE")
    assert isinstance(library.get("honour"), HonourSystem)


def test_folders_that_do_not_exist_yet_are_ignored(tmp_path: Path) -> None:
    library = LexiconLibrary([tmp_path / "nowhere"], tmp_path / "cache", fallback=False)
    assert library.infos() == []


def test_a_broken_list_is_reported_when_used(tmp_path: Path) -> None:
    write(tmp_path / "lists" / "BROKEN.txt", "UP\n1234\n")
    library = LexiconLibrary([tmp_path / "lists"], tmp_path / "cache", fallback=False)
    assert library.ids() == ["BROKEN"]  # listing is cheap and doesn't read the list
    with pytest.raises(LexiconFileError, match="line 2: '1234'"):
        library.get("BROKEN")


def test_the_lexicon_module_does_not_import_django() -> None:
    # The engine must stay usable outside Django; check in a fresh interpreter.
    code = "import sys, referee.lexicon; print(sorted(m for m in sys.modules if 'django' in m))"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == "[]"

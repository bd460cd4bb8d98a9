"""manage.py import_lexicon and manage.py lexicons."""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command

from referee import get_library, reset_library


@pytest.fixture(autouse=True)
def lexicon_settings(settings: Any, tmp_path: Path) -> Iterator[Path]:
    """Lexicon folders in tmp_path, so tests never write into the repository."""
    settings.LEXICON_DIR = None
    settings.LEXICON_USER_DIR = tmp_path / "user"
    settings.LEXICON_CACHE_DIR = tmp_path / "cache"
    reset_library()
    yield tmp_path / "user"
    reset_library()


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return path


def import_lexicon(*args: str) -> tuple[str, str]:
    stdout, stderr = StringIO(), StringIO()
    call_command("import_lexicon", *args, stdout=stdout, stderr=stderr)
    return stdout.getvalue(), stderr.getvalue()


@pytest.fixture
def house_rules(tmp_path: Path) -> Path:
    return write(tmp_path / "house-rules.txt", b"# our words\r\nzyzzyva\r\nQat\r\n\r\nup\r\n")


def test_importing_a_list_normalises_it_and_makes_it_available(
    house_rules: Path, lexicon_settings: Path
) -> None:
    out, err = import_lexicon(str(house_rules))

    imported = lexicon_settings / "HOUSE-RULES.txt"
    assert imported.read_bytes() == b"QAT\nUP\nZYZZYVA\n"
    checksum = "sha256:" + hashlib.sha256(imported.read_bytes()).hexdigest()
    assert out == f"Imported HOUSE-RULES: 3 words, {checksum}\n"
    assert "100%" in err  # the progress bar went to stderr

    library = get_library()
    assert "HOUSE-RULES" in library.ids()
    assert library.info("house-rules").source == "imported"
    lexicon = library.get("HOUSE-RULES")
    assert lexicon.contains("ZYZZYVA") and lexicon.contains("QAT")
    assert not lexicon.contains("QI")
    assert lexicon.checksum == checksum


def test_the_id_can_be_chosen(house_rules: Path, lexicon_settings: Path) -> None:
    out, _ = import_lexicon(str(house_rules), "--id", "Club_2024")
    assert out.startswith("Imported Club_2024: 3 words")
    assert (lexicon_settings / "Club_2024.txt").is_file()
    assert "ZYZZYVA" in get_library().get("club_2024")


def test_a_missing_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match=r"No word list at .*nowhere\.txt: the file does not"):
        import_lexicon(str(tmp_path / "nowhere.txt"))


def test_an_empty_file_is_refused(tmp_path: Path, lexicon_settings: Path) -> None:
    with pytest.raises(CommandError, match="has no words in it"):
        import_lexicon(str(write(tmp_path / "empty.txt", "\n# nothing yet\n")))
    assert not (lexicon_settings / "EMPTY.txt").exists()


def test_a_file_with_lines_that_are_not_words_is_refused_naming_them(
    tmp_path: Path, lexicon_settings: Path
) -> None:
    path = write(tmp_path / "sentences.txt", "UP\nthe cat sat\nDOWN\nR2D2\n")
    with pytest.raises(CommandError) as raised:
        import_lexicon(str(path))
    assert "line 2: 'the cat sat'" in str(raised.value)
    assert "line 4: 'R2D2'" in str(raised.value)
    assert not (lexicon_settings / "SENTENCES.txt").exists()


def test_an_existing_id_needs_force(
    tmp_path: Path, house_rules: Path, lexicon_settings: Path
) -> None:
    import_lexicon(str(house_rules), "--id", "CLUB")
    newer = write(tmp_path / "newer.txt", "DOWN\n")

    with pytest.raises(CommandError, match="called CLUB already exists .* Use --force"):
        import_lexicon(str(newer), "--id", "club")
    assert "ZYZZYVA" in get_library().get("CLUB")

    out, _ = import_lexicon(str(newer), "--id", "CLUB", "--force")
    assert out.startswith("Imported CLUB: 1 words")
    lexicon = get_library().get("CLUB")
    assert "DOWN" in lexicon and "ZYZZYVA" not in lexicon


def test_forcing_an_id_in_another_case_leaves_one_file(
    house_rules: Path, lexicon_settings: Path
) -> None:
    import_lexicon(str(house_rules), "--id", "CLUB")
    import_lexicon(str(house_rules), "--id", "Club", "--force")
    assert sorted(p.name for p in lexicon_settings.iterdir()) == ["Club.txt"]


def test_replacing_the_packaged_csw19_needs_force(tmp_path: Path) -> None:
    own = write(tmp_path / "CSW19.txt", "ZO\n")
    with pytest.raises(CommandError, match="CSW19 already exists \\(pyscrabbler"):
        import_lexicon(str(own))
    import_lexicon(str(own), "--force")
    assert get_library().info("CSW19").source == "imported"
    assert get_library().get("CSW19").word_count == 1


def test_a_list_in_lexicon_dir_cannot_be_replaced_even_with_force(
    settings: Any, tmp_path: Path, house_rules: Path
) -> None:
    write(tmp_path / "lexica" / "ENABLE.txt", "AA\n")
    settings.LEXICON_DIR = str(tmp_path / "lexica")
    reset_library()
    # Imported lists are searched after LEXICON_DIR, so the import could never be used.
    with pytest.raises(CommandError, match="ENABLE already comes from LEXICON_DIR"):
        import_lexicon(str(house_rules), "--id", "enable", "--force")


@pytest.mark.parametrize("reserved", ["honour", "HONOUR"])
def test_the_honour_system_id_is_reserved(house_rules: Path, reserved: str) -> None:
    with pytest.raises(CommandError, match="'honour' is reserved for honour-system games"):
        import_lexicon(str(house_rules), "--id", reserved)


@pytest.mark.parametrize("bad_id", ["two words", "dots.are.out", "x" * 41, "ÉCOLE"])
def test_an_id_must_be_short_letters_digits_dashes_or_underscores(
    house_rules: Path, bad_id: str
) -> None:
    with pytest.raises(CommandError, match="can't be a lexicon id: use 1 to 40 letters"):
        import_lexicon(str(house_rules), "--id", bad_id)


def test_a_file_name_that_makes_no_id_asks_for_one(tmp_path: Path) -> None:
    path = write(tmp_path / "my words.txt", "UP\n")
    with pytest.raises(CommandError, match="choose one with --id"):
        import_lexicon(str(path))


def test_lexicons_lists_every_lexicon_with_its_count_checksum_and_source(
    house_rules: Path,
) -> None:
    import_lexicon(str(house_rules), "--id", "CLUB")
    out = StringIO()
    call_command("lexicons", stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["ID", "WORDS", "CHECKSUM", "SOURCE", "PATH"]
    rows = {line.split()[0]: line.split() for line in lines[1:]}
    assert rows["CLUB"][1:4] == ["3", get_library().get("CLUB").checksum, "imported"]
    assert rows["CSW19"][1] == "279496" and rows["CSW19"][3] == "pyscrabbler"
    assert rows["honour"][1] == "-"


def test_lexicons_reports_a_broken_list_without_hiding_the_others(
    settings: Any, tmp_path: Path
) -> None:
    write(tmp_path / "lexica" / "GOOD.txt", "UP\n")
    write(tmp_path / "lexica" / "BROKEN.txt", "UP\n12\n")
    settings.LEXICON_DIR = str(tmp_path / "lexica")
    reset_library()
    out, err = StringIO(), StringIO()
    call_command("lexicons", stdout=out, stderr=err)
    rows = {line.split()[0]: line.split() for line in out.getvalue().splitlines()[1:]}
    assert rows["GOOD"][1] == "1"
    assert rows["BROKEN"][1:3] == ["-", "unusable"]
    assert "line 2: '12'" in err.getvalue()

"""The automata the move generator walks: a DAWG and a GADDAG hold exactly their word list,
and a compiled lexicon builds them once, beside its trie, and maps them from disk after."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from referee.dawg import SEPARATOR, Dawg, gaddag_strings
from referee.lexicon import WordSet, compile_lexicon

WORDS = ["CAT", "CATS", "CAR", "CARE", "CARES", "DOG", "DOGS", "AT", "A"]


def test_dawg_holds_exactly_its_words():
    dawg = Dawg.from_words(WORDS)
    assert dawg.words() == sorted(WORDS)
    assert dawg.contains("CARE") and not dawg.contains("CA") and not dawg.contains("CARED")


def test_dawg_shares_the_endings_of_words():
    # CATS, CARS, DOGS all end in the same final state, so the automaton stays small.
    words = ["CATS", "CARS", "DOGS", "LOGS", "BATS", "BARS"]
    dawg = Dawg.from_words(words)
    assert dawg.words() == sorted(words)
    assert dawg.states < sum(len(w) for w in words) // 2


def test_a_letter_that_leads_nowhere_is_not_a_child():
    dawg = Dawg.from_words(WORDS)
    assert dawg.child(dawg.root, ord("Z") - 65) == -1
    assert dawg.child(dawg.root, ord("C") - 65) >= 0


def test_gaddag_strings_cut_each_word_every_way():
    assert gaddag_strings("CARE") == ["C[ARE", "AC[RE", "RAC[E", "ERAC"]
    assert gaddag_strings("A") == ["A"]


def test_gaddag_reads_a_word_from_any_letter_outwards():
    gaddag = Dawg.gaddag_from_words(WORDS)
    for word in WORDS:
        for text in gaddag_strings(word):
            assert gaddag.is_word(gaddag.walk(text)), text
    assert not gaddag.is_word(gaddag.walk("RAC[ED"))
    assert gaddag.child(gaddag.walk("RAC"), SEPARATOR) >= 0


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text("ABCDE", min_size=1, max_size=6), max_size=30))
def test_any_list_round_trips(words):
    assert Dawg.from_words(words).words() == sorted(set(words))
    every = sorted({s for w in words for s in gaddag_strings(w)})
    assert Dawg.gaddag_from_words(words).words() == every


def test_word_set_builds_its_automata_once_in_memory():
    lexicon = WordSet("T", ["up", "words"])
    assert lexicon.dawg() is lexicon.dawg()
    assert lexicon.dawg().words() == ["UP", "WORDS"]
    assert lexicon.gaddag().is_word(lexicon.gaddag().walk("PU"))


def test_compiled_lexicon_keeps_its_automata_beside_the_trie(tmp_path):
    source = tmp_path / "CLUB.txt"
    source.write_text("\n".join(WORDS) + "\n")
    cache = tmp_path / "cache"
    lexicon = compile_lexicon(source, cache)
    assert lexicon.dawg().words() == sorted(WORDS)
    lexicon.gaddag()
    assert lexicon.path is not None
    stem = lexicon.path.stem
    assert sorted(p.name for p in cache.iterdir() if p.suffix in {".dawg", ".gaddag"}) == [
        f"{stem}.dawg",
        f"{stem}.gaddag",
    ]
    # A second process (here: a fresh object) maps the files instead of building again.
    again = compile_lexicon(source, cache)
    assert again.dawg().words() == sorted(WORDS)
    assert again.dawg().masks.readonly  # a view of the mapped file


def test_a_damaged_automaton_file_is_built_again(tmp_path):
    source = tmp_path / "CLUB.txt"
    source.write_text("\n".join(WORDS) + "\n")
    lexicon = compile_lexicon(source, tmp_path)
    lexicon.dawg()
    assert lexicon.path is not None
    lexicon.path.with_suffix(".dawg").write_bytes(b"not a dawg")
    assert compile_lexicon(source, tmp_path).dawg().words() == sorted(WORDS)

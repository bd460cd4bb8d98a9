"""The word judge page: one verdict for a set of words, as club judges give it."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def small_lexicon(use_words):
    return use_words("CAT DOG QI ZA")


def judge(client, words: str, **extra):
    return client.get("/judge/", {"lexicon": "CLUB", "words": words, **extra})


def test_all_good_words_are_acceptable(client):
    html = judge(client, "cat, dog qi").content.decode()
    assert ">ACCEPTABLE<" in html and "All 3 words are in CLUB" in html


def test_one_bad_word_makes_the_set_not_acceptable_without_naming_it(client):
    response = judge(client, "cat dgo")
    html = response.content.decode()
    assert "NOT ACCEPTABLE" in html
    assert "DGO" not in html.split("</form>")[0].split("verdict")[-1]
    assert "At least one of the 2 words is not" in html


def test_each_word_mode_lists_every_verdict(client):
    html = judge(client, "cat dgo", each="on").content.decode()
    assert "✓ <strong>CAT</strong> — acceptable" in html
    assert "✗ <strong>DGO</strong> — not acceptable" in html


@pytest.mark.parametrize(
    ("words", "message"),
    [("", "Type at least one word"), ("c4t", "Only letters"), ("a " * 21, "At most 20"),
     ("A" * 16, "longer than 15")],
)  # fmt: skip
def test_bad_input_is_explained(client, words, message):
    response = judge(client, words)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_unknown_lexicon_is_explained(client):
    response = client.get("/judge/", {"lexicon": "NOPE", "words": "cat"})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()


def test_the_empty_form(client):
    response = client.get("/judge/")
    assert response.status_code == 200 and "ACCEPTABLE" not in response.content.decode()

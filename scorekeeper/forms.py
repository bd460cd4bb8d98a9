"""Forms of the table pages. They only read input; every change goes through the domain."""

from __future__ import annotations

from typing import Any

from django import forms

from referee.apps import get_library
from referee.lexicon import HONOUR_ID, LexiconFileError
from referee.rulesets import RULESETS
from scorekeeper.models import name_key

FIRST_CHOICES = [("draw", "Draw tiles: nearest to A starts"), ("0", "Player 1"), ("1", "Player 2"),
                 ("2", "Player 3"), ("3", "Player 4")]  # fmt: skip


def lexicon_choices() -> list[tuple[str, str]]:
    library = get_library()
    choices = []
    for info in library.infos():
        try:
            lexicon = library.get(info.id)
        except LexiconFileError:
            continue  # a broken list is not offered; `manage.py lexicons` says why
        choices.append((lexicon.id, f"{lexicon.id} — {lexicon.word_count:,} words"))
    choices.append((HONOUR_ID, "Honour system — no automatic word check"))
    return choices


class NewGameForm(forms.Form):
    ruleset = forms.ChoiceField(
        choices=[(r.id, r.name) for r in RULESETS.values()],
        initial="upwords-10",
        widget=forms.RadioSelect,
    )
    lexicon = forms.ChoiceField(label="Dictionary")
    player_1 = forms.CharField(label="Player 1", max_length=40)
    player_2 = forms.CharField(label="Player 2", max_length=40, required=False)
    player_3 = forms.CharField(label="Player 3", max_length=40, required=False)
    player_4 = forms.CharField(label="Player 4", max_length=40, required=False)
    challenge_mode = forms.ChoiceField(
        label="Word checking",
        choices=[
            ("auto", "Check each play as it is entered"),
            ("manual", "Tournament: plays stand until challenged"),
        ],
        initial="auto",
        widget=forms.RadioSelect,
    )
    first = forms.ChoiceField(label="Who starts", choices=FIRST_CHOICES, initial="draw")
    plural_s_rule = forms.BooleanField(
        label="Upwords: no simply adding an S", required=False, initial=True
    )
    upheld_challenge = forms.ChoiceField(
        label="When a challenge succeeds",
        choices=[("retry", "the player may try again"), ("lose_turn", "the player loses the turn")],
        initial="retry",
    )
    rejected_challenge = forms.ChoiceField(
        label="When a challenge fails",
        choices=[
            ("none", "no penalty"),
            ("lose_turn", "the challenger loses the next turn"),
            ("minus_5", "the challenger loses 5 points"),
        ],
        initial="none",
    )
    solo_exchanges = forms.IntegerField(
        label="Solo games: exchanges allowed", min_value=0, max_value=5, initial=0
    )
    turn_clock = forms.IntegerField(
        label="Turn clock (seconds, empty for none)",
        min_value=10,
        max_value=3600,
        required=False,
        help_text="Letter UP's rule is 75 seconds (1:15).",
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = lexicon_choices()
        self.fields["lexicon"].choices = choices
        ids = [c[0] for c in choices]
        self.fields["lexicon"].initial = next(
            (x for x in ("TWL06", "NWL2023", "CSW21", "CSW19") if x in ids), ids[0]
        )

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"player_{i}"].strip()
            for i in range(1, 5)
            if self.cleaned_data.get(f"player_{i}", "").strip()
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        names = [data.get(f"player_{i}", "").strip() for i in range(1, 5)]
        given = [n for n in names if n]
        if len({name_key(n) for n in given}) < len(given):
            raise forms.ValidationError("Two players can't have the same name.")
        first = data.get("first")
        if first not in (None, "draw") and int(first) >= len(given):
            self.add_error("first", "Choose one of the players you named.")
        return data

    def options(self) -> dict[str, Any]:
        data = self.cleaned_data
        return {
            "plural_s_rule": bool(data["plural_s_rule"]),
            "upheld_challenge": data["upheld_challenge"],
            "rejected_challenge": data["rejected_challenge"],
            "solo_exchanges": data["solo_exchanges"] or 0,
        }

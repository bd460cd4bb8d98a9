"""The forms of a club's settings: its usual rules (with the game clock's fields and a failed
challenge's rule, which the new-event form shares) and a roster player's new name."""

from __future__ import annotations

from typing import Any

from django import forms

from referee import RULESETS, RuleOptions
from scorekeeper.clubs.club_settings import ClubRules
from scorekeeper.models import NAME_MAX
from scorekeeper.web.clock_fields import RULES_WORDS, clock_fields, clock_initial, clock_of
from scorekeeper.web.forms import choice_label, lexicon_choices


def rejected_challenge_field(label: str = "When a challenge fails") -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label,
        required=False,
        choices=[("", "The game's own rule")]
        + [
            (str(value), choice_label("rejected_challenge", value, text))
            for value, text in RuleOptions.CHOICES["rejected_challenge"]
        ],
    )


class ClubRulesForm(forms.Form):
    """A club's usual rules: each may be left to the form's own default."""

    ruleset = forms.ChoiceField(
        label="Game", required=False,
        choices=[("", "No usual game")] + [(r.id, r.name) for r in RULESETS.values()],
    )  # fmt: skip
    lexicon = forms.ChoiceField(label="Dictionary", required=False)
    challenge_mode = forms.ChoiceField(
        label="Word checking",
        required=False,
        choices=[
            ("", "No usual rule"),
            ("auto", "Check each play as it is entered"),
            ("manual", "Tournament: plays stand until challenged"),
        ],
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        lexicon = self.fields["lexicon"]
        assert isinstance(lexicon, forms.ChoiceField)
        lexicon.choices = [("", "No usual dictionary"), *lexicon_choices()]
        self.fields["rejected_challenge"] = rejected_challenge_field()
        self.fields.update(clock_fields(RULES_WORDS))

    @classmethod
    def of(cls, rules: ClubRules) -> ClubRulesForm:
        return cls(initial={**rules.initial(), **clock_initial(rules.clock)})

    def rules(self, kept: ClubRules | None = None) -> ClubRules:
        """The rules chosen; a time bank keeps what the form doesn't show from ``kept``."""
        data = self.cleaned_data
        return ClubRules(
            ruleset=data["ruleset"],
            lexicon=data["lexicon"],
            challenge_mode=data["challenge_mode"],
            rejected_challenge=data["rejected_challenge"],
            clock=clock_of(data, kept.clock if kept else None),
        )


class RenamePlayerForm(forms.Form):
    player = forms.IntegerField(widget=forms.HiddenInput)
    name = forms.CharField(label="New name", max_length=NAME_MAX)

"""Forms of the table and history pages. They only read input; every change goes through the
domain. Limits and choices come from where they are defined (the engine's ``RuleOptions``,
``MAX_PLAYERS``, the model's name length, the clock's ranges in ``referee.clock``), never
restated here.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.db.models import QuerySet

from referee import (
    CLOCK_SETTINGS,
    GCG_MAX_SIZE,
    HONOUR_ID,
    MAX_PLAYERS,
    RULESETS,
    TURN_TIMER,
    LexiconFileError,
    RuleOptions,
    Ruleset,
    challenge_rule,
    challenge_rule_name,
    get_library,
)
from scorekeeper.games.domain import TABLE_MOST
from scorekeeper.games.word_policy import AUTO, MANUAL
from scorekeeper.models import NAME_MAX, Club, Game, name_key, name_problem
from scorekeeper.stats.rankings import SORT_LABELS, WORDS
from scorekeeper.web.clock_fields import DEFAULT_RULE, NEW_GAME_WORDS, clock_fields, clock_of

SEATS = range(1, MAX_PLAYERS + 1)


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


def option_field(name: str) -> forms.TypedChoiceField:
    """A form field for one rule option, from the engine's own table of choices. Each choice
    is sent as its value's text ("True", "3", "retry"); a field left out is None, and the game
    takes its ruleset's own default (``NewGameForm.options``)."""
    values = {str(value): value for value, _ in RuleOptions.CHOICES[name]}
    return forms.TypedChoiceField(
        label=RuleOptions.LABELS[name],
        choices=[
            (str(value), choice_label(name, value, text))
            for value, text in RuleOptions.CHOICES[name]
        ],
        coerce=values.__getitem__,
        required=False,
        empty_value=None,
        # Choices a phone shows whole, wrapped, and taken with one tap (a select cut them off).
        widget=forms.RadioSelect,
    )


NO_CLOCK = NEW_GAME_WORDS.none


def turn_clock_help(ruleset: Ruleset) -> str:
    """What the turn clock's field says of the ruleset's own rule, if its rules give a turn
    a time (Letter UP: 75 seconds)."""
    seconds = ruleset.turn_seconds
    if not seconds:
        return ""
    return f"{ruleset.name}'s rule is {seconds} seconds ({seconds // 60}:{seconds % 60:02d})."


def choice_label(name: str, value: object, text: str) -> str:
    """A choice as the form offers it: a failed challenge's cost also says the name clubs
    give that rule ("no penalty (single challenge)")."""
    if name == "rejected_challenge" and isinstance(value, str):
        rule = challenge_rule(False, value)
        if rule is not None:
            return f"{text} ({challenge_rule_name(rule)})"
    return text


def ruleset_named(ruleset_id: object) -> Ruleset | None:
    return RULESETS.get(ruleset_id) if isinstance(ruleset_id, str) else None


class NewGameForm(forms.Form):
    ruleset = forms.ChoiceField(
        choices=[(r.id, r.name) for r in RULESETS.values()],
        initial=next(iter(RULESETS)),
        widget=forms.RadioSelect,
    )
    # The ruleset whose options the form showed. A browser without JavaScript can't change
    # them when another ruleset is chosen: the page comes back with that ruleset's own options
    # rather than start a game with another game's rules (``switched_ruleset``).
    options_for = forms.ChoiceField(
        choices=[(r.id, r.name) for r in RULESETS.values()],
        required=False,
        widget=forms.HiddenInput,
    )
    lexicon = forms.ChoiceField(label="Dictionary")
    challenge_mode = forms.ChoiceField(
        label="Word checking",
        choices=[
            (AUTO, "Check each play as it is entered"),
            (MANUAL, "Tournament: plays stand until challenged"),
        ],
        initial=AUTO,
        widget=forms.RadioSelect,
    )
    # Which seat starts ("1" to "4"): by default the table draws real tiles and the scorer says
    # who starts; or "draw": the app draws virtual tiles. The game is told the starter's name,
    # and the scorer page can change it until the first turn.
    starter = forms.ChoiceField(
        label="Who starts",
        choices=[
            (
                "We drew tiles at the table: this player starts",
                [(str(n), f"Player {n}") for n in SEATS],
            ),
            ("draw", "Let the app draw tiles: nearest to A starts"),
        ],
        initial="1",
        widget=forms.Select(attrs={"aria-describedby": "starter-help"}),
        help_text="Whoever drew the tile nearest to A starts. You can change it on the scorer "
        "page until the first turn.",
    )

    def __init__(
        self,
        *args: Any,
        clubs: QuerySet[Club] | None = None,
        ruleset: Ruleset | None = None,
        **kwargs: Any,
    ) -> None:
        """``ruleset``: the one whose options an unbound form shows (by default the first); a
        bound form shows those of the ruleset it was showing, else of the one chosen."""
        super().__init__(*args, **kwargs)
        self.clubs = clubs
        data = self.data if self.is_bound else {}
        self.shown: Ruleset = (
            ruleset
            or ruleset_named(data.get("options_for"))
            or ruleset_named(data.get("ruleset"))
            or next(iter(RULESETS.values()))
        )
        self.fields["ruleset"].initial = self.fields["options_for"].initial = self.shown.id
        if clubs is not None and clubs.exists():
            # Only for a signed-in member of a club: anyone else starts casual games, as before.
            self.fields["club"] = forms.ModelChoiceField(
                label="For the club",
                queryset=clubs,
                to_field_name="slug",
                required=False,
                empty_label="No: a casual game",
                help_text="A club game counts in the club's standings; every player must be on "
                "its roster.",
                error_messages={"invalid_choice": "You are not a member of that club."},
            )
            self.fields["table_number"] = forms.IntegerField(
                label="Table number",
                min_value=1,
                max_value=TABLE_MOST,
                required=False,
                help_text="Optional: the director's screen lists the club's tables by it.",
            )
        for n in SEATS:
            self.fields[f"player_{n}"] = forms.CharField(
                label=f"Player {n}", max_length=NAME_MAX, required=n == 1
            )
        self.fields.update(clock_fields(NEW_GAME_WORDS))
        self.fields["turn_clock"].help_text = turn_clock_help(self.shown)
        if self.shown.turn_seconds:
            self.fields["turn_clock"].initial = self.shown.turn_seconds
        defaults = RuleOptions.defaults(self.shown)
        concerns = RuleOptions.applies_to(self.shown)
        for name in RuleOptions.CHOICES:
            field = self.fields[name] = option_field(name)
            field.initial = str(getattr(defaults, name))
            # An option of another ruleset is there for the page's script to offer, not sent.
            field.disabled = name not in concerns
        choices = lexicon_choices()
        lexicon = self.fields["lexicon"]
        assert isinstance(lexicon, forms.ChoiceField)
        lexicon.choices = choices
        ids = [c[0] for c in choices]
        self.fields["lexicon"].initial = (
            settings.DEFAULT_LEXICON if settings.DEFAULT_LEXICON in ids else ids[0]
        )

    def player_fields(self) -> list[forms.BoundField]:
        return [self[f"player_{n}"] for n in SEATS]

    def option_fields(self) -> list[forms.BoundField]:
        """The rule options the form offers: those of the ruleset it shows."""
        return [self[name] for name in RuleOptions.applies_to(self.shown)]

    def option_rows(self) -> list[tuple[forms.BoundField, bool, bool]]:
        """Every rule option's field; whether it is offered for the ruleset shown (the
        others are hidden until the page's script offers them for another ruleset); and
        whether its choices are sentences, one to a line (else short, side by side)."""
        offered = RuleOptions.applies_to(self.shown)
        return [
            (self[name], name in offered, any(len(text) > 12 for _, text in choices))
            for name, choices in RuleOptions.CHOICES.items()
        ]

    def other_rulesets(self) -> list[Ruleset]:
        return [r for r in RULESETS.values() if r != self.shown]

    def ruleset_options(self) -> dict[str, dict[str, Any]]:
        """For the page's script: each ruleset's name and its options' defaults, as the
        fields send them."""
        return {
            r.id: {
                "name": r.name,
                "clock_help": turn_clock_help(r),
                "turn_seconds": r.turn_seconds or CLOCK_SETTINGS["seconds"][0],
                "defaults": {
                    name: str(getattr(RuleOptions.defaults(r), name))
                    for name in RuleOptions.applies_to(r)
                },
            }
            for r in RULESETS.values()
        }

    def switched_ruleset(self) -> bool:
        """Another ruleset was chosen than the one whose options the form showed (a browser
        without JavaScript): its game must not start with the other ruleset's choices."""
        shown = ruleset_named(self.data.get("options_for"))
        chosen = ruleset_named(self.data.get("ruleset"))
        return self.is_bound and shown is not None and chosen is not None and shown != chosen

    def with_ruleset_defaults(self) -> NewGameForm:
        """This form again, unsent, as filled in but with the chosen ruleset's own options."""
        kept = {
            name: self.data[name]
            for name in self.fields
            if name in self.data and name not in RuleOptions.CHOICES and name != "options_for"
        }
        return NewGameForm(
            initial=kept, clubs=self.clubs, ruleset=ruleset_named(self.data.get("ruleset"))
        )

    def players(self) -> list[str]:
        return [
            self.cleaned_data[f"player_{n}"].strip()
            for n in SEATS
            if self.cleaned_data.get(f"player_{n}", "").strip()
        ]

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        names = [data.get(f"player_{n}", "").strip() for n in SEATS]
        given = [n for n in names if n]
        if len({name_key(n) for n in given}) < len(given):
            raise forms.ValidationError("Two players can't have the same name.")
        starter = data.get("starter")
        if starter not in (None, "draw") and int(starter) > len(given):
            self.add_error("starter", "Choose one of the players you named.")
        self.read_clock(data)
        club = data.get("club")
        if club is None and data.get("table_number") is not None:
            self.add_error("table_number", "A table number is for a club game: choose the club.")
        if club is not None:
            on_roster = set(club.roster.values_list("name_key", flat=True))
            for n, name in zip(SEATS, names, strict=True):
                if name and name_key(name) not in on_roster:
                    self.add_error(f"player_{n}", f"{name} is not on {club.name}'s roster.")
        return data

    def read_clock(self, data: dict[str, Any]) -> None:
        """The clock chosen, as ``data["clock_rule"]`` (the API's shape, or None). A form sent
        without a choice (an older page) times turns if it gives their seconds. The fields of
        the kinds not chosen are not read: their errors are dropped. A number left empty is
        its default: the rule's, the ruleset's own turn for a turn timer."""
        sent_seconds = str(self.data.get("turn_clock", "")).strip()
        kind = data.get("clock") or (TURN_TIMER if sent_seconds else NO_CLOCK)
        by_kind = NEW_GAME_WORDS.by_kind()
        for other, names in by_kind.items():
            if other != kind:
                for name in names:
                    self.errors.pop(name, None)
                    data.pop(name, None)
        if any(name in self.errors for name in by_kind.get(kind, ())):
            return
        data["clock_rule"] = clock_of(
            {**data, "clock": kind},
            DEFAULT_RULE.to_json(),
            seconds="turn_clock",
            turn_seconds=self.fields["turn_clock"].initial,
        )

    def clock_fields(self) -> dict[str, list[forms.BoundField]]:
        """The settings of each kind of clock, for the page to show under its choice."""
        return {
            kind: [self[name] for name in names] for kind, names in NEW_GAME_WORDS.by_kind().items()
        }

    def options(self) -> dict[str, Any]:
        """Every option that concerns the chosen ruleset, passed on explicitly: as chosen, or,
        where the request left one out, that ruleset's own default (never RULES.md's generic
        one: the crossword game's challenge rules differ)."""
        ruleset = RULESETS[self.cleaned_data["ruleset"]]
        defaults = RuleOptions.defaults(ruleset)
        chosen = {name: self.cleaned_data.get(name) for name in RuleOptions.applies_to(ruleset)}
        return {
            name: getattr(defaults, name) if value is None else value
            for name, value in chosen.items()
        }


class ClubForm(forms.Form):
    name = forms.CharField(label="The club's name", max_length=80)

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"]
        problem = name_problem(name)
        if problem:
            raise forms.ValidationError(problem)
        return " ".join(name.split())


# Filters of the history pages -------------------------------------------------------------
class GameFilter(forms.Form):
    player = forms.CharField(required=False, max_length=NAME_MAX, label="Player")
    ruleset = forms.ChoiceField(
        required=False,
        choices=[("", "Any ruleset"), *[(r.id, r.name) for r in RULESETS.values()]],
        error_messages={"invalid_choice": "There is no ruleset called %(value)s."},
    )
    status = forms.ChoiceField(
        required=False,
        choices=[("", "Any status"), *Game.Status.choices],
        error_messages={"invalid_choice": "There is no status called %(value)s."},
    )
    date_from = forms.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],  # what a date input sends; 03/04 is ambiguous
        label="Started from",
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Write the date as YYYY-MM-DD, such as 2025-03-01."},
    )
    date_to = forms.DateField(
        required=False,
        input_formats=["%Y-%m-%d"],
        label="Started until",
        widget=forms.DateInput(attrs={"type": "date"}),
        error_messages={"invalid": "Write the date as YYYY-MM-DD, such as 2025-03-31."},
    )

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", "This date is before the first one: no game fits.")
        return data


class RankingsFilter(forms.Form):
    ruleset = forms.ChoiceField(
        required=False,
        choices=[(r.id, r.name) for r in RULESETS.values()],
        error_messages={"invalid_choice": "There is no ruleset called %(value)s."},
    )
    sort = forms.ChoiceField(
        required=False,
        choices=[(key, label.capitalize()) for key, label in SORT_LABELS.items()],
        error_messages={"invalid_choice": "Rankings sort by best, average or wins, not %(value)s."},
    )
    words = forms.ChoiceField(
        label="Games",
        required=False,
        choices=[(key, label.capitalize()) for key, label in WORDS.items()],
        error_messages={"invalid_choice": "Games are words checked or honour system."},
    )


class ImportForm(forms.Form):
    """A game record to import: a GCG file, or its text pasted."""

    MAX_BYTES = GCG_MAX_SIZE  # the reader's limit, for a file and for pasted text alike
    TOO_LARGE = f"That is too large for one game's record: at most {MAX_BYTES:,} bytes."

    file = forms.FileField(label="GCG file", required=False)
    text = forms.CharField(
        label="…or paste the record",
        required=False,
        max_length=MAX_BYTES,
        error_messages={"max_length": TOO_LARGE},
        widget=forms.Textarea(attrs={"rows": 8}),
    )
    ruleset = forms.ChoiceField(
        label="Ruleset",
        required=False,
        choices=[("", "As the record says (else the classic crossword game)")]
        + [(r.id, r.name) for r in RULESETS.values() if r.gcg],
    )
    strict = forms.BooleanField(
        label="Refuse the record if any scored line differs from the rules", required=False
    )

    def clean(self) -> dict[str, Any]:
        data: dict[str, Any] = super().clean() or {}
        upload, text = data.get("file"), data.get("text", "")
        if upload is not None:
            if upload.size > self.MAX_BYTES:
                raise forms.ValidationError(self.TOO_LARGE)
            data["source"] = upload.read()
        elif text.strip():
            data["source"] = text
        else:
            raise forms.ValidationError("Choose a GCG file, or paste its text.")
        return data

"""The director's forms for a tournament: making one (its players several at once, one a
line), pairing a round, typing in a result, withdrawing a player."""

from __future__ import annotations

from django import forms

from referee import RULESETS
from referee.events import METHODS
from scorekeeper.events.entries import MAX_ENTRANTS, MAX_ROUNDS, Entry
from scorekeeper.events.files import T_FILE_MOST
from scorekeeper.web.clock_fields import RULES_WORDS, clock_fields
from scorekeeper.web.club_forms import rejected_challenge_field
from scorekeeper.web.forms import lexicon_choices

METHOD_NAMES = {
    "swiss": "Swiss",
    "koth": "King of the Hill",
    "round_robin": "Round robin",
    "fontes": "Initial Fontes",
    "manual": "By hand",
}
assert set(METHOD_NAMES) == set(METHODS)
# A rating or career games this long is far out of range (the event says so); longer, int()
# is not asked to read it.
NUMBER_DIGITS = 18
# A list of players or of tables is refused before a line of it is read when it is longer than
# the player cap allows (a blank line or a division's name beside each player, long names).
MOST_LINES = 2 * MAX_ENTRANTS + 10
MOST_CHARACTERS = 200 * MOST_LINES


def check_list_size(text: str, what: str) -> None:
    """Refuse ``text`` (one player or table a line) if it is longer than any event's."""
    if len(text) > MOST_CHARACTERS or text.count("\n") >= MOST_LINES:
        raise forms.ValidationError(
            f"That list of {what} is too long: an event has at most {MAX_ENTRANTS} "
            "players, one a line."
        )


def read_entries(text: str) -> list[Entry]:
    """One player a line: a name, then optionally a rating and career games
    ("Ann Archer 1712 230"); blank lines are skipped. A line ending in a colon ("A:") puts
    the players after it in that division.

    >>> [tuple(vars(e).values()) for e in read_entries("Ann Archer 1712 230\\nBen Baker\\n")]
    [('Ann Archer', 1712, 230, ''), ('Ben Baker', 0, 0, '')]
    >>> [(e.name, e.division) for e in read_entries("A:\\nAnn\\nB:\\nBen")]
    [('Ann', 'A'), ('Ben', 'B')]
    """
    check_list_size(text, "players")
    entries = []
    division = ""
    for line in text.splitlines():
        if line.strip().endswith(":"):
            division = " ".join(line.strip()[:-1].split())
            continue
        words = line.replace(",", " ").split()
        numbers: list[int] = []
        while words and words[-1].isascii() and words[-1].isdigit() and len(numbers) < 2:
            if len(words[-1]) > NUMBER_DIGITS:
                raise forms.ValidationError(
                    f"{words[-1][:12]}… is too large for a rating or career games."
                )
            numbers.insert(0, int(words.pop()))
        if not words:
            if numbers:
                raise forms.ValidationError(f"{line.strip()!r} has no name.")
            continue
        rating, career = (numbers + [0, 0])[:2]
        entries.append(Entry(" ".join(words), rating, career, division))
    return entries


class PlayersField(forms.CharField):
    widget = forms.Textarea(attrs={"rows": 8, "autocapitalize": "words", "spellcheck": "false"})

    def clean(self, value: str) -> list[Entry]:
        return read_entries(super().clean(value) or "")


class NewEventForm(forms.Form):
    name = forms.CharField(max_length=120, label="Name of the event")
    date = forms.DateField(
        label="Date", required=False, widget=forms.DateInput(attrs={"type": "date"}),
        help_text="Empty: today.",
    )  # fmt: skip
    ruleset = forms.ChoiceField(label="Game", choices=[(r.id, r.name) for r in RULESETS.values()])
    lexicon = forms.ChoiceField(label="Dictionary")
    challenge_mode = forms.ChoiceField(
        label="Words",
        choices=[("auto", "Checked as played"), ("manual", "Stand until challenged")],
    )
    rounds = forms.IntegerField(min_value=1, max_value=MAX_ROUNDS, initial=3)
    players = PlayersField(
        required=False,
        help_text="One a line: a name, then a rating and career games if known "
        "(Ann Archer 1712 230). For divisions, a line such as A: before each division's players.",
    )
    tfile = forms.FileField(
        required=False,
        label="Or start from a .t file",
        help_text="tsh's file: its players, ratings and results so far.",
    )
    bye_spread = forms.IntegerField(min_value=0, max_value=1000, initial=50, label="Bye spread")
    forfeit_spread = forms.IntegerField(
        min_value=0, max_value=1000, initial=50, label="Forfeit spread", required=False
    )
    gibson = forms.BooleanField(required=False, initial=True, label="Gibsonize a clinched leader")
    fontes_rounds = forms.IntegerField(
        min_value=1,
        max_value=MAX_ROUNDS,
        initial=3,
        required=False,
        label="Initial Fontes rounds",
        help_text="An odd number: how many rounds Initial Fontes pairs, if used.",
    )

    def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        choices = lexicon_choices()  # the honour system among them, once
        lexicon = self.fields["lexicon"]
        assert isinstance(lexicon, forms.ChoiceField)
        lexicon.choices = choices
        lexicon.initial = choices[0][0]
        self.fields["rejected_challenge"] = rejected_challenge_field()
        self.fields.update(clock_fields(RULES_WORDS))
        order = list(self.fields)
        rules_end = order.index("challenge_mode") + 1
        added = ["rejected_challenge", *RULES_WORDS.names()]
        rest = [name for name in order if name not in added]
        self.order_fields(rest[:rules_end] + added + rest[rules_end:])

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if not data.get("players") and not data.get("tfile"):
            self.add_error("players", "Enter at least one player, one a line, or give a .t file.")
        if data.get("players") and data.get("tfile"):
            self.add_error("tfile", "Give the players or a .t file, not both.")
        return data

    def t_text(self) -> str | None:
        """The .t file's text, if one was given; ``ValidationError`` if it is not text."""
        upload = self.cleaned_data.get("tfile")
        if upload is None:
            return None
        if upload.size > T_FILE_MOST:
            raise forms.ValidationError("A .t file here is at most 1 MB.")
        try:
            return str(upload.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise forms.ValidationError("A .t file is text (UTF-8).") from None


class PairForm(forms.Form):
    # The round the form pairs: a form sent twice is refused as the API refuses a twin (409).
    round = forms.IntegerField(min_value=1, widget=forms.HiddenInput)
    # The last round whose results the pairing counts (empty: the round before).
    based_on = forms.IntegerField(min_value=0, required=False, widget=forms.HiddenInput)
    # The director has been asked, and says yes, to pair while games are in play.
    confirm = forms.BooleanField(required=False, widget=forms.HiddenInput)
    method = forms.ChoiceField(choices=list(METHOD_NAMES.items()), label="Pair by")
    pairings = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label="By hand: one table a line",
        help_text="Ann Archer - Ben Baker; a name alone has the bye (one a division).",
    )

    def manual(self) -> tuple[list[tuple[str, str]], list[str]]:
        check_list_size(self.cleaned_data["pairings"], "tables")
        couples, byes = [], []
        for line in self.cleaned_data["pairings"].splitlines():
            if not line.strip():
                continue
            names = [part.strip() for part in line.replace(" v ", " - ").split(" - ")]
            if len(names) == 1:
                byes.append(names[0])
            elif len(names) == 2:
                couples.append((names[0], names[1]))
            else:
                raise forms.ValidationError(f"{line.strip()!r}: two names, with ' - ' between.")
        return couples, byes


class ResultForm(forms.Form):
    round = forms.IntegerField(min_value=1)
    player1 = forms.CharField(max_length=80, label="Player")
    score1 = forms.IntegerField(min_value=-1000, max_value=10000, label="Score")
    player2 = forms.CharField(max_length=80, label="Opponent")
    score2 = forms.IntegerField(min_value=-1000, max_value=10000, label="Score")

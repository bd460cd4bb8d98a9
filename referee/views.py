"""The word judge: one verdict for a set of words, the way club word judges give it."""

from __future__ import annotations

import re

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from referee.lexicon import LexiconFileError
from referee.library import get_library

MAX_WORDS = 20
MAX_LENGTH = 15
_WORD = re.compile(r"^[A-Za-z]+$")


class JudgeForm(forms.Form):
    lexicon = forms.ChoiceField(label="Dictionary")
    words = forms.CharField(
        label="Words",
        max_length=MAX_WORDS * (MAX_LENGTH + 1),
        widget=forms.Textarea(
            attrs={"rows": 3, "autocapitalize": "characters", "spellcheck": "false"}
        ),
        help_text=f"Up to {MAX_WORDS} words, separated by spaces, commas or new lines.",
        error_messages={"required": "Type at least one word."},
    )
    each = forms.BooleanField(label="Show the verdict for each word", required=False)

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        library = get_library()
        lexicon = self.fields["lexicon"]
        assert isinstance(lexicon, forms.ChoiceField)
        lexicon.choices = [(info.id, info.id) for info in library.infos()]

    def clean_words(self) -> list[str]:
        words = [w for w in re.split(r"[\s,;]+", self.cleaned_data["words"]) if w]
        if not words:
            raise forms.ValidationError("Type at least one word.")
        if len(words) > MAX_WORDS:
            raise forms.ValidationError(f"At most {MAX_WORDS} words at a time.")
        bad = [w for w in words if not _WORD.match(w)]
        if bad:
            raise forms.ValidationError(f"Only letters A to Z: {', '.join(bad[:3])}.")
        long = [w for w in words if len(w) > MAX_LENGTH]
        if long:
            raise forms.ValidationError(
                f"No word on these boards is longer than {MAX_LENGTH} letters."
            )
        return [w.upper() for w in words]


@require_GET
def judge(request: HttpRequest) -> HttpResponse:
    form = JudgeForm(request.GET or None)
    context: dict[str, object] = {"form": form}
    if request.GET and form.is_valid():
        try:
            lexicon = get_library().get(form.cleaned_data["lexicon"])
        except LexiconFileError as error:
            form.add_error("lexicon", str(error))
        else:
            words = form.cleaned_data["words"]
            results = [(word, lexicon.contains(word)) for word in words]
            context.update(
                {
                    "acceptable": all(ok for _, ok in results),
                    "results": results if form.cleaned_data["each"] else None,
                    "count": len(words),
                    "lexicon": lexicon,
                }
            )
    status = 400 if request.GET and not form.is_valid() else 200
    return render(request, "judge.html", context, status=status)

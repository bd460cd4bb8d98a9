"""The trail of an event's results corrected: each correction (``ResultCorrection``, kept by
``events.results``) read back with its players, and said in a sentence for its pages."""

from __future__ import annotations

from scorekeeper.models import Entrant, Pairing, ResultCorrection, Tournament


def corrections_of_pairing(pairing: Pairing) -> list[ResultCorrection]:
    return list(pairing.corrections.select_related("absent_before__player", "absent_after__player"))


def corrections_of(tournament: Tournament) -> list[ResultCorrection]:
    """Every correction of the event's results, oldest first, with their pairings' players."""
    return list(
        ResultCorrection.objects.filter(pairing__round__tournament=tournament)
        .select_related(
            "pairing__round",
            "pairing__first__player",
            "pairing__second__player",
            "absent_before__player",
            "absent_after__player",
        )
        .order_by("at", "pk")
    )


def correction_sentence(correction: ResultCorrection) -> str:
    """ "Round 2, Ann Archer v Ben Baker: 412–377 became 402–377 (by dora)."""
    pairing = correction.pairing
    assert pairing.second is not None

    def result(first: int | None, second: int | None, absent: Entrant | None) -> str:
        if absent is not None:
            return f"a forfeit ({absent.player.name} absent)"
        if first is None or second is None:
            return "no result"
        return f"{first}–{second}"

    was = result(
        correction.first_score_before, correction.second_score_before, correction.absent_before
    )
    now = result(
        correction.first_score_after, correction.second_score_after, correction.absent_after
    )
    who = f" (by {correction.by})" if correction.by else ""
    return (
        f"Round {pairing.round.number}, {pairing.first.player.name} v "
        f"{pairing.second.player.name}: {was} became {now}{who}."
    )

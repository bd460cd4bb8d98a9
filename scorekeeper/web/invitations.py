"""The invitations page: a signed-in account sees the clubs that invite it to be one of their
players, and accepts (then it is that player, a member of every club whose roster has them)
or declines; and the clubs that invite it to direct them. The rules and the writes are
``scorekeeper.clubs.membership``'s and ``club_settings``'s.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.clubs import club_settings, membership
from scorekeeper.http.refusals import REFUSALS, message_of
from scorekeeper.models import DirectorInvitation, Invitation


def waiting(user: AbstractBaseUser | AnonymousUser) -> int:
    """How many invitations wait for ``user`` (none for a visitor): the pages' reminder."""
    if not isinstance(user, AbstractBaseUser):
        return 0
    players = Invitation.objects.filter(username=user.get_username()).count()
    return players + DirectorInvitation.objects.filter(user=user.pk).count()


@login_required
@require_GET
def invitation_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    return _private(render(request, "clubs/invitations.html", _listed(user)))


def _listed(user: AbstractBaseUser) -> dict[str, object]:
    return {
        "invitations": membership.invitations_for(user),
        "to_direct": club_settings.director_invitations_for(user),
    }


@login_required
@require_POST
def answer(request: HttpRequest, number: int) -> HttpResponse:
    """Accept or decline one invitation. Someone else's invitation is 404, as one that is not
    there: nobody learns what others are invited to."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    invitation = (
        Invitation.objects.filter(pk=number, username=user.get_username())
        .select_related("club", "player")
        .first()
    )
    if invitation is None:
        raise Http404("There is no such invitation for you.")
    choice = request.POST.get("answer", "")
    if choice == "accept":
        try:
            player = membership.accept(invitation, user)
        except membership.NotAccepted as refusal:
            messages.error(request, f"Not accepted. {refusal.message}")
        else:
            clubs = ", ".join(c.name for c in player.clubs.order_by("name"))
            messages.success(request, f"You are {player.name} now, a member of {clubs}.")
    elif choice == "decline":
        membership.decline(invitation)
        messages.success(
            request,
            f"Declined: {invitation.club.name}'s invitation to be {invitation.player.name}.",
        )
    else:
        context = {**_listed(user), "problem": "Say accept or decline."}
        return _private(render(request, "clubs/invitations.html", context, status=400))
    return redirect("club_invitations")


@login_required
@require_POST
def answer_director(request: HttpRequest, number: int) -> HttpResponse:
    """Accept or decline an invitation to direct a club; someone else's is 404."""
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    invitation = (
        DirectorInvitation.objects.filter(pk=number, user=user.pk).select_related("club").first()
    )
    if invitation is None:
        raise Http404("There is no such invitation for you.")
    choice = request.POST.get("answer", "")
    if choice == "accept":
        try:
            club = club_settings.do_accept_director(invitation, user)
        except REFUSALS as refusal:
            messages.error(request, f"Not accepted. {message_of(refusal)}")
        else:
            messages.success(request, f"You direct {club.name} now.")
    elif choice == "decline":
        club_settings.do_decline_director(invitation)
        messages.success(request, f"Declined: {invitation.club.name}'s invitation to direct it.")
    else:
        context = {**_listed(user), "problem": "Say accept or decline."}
        return _private(render(request, "clubs/invitations.html", context, status=400))
    return redirect("club_invitations")


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, private=True, no_store=True)
    return response

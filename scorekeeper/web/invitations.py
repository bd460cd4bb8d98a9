"""The invitations page: a signed-in account sees the clubs that invite it to be one of their
players, and accepts (then it is that player, a member of every club whose roster has them)
or declines. The rules and the writes are ``scorekeeper.game.membership``'s.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_GET, require_POST

from scorekeeper.game import membership
from scorekeeper.models import Invitation


def waiting(user: AbstractBaseUser | AnonymousUser) -> int:
    """How many invitations wait for ``user`` (none for a visitor): the pages' reminder."""
    if not isinstance(user, AbstractBaseUser):
        return 0
    return Invitation.objects.filter(username=user.get_username()).count()


@login_required
@require_GET
def invitation_list(request: HttpRequest) -> HttpResponse:
    user = request.user
    assert isinstance(user, AbstractBaseUser)
    context = {"invitations": membership.invitations_for(user)}
    return _private(render(request, "clubs/invitations.html", context))


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
        context = {
            "invitations": membership.invitations_for(user),
            "problem": "Say accept or decline.",
        }
        return _private(render(request, "clubs/invitations.html", context, status=400))
    return redirect("club_invitations")


def _private(response: HttpResponse) -> HttpResponse:
    patch_cache_control(response, private=True, no_store=True)
    return response

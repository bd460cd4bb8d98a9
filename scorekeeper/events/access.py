"""An event fetched and checked in one call, as the pages and the API ask for it: ``access_event``
(anyone's: a 404 when there is no such event; an archived one still opens),
``access_event_as_director`` (and the asker directs its club, else ``NotDirector``), and
``check_directs`` for a club's new event. Who directs a club is ``directing.directs``, the
one check; nothing else of the events asks it.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.http import Http404

from scorekeeper.clubs.access import directs
from scorekeeper.models import Club, Tournament

User = AbstractBaseUser | AnonymousUser


class NotDirector(Exception):
    """The asker does not direct ``club``: a 403 on a page, ``not_director`` in the API."""

    def __init__(self, club: Club) -> None:
        super().__init__(f"Only a director of {club.name} can do that.")
        self.club = club


def access_event(event_id: int) -> Tournament:
    """The event numbered ``event_id``, with its club; a 404 if there is none."""
    found = Tournament.objects.select_related("club").filter(pk=event_id).first()
    if found is None:
        raise Http404("There is no such tournament.")
    return found


def check_directs(user: User, club: Club) -> None:
    """Nothing if ``user`` directs ``club``; else ``NotDirector``."""
    if not directs(user, club):
        raise NotDirector(club)


def access_event_as_director(user: User, event_id: int) -> Tournament:
    """The event (a 404 if there is none) when ``user`` directs its club; else ``NotDirector``."""
    event = access_event(event_id)
    check_directs(user, event.club)
    return event


def directs_event(user: User, event: Tournament) -> bool:
    """Whether ``user`` directs ``event``'s club: what its page shows them."""
    return directs(user, event.club)

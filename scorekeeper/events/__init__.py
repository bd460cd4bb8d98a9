"""A club's event as the record keeps it: the one path that makes an event and changes it, and
its reads. The rules (pairings, standings, ratings, Gibson, the ``.t`` file) are plain Python in
``referee.events``; this package keeps them in the models and answers from them.

- ``entries``: make an event with its players (``do_create_tournament``), enter players late;
- ``rounds``: pair the next round, each table a game made by ``domain.check_create_game``;
  take the latest back before its first turn; swap two players of it;
- ``results``: a result typed in, corrected with a trace, voided; a forfeit; a withdrawal;
- ``lifecycle``: the event tonight's on the club's screen, its date, archived, deleted;
- ``reads``: standings, scorecards, rounds, corrections, the entrant a name means;
- ``files``: tsh's ``.t`` file in and out, the standings as CSV;
- ``version``: the one number every change to an event's pages moves on (``do_bump_for_event``);
- ``access``: an event fetched and checked in one call (``access_event``,
  ``access_event_as_director``).

An event has one or more divisions (``Entrant.division``; ``""`` when it has one): each is
paired, ranked, gibsonized and exported on its own, as a separate event sharing the rounds and
the table numbers (a round's tables run on from one division to the next). Every change is
news on its club's channel (``live.news``), which the director's screen follows, and moves the
event's version on (``version.do_bump_for_event``), which its pages follow.

Writes are ``do_*`` (they change and announce), checks ``check_*`` (they refuse or pass),
``access_*`` fetch and check; reads have plain names. Callers import from the module that
holds a name. May import ``referee`` (and its ``referee.events``), ``scorekeeper.models``,
``scorekeeper.live``, ``scorekeeper.games`` and ``scorekeeper.clubs``; never
``api``, ``web``, ``records`` or ``stats``.
"""

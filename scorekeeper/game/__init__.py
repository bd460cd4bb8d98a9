"""The domain: a game's rules as the record keeps them. Nothing here sees a request.

``domain`` is the one path that changes a game (``fetch_game`` finds one;
``check_create_game`` checks a new one and ``do_create_game`` stores it; ``act`` changes one,
in one transaction under the game's lock; ``preview`` shows a play before it is entered).
``turn_kinds`` is the table of what a turn can be (play, pass, exchange, challenge, undo,
correction...): how each is entered, replayed, described and
written to GCG, and what it is (its flags); ``sentences`` says each kind (and a challenge's
verdict), ``correction`` replaces an earlier turn and scores the later ones again, ``entries``
holds what a kind's handler reads and writes. ``replay`` replays the log; ``state`` moves the
engine's state to and from the rows; ``results`` says who won; ``consistency`` checks a
stored game against its log. ``word_policy`` says how words are judged; ``analysis`` finds
what could have been played, within a budget; ``resubmit`` recognises a turn sent twice;
``counting`` says how players count turns (a leaf the table of turn kinds uses);
``refusals`` is the table from what the domain refuses to an answer (status, code,
sentence); ``links`` the scorer's addresses; ``membership`` who plays for a club;
``club_settings`` a club's usual rules, names and directors; ``directing`` the one check of
who directs a club. A club's event is ``scorekeeper.events``.

Each change is announced to the screens (``scorekeeper.live.news.announce``) once it commits.

May import: ``referee``, ``scorekeeper.models``, ``scorekeeper.invisible``,
``scorekeeper.live``, ``referee.events`` (the rules of an event) and each other.
Never imports ``api``, ``web``, ``records`` or ``stats``.
"""

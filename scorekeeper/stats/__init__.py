"""What the record adds up to: ``rankings`` (every player's average, best game and record, by
ruleset), ``standings`` (a club's standings: wins, spread) and ``chart`` (a game's running
totals drawn as SVG). Everything here reads; nothing changes a game.

May import: ``referee``, ``scorekeeper.models`` and ``scorekeeper.games``. Never imports
``api`` or ``web``.
"""

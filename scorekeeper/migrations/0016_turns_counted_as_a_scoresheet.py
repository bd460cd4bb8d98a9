"""Each game's ``turns_played`` counted again as a scoresheet counts turns
(``scorekeeper.games.counting``): a challenge is no turn of its own (a play an upheld one took
off and the retry that follows are one turn; a double challenge's lost turn is one), and a time
penalty is no turn. Only the games with a challenge or a penalty in their log change."""

from django.db import migrations
from django.db.models import Exists, OuterRef

# The counting rule as it stood when this was written (the migration keeps its own copy).
MOVES = ("play", "pass", "exchange", "correct")
DEFAULTS = {  # the rulesets' default challenge options, where not "retry" and "none"
    "crossword-classic": {"upheld_challenge": "lose_turn", "rejected_challenge": "lose_turn"},
}


def adds(action, result, options):
    if action in MOVES:
        return 1
    if action != "challenge":
        return 0
    if result == "upheld":
        return -1 if options.get("upheld_challenge", "retry") == "retry" else 0
    if result == "rejected":
        return 1 if options.get("rejected_challenge", "none") == "lose_turn" else 0
    return 0


def count_again(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    Turn = apps.get_model("scorekeeper", "Turn")
    asked = Turn.objects.filter(game=OuterRef("pk"), action__in=("challenge", "penalty"))
    for game in Game.objects.filter(Exists(asked)).iterator():
        options = {**DEFAULTS.get(game.ruleset, {}), **(game.options or {})}
        entries = Turn.objects.filter(game=game, undone_at=None, corrected_at=None)
        played = sum(adds(a, r, options) for a, r in entries.values_list("action", "result"))
        Game.objects.filter(pk=game.pk).update(turns_played=max(played, 0))


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0015_game_table_number")]

    operations = [migrations.RunPython(count_again, migrations.RunPython.noop, elidable=True)]

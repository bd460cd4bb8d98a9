"""Each game keeps the number of turns players count (``Game.turns_played``), as the domain
keeps the rest of its state, instead of counting its log on every turn and every list."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce

# What scorekeeper.games.replay.COUNTED says of a turn, as it stood when this was written: in
# effect (neither undone nor corrected), and neither an undo nor an entry that only ends a game.
UNCOUNTED = ("undo", "finish", "abandon", "void")


def count_turns(apps, schema_editor):
    Game = apps.get_model("scorekeeper", "Game")
    Turn = apps.get_model("scorekeeper", "Turn")
    counted = (
        Turn.objects.filter(game=OuterRef("pk"), undone_at=None, corrected_at=None)
        .exclude(action__in=UNCOUNTED)
        .order_by()
        .values("game")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Game.objects.update(turns_played=Coalesce(Subquery(counted), 0))


class Migration(migrations.Migration):
    dependencies = [("scorekeeper", "0008_shared_limits")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="turns_played",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(count_turns, migrations.RunPython.noop, elidable=True),
    ]

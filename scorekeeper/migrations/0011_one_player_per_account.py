from django.db import migrations, models


def unlink_second_players(apps, schema_editor):
    """An account linked to two players (two invitations accepted at the same moment) keeps the
    first it was linked to, the player made first; the others are linked to no account."""
    Player = apps.get_model("scorekeeper", "Player")
    kept: set[int] = set()
    for pk, user_id in (
        Player.objects.filter(user__isnull=False).order_by("pk").values_list("pk", "user_id")
    ):
        if user_id in kept:
            Player.objects.filter(pk=pk).update(user=None)
        kept.add(user_id)


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0010_game_updated_at_index"),
    ]

    operations = [
        migrations.RunPython(unlink_second_players, migrations.RunPython.noop, elidable=True),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                condition=models.Q(("user__isnull", False)),
                fields=("user",),
                name="one_player_per_account",
                violation_error_message="This account is another player already.",
            ),
        ),
    ]

import django.db.models.deletion
from django.db import migrations, models


def place_turns(apps, schema_editor):
    """Each entry's place in the order of play, as ``replay.play_order`` finds it: its own
    number, or for a correction the place of the turn it replaced. Checkpoints are left to
    ``manage.py check_games --rebuild-checkpoints``: until then a game replays as before."""
    Turn = apps.get_model("scorekeeper", "Turn")
    games = Turn.objects.values_list("game_id", flat=True).distinct()
    for game_id in games.iterator():
        turns = list(
            Turn.objects.filter(game_id=game_id).only("pk", "number", "action", "target_id")
        )
        turns.sort(key=lambda turn: turn.number)
        place = {}
        for turn in turns:
            root = place.get(turn.target_id) if turn.action == "correct" else None
            turn.place = place[turn.pk] = root if root is not None else turn.number
        Turn.objects.bulk_update(turns, ["place"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0011_one_player_per_account'),
    ]

    operations = [
        migrations.CreateModel(
            name='Checkpoint',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('place', models.PositiveIntegerField()),
                ('step', models.PositiveIntegerField()),
                ('state', models.JSONField()),
            ],
            options={
                'ordering': ['game', 'place'],
            },
        ),
        migrations.AddField(
            model_name='turn',
            name='place',
            field=models.PositiveIntegerField(default=0),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name='game',
            name='checkpoint_place',
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.AddIndex(
            model_name='turn',
            index=models.Index(fields=['game', 'place'], name='turn_place'),
        ),
        migrations.AddField(
            model_name='checkpoint',
            name='game',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='checkpoints', to='scorekeeper.game'),
        ),
        migrations.AddConstraint(
            model_name='checkpoint',
            constraint=models.UniqueConstraint(fields=('game', 'place'), name='unique_checkpoint_place'),
        ),
        # Last: on PostgreSQL no table may change its schema after its rows changed in the
        # same transaction ("pending trigger events").
        migrations.RunPython(place_turns, migrations.RunPython.noop),
    ]

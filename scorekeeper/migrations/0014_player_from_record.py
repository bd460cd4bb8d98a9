# A name from an imported record that no one linked to a player is a player of its own: one
# player to a name holds for the others only.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0013_retries'),
    ]

    operations = [
        migrations.AddField(
            model_name='player',
            name='from_record',
            field=models.BooleanField(default=False),
        ),
        migrations.AlterField(
            model_name='player',
            name='name_key',
            field=models.CharField(editable=False, max_length=160),
        ),
        migrations.AddIndex(
            model_name='player',
            index=models.Index(fields=['name_key'], name='player_name_key'),
        ),
        migrations.AddConstraint(
            model_name='player',
            constraint=models.UniqueConstraint(condition=models.Q(('from_record', False)), fields=('name_key',), name='one_player_per_name'),
        ),
    ]

"""The game's latest log entry number is named for what it is in the code (``last_entry_number``);
its column keeps its name (``turn_number``, as the API and the JSON record call it), so the
database is not touched: the change is to Django's record of the model only."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorekeeper", "0019_club_defaults_and_event_clock"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.RenameField(
                    model_name="game", old_name="turn_number", new_name="last_entry_number"
                ),
                migrations.AlterField(
                    model_name="game",
                    name="last_entry_number",
                    field=models.PositiveIntegerField(
                        db_column="turn_number", default=0, verbose_name="turn number"
                    ),
                ),
            ],
            database_operations=[],
        ),
    ]

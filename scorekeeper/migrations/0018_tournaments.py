# A club's tournaments (one division each: its entrants, rounds and pairings) and the
# accounts' personal API tokens.

import django.db.models.deletion
import django.utils.timezone
import scorekeeper.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorekeeper', '0017_game_clock'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='AccountToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('digest', models.CharField(max_length=64, unique=True)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='api_token', to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.CreateModel(
            name='Tournament',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120)),
                ('date', models.DateField(default=django.utils.timezone.localdate)),
                ('ruleset', models.CharField(max_length=32, validators=[scorekeeper.models.known_ruleset])),
                ('lexicon', models.CharField(max_length=64)),
                ('challenge_mode', models.CharField(choices=[('auto', 'Checked as played'), ('manual', 'Tournament (stands until challenged)')], max_length=8)),
                ('rounds', models.PositiveSmallIntegerField()),
                ('bye_spread', models.PositiveSmallIntegerField(default=50)),
                ('forfeit_spread', models.PositiveSmallIntegerField(default=50)),
                ('gibson', models.BooleanField(default=True)),
                ('gibson_spread', models.PositiveSmallIntegerField(default=500)),
                ('prize_places', models.PositiveSmallIntegerField(default=1)),
                ('repeats_allowed', models.PositiveSmallIntegerField(default=1)),
                ('seed', models.PositiveIntegerField(default=0)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('club', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='tournaments', to='scorekeeper.club')),
            ],
            options={
                'ordering': ['-date', '-created_at'],
            },
        ),
        migrations.CreateModel(
            name='Entrant',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('rating', models.PositiveSmallIntegerField(default=0)),
                ('career_games', models.PositiveIntegerField(default=0)),
                ('active', models.BooleanField(default=True)),
                ('joined_round', models.PositiveSmallIntegerField(default=1)),
                ('player', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='scorekeeper.player')),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='entrants', to='scorekeeper.tournament')),
            ],
            options={
                'ordering': ['tournament', 'number'],
            },
        ),
        migrations.CreateModel(
            name='TournamentRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveSmallIntegerField()),
                ('method', models.CharField(max_length=16)),
                ('based_on', models.PositiveSmallIntegerField()),
                ('gibsonized', models.JSONField(blank=True, default=list)),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='round_set', to='scorekeeper.tournament')),
            ],
            options={
                'ordering': ['tournament', 'number'],
            },
        ),
        migrations.CreateModel(
            name='Pairing',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('table', models.PositiveSmallIntegerField(blank=True, null=True)),
                ('first_score', models.IntegerField(blank=True, null=True)),
                ('second_score', models.IntegerField(blank=True, null=True)),
                ('absent', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorekeeper.entrant')),
                ('first', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorekeeper.entrant')),
                ('game', models.OneToOneField(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='pairing', to='scorekeeper.game')),
                ('second', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorekeeper.entrant')),
                ('round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='pairings', to='scorekeeper.tournamentround')),
            ],
            options={
                'ordering': ['round', 'table'],
            },
        ),
        migrations.AddConstraint(
            model_name='entrant',
            constraint=models.UniqueConstraint(fields=('tournament', 'player'), name='one_entry_per_player'),
        ),
        migrations.AddConstraint(
            model_name='entrant',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='unique_entry_number'),
        ),
        migrations.AddConstraint(
            model_name='tournamentround',
            constraint=models.UniqueConstraint(fields=('tournament', 'number'), name='unique_round_number'),
        ),
    ]

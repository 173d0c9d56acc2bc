import django.db.models.deletion
from django.db import migrations, models

import republic.games.models.battle


def give_each_game_its_code(apps, schema_editor):
    # a column default is one value for every row: each game already here needs a code of its own
    Game = apps.get_model("games", "Game")
    for game in Game.objects.all():
        game.join_code = republic.games.models.battle.new_join_code()
        game.save(update_fields=["join_code"])


class Migration(migrations.Migration):
    dependencies = [("games", "0003_events_found_by_kind")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="side",
            field=models.ForeignKey(
                blank=True,
                help_text="the side that acted",
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="games.side",
            ),
        ),
        migrations.AddField(model_name="game", name="join_code", field=models.CharField(max_length=24, null=True)),
        migrations.RunPython(give_each_game_its_code, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="game",
            name="join_code",
            field=models.CharField(default=republic.games.models.battle.new_join_code, max_length=24, unique=True),
        ),
        migrations.CreateModel(
            name="Seat",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=80)),
                ("created", models.DateTimeField(auto_now_add=True)),
                ("revoked", models.BooleanField(default=False, help_text="the game master took the seat away")),
                (
                    "command",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="seats",
                        to="games.command",
                    ),
                ),
                (
                    "game",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="games.game"
                    ),
                ),
                (
                    "side",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="seats", to="games.side"
                    ),
                ),
            ],
            options={"ordering": ["side__order", "created"]},
        ),
    ]

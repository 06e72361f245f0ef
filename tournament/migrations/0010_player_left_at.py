"""When a player left: the report says in which round (players who left before it
was recorded keep None)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0009_game_cut_by"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="left_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]

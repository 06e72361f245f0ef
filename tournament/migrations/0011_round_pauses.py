"""A round's pauses, so a dispute's length and the report's times into a round leave
them out (rounds paused before this was recorded keep an empty list)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0010_player_left_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="pauses",
            field=models.JSONField(blank=True, default=list),
        ),
    ]

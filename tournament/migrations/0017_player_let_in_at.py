from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0016_player_absences"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="let_in_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]

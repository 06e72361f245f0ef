from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("tournament", "0004_player_name_key")]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(
                fields=("workshop", "name_key"), name="unique_player_name_key"
            ),
        ),
    ]

from django.db import migrations, models


def fill(apps, schema_editor):
    from tournament.names import name_key

    Player = apps.get_model("tournament", "Player")
    for player in Player.objects.only("pk", "name").iterator():
        Player.objects.filter(pk=player.pk).update(name_key=name_key(player.name))


class Migration(migrations.Migration):
    dependencies = [("tournament", "0003_game_kind_scores")]

    operations = [
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.CharField(default="", editable=False, max_length=120),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]

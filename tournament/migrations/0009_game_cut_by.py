"""What cut a game short: the round's end, or (leave policy "skip") a player leaving.

Games cut before this was recorded: the round's end cuts the last game at a table
in that round; a game followed by another at the same table in the same round was
cut when a player left (the table was dealt again without them).
"""

from django.db import migrations, models


def infer_cut_by(apps, schema_editor):
    Game = apps.get_model("tournament", "Game")
    last = {}
    for table_id, round_id, number in Game.objects.values_list("table_id", "round_id", "number"):
        key = (table_id, round_id)
        last[key] = max(last.get(key, number), number)
    for game in Game.objects.filter(state="cut").only("pk", "table_id", "round_id", "number"):
        followed = game.number < last[(game.table_id, game.round_id)]
        game.cut_by = "player_left" if followed else "round_end"
        game.save(update_fields=["cut_by"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0008_leave_policy_words"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="cut_by",
            field=models.CharField(
                blank=True,
                choices=[
                    ("round_end", "The end of the round"),
                    ("player_left", "A player left the table"),
                ],
                max_length=12,
            ),
        ),
        migrations.AlterField(
            model_name="game",
            name="state",
            field=models.CharField(
                choices=[("playing", "Playing"), ("over", "Over"), ("cut", "Cut short")],
                default="playing",
                max_length=10,
            ),
        ),
        migrations.RunPython(infer_cut_by, migrations.RunPython.noop),
    ]

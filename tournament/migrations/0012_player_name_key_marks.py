"""Names' comparison keys leave out the marks drawn as nothing (variation selectors,
the combining grapheme joiner…), so "Alice" and "Alice" + U+FE0F are one name and a
player who typed the mark can still come back by typing their name without it.

A key is recomputed only where no other player of the workshop has it already (two
players joined as such twins keep their keys, and their names as they are)."""

from django.db import migrations


def rekey(apps, schema_editor):
    from tournament.names import name_key

    Player = apps.get_model("tournament", "Player")
    rows = Player.objects.order_by("workshop_id", "join_order", "pk").values_list(
        "pk", "workshop_id", "name", "name_key"
    )
    taken: dict[int, set[str]] = {}
    changed: list[tuple[int, int, str]] = []
    for pk, workshop_id, name, key in rows.iterator():
        taken.setdefault(workshop_id, set()).add(key)
        if name_key(name) != key:
            changed.append((pk, workshop_id, name_key(name)))
    for pk, workshop_id, key in changed:
        if key not in taken[workshop_id]:
            Player.objects.filter(pk=pk).update(name_key=key)
            taken[workshop_id].add(key)


class Migration(migrations.Migration):
    dependencies = [("tournament", "0011_round_pauses")]

    operations = [migrations.RunPython(rekey, migrations.RunPython.noop)]

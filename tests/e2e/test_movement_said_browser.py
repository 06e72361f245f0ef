"""A workshop's phases on three phones of one table, as heard and seen: from the lobby
through study, silent play and round 1 to the movement (Mia moves up, Ana stays, Zed
moves down), round 2 at the new tables and the debrief.

At the movement the phone said "Go to table 3." in the notice's body text, under a
bigger "Round over", and never who sits at that table: a student across the room had
to come close to read where to go, and then to ask who to sit with. The move is now
the notice's biggest line, in view without scrolling, with who is at the table. The movement applied is heard for what it adds only: the
notice, said as one block, was heard whole again ("Round over. You won 1 game this
round." a second time), and the heading of one sent elsewhere names the table they
are at until they walk ("Between rounds, table 3." was said before "Go to table 3.").
Study and silent play each say as they start what they change for the student: the
phase's name alone was said, and the rules went away at silent play unsaid. The
round's end is heard from "Round over" (it came after the heading, the last game and
the silence), the silence not again as round 2 starts, and the debrief shows no table
and no last game."""

from __future__ import annotations

import pytest
from phones import heard, join, one_trick, seat_as, wait_version, watch_heard

from tournament import services
from tournament.models import Player, Round, Table

pytestmark = [pytest.mark.browser]

PHONES = ["Ana", "Mia", "Zed"]
WAIT = 8000


def settle(pages, workshop):
    """Until every phone shows its table's latest version and the workshop's."""
    for name, page in pages.items():
        table = Player.objects.get(name=name, workshop=workshop).table
        wait_version(page, Table.objects.get(pk=table.pk).version, timeout=WAIT)
        w = workshop.__class__.objects.get(pk=workshop.pk).version
        page.wait_for_function(
            "v => Number(document.getElementById('screen').dataset.wversion) >= v",
            arg=w,
            timeout=WAIT,
        )


def said_start(page, words):
    """Until `page` has said a line beginning with `words` (then what follows: whose
    turn); the phase's lines are said once, in one line."""
    page.wait_for_function(
        "w => window.__heard.some((l) => l.startsWith(w + ' '))", arg=words, timeout=WAIT
    )


def test_the_move_is_big_said_once_with_who_is_there_before_the_new_tables_lines(
    live_server_url, phone
):
    w = services.workshop_create(name="Moves", table_count=3, seats_per_table=3, seed=4)
    pages = {}
    for name in ["Ana", "Ben", "Cat", "Dan", "Eve", "Fox", "Gil", "Mia", "Zed"]:
        if name in PHONES:
            pages[name] = phone()
            join(pages[name], live_server_url, w.code, name)
            watch_heard(pages[name])
        else:
            services.player_join(code=w.code, name=name)
    seat_as(w)
    # Each phase's start says what it changes for the student (RULES.md §2), once:
    # only the phase's name was said, and the rules went away at silent play unsaid.
    study = "Study the rules, table 2. Your rules are below. You may talk; these games don't count."
    home = (
        "Silent play at home tables, table 2. Silence — gestures and drawings only."
        " Your rules are put away: play from memory. These games still don't count."
    )
    services.workshop_start_study(workshop_id=w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=study] .sheet", timeout=WAIT)
        said_start(page, study)
    services.workshop_start_home(workshop_id=w.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=home] .silence", timeout=WAIT)
        # RULES.md: the rules are hidden once the study ends.
        assert page.locator(".sheet").count() == 0
        said_start(page, home)
    services.round_start(workshop_id=w.pk)
    one_trick(w)
    settle(pages, w)
    for page in pages.values():
        assert page.locator(".sheet").count() == 0
    round1 = Round.objects.get(workshop=w, scored_number=1)
    begun = {n: len(heard(p)) for n, p in pages.items()}
    services.round_end_now(round_id=round1.pk)
    for page in pages.values():
        page.wait_for_selector("#screen[data-phase=between]", timeout=WAIT)
        page.wait_for_function(
            "() => window.__heard.some((l) => l.includes('Round over'))", timeout=WAIT
        )
    ended = {n: len(heard(p)) for n, p in pages.items()}
    # The round's end is heard news first: that it is over, how they did, where they go;
    # then how the game it cut ended, and the silence, still, last. "Round over" came
    # after the phase's heading, the last game's line and the silence.
    for name, page in pages.items():
        said = " ".join(heard(page)[begun[name] :])
        won = "1 game" if name == "Mia" else "0 games"
        assert said.startswith(
            f"Round over. You won {won} this round. Wait for the facilitator: if there is"
            " another round, you may move to another table. Last game (game 1), cut short:"
        ), said
        assert said.endswith(" Silence — no talking, still."), said
        assert "Between rounds" not in said, said
    services.movement_apply(round_id=round1.pk)
    settle(pages, w)
    at = {n: Player.objects.get(name=n).table.number for n in PHONES}
    assert at == {"Ana": 2, "Mia": 3, "Zed": 1}
    # What the movement says is only what it adds: "Round over. You won 1 game this
    # round." was said again with it, the notice being said as one block.
    for name, page in pages.items():
        page.wait_for_function("n => window.__heard.length > n", arg=ended[name], timeout=WAIT)
    applied = {n: " ".join(heard(p)[ended[n] :]) for n, p in pages.items()}
    for name, said in applied.items():
        assert "Round over" not in said and "You won" not in said, (name, said)

    def others_at(name):
        me = Player.objects.get(name=name)
        return [p.name for p in Player.objects.filter(table=me.table).order_by("seat") if p != me]

    def and_list(names):
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    for name, table in (("Mia", 3), ("Zed", 1)):
        page = pages[name]
        go = page.locator("#screen .go-to")
        assert go.count() == 1, page.inner_text("#screen")
        assert go.inner_text().strip().replace("\xa0", " ") == f"Go to table {table}."
        # Readable at arm's length: the notice's biggest line, in view unscrolled.
        size = go.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
        heading = page.locator("#screen .notice h2").evaluate(
            "el => parseFloat(getComputedStyle(el).fontSize)"
        )
        assert size >= 32 and size > heading, (size, heading)
        box = go.bounding_box()
        assert page.evaluate("() => window.scrollY") == 0
        assert 0 <= box["y"] and box["y"] + box["height"] <= 844, box
        # One line on smaller phones too: "3." alone on a second line read as a table.
        for size in ({"width": 360, "height": 640}, {"width": 320, "height": 568}):
            page.set_viewport_size(size)
            high, font = go.evaluate(
                "el => [el.getBoundingClientRect().height,"
                " parseFloat(getComputedStyle(el).fontSize)]"
            )
            assert high < 1.5 * font and font >= 24, (size, high, font)
            bar = page.locator("#screen .going").evaluate(
                "el => [el.getBoundingClientRect().right <= innerWidth,"
                " el.getBoundingClientRect().height < 1.5 * parseFloat(getComputedStyle(el).fontSize)]"
            )
            assert bar == [True, True], (size, bar)
        page.set_viewport_size({"width": 390, "height": 844})
        # The number kept with its word ("1)." wrapped alone at 360 px): a non-breaking space.
        there = f"At table {table}: {and_list(others_at(name))}."
        assert there.replace(" table ", " table\xa0") in page.inner_text("#screen")
        said = " ".join(heard(page))
        assert said.count(f"Go to table {table}.") == 1, said
        assert said.index(f"Go to table {table}.") < said.index(there), said
        # Still at table 2 until they walk: the heading says so and is not said again
        # (it said "Between rounds, table 3." before "Go to table 3."), the bar shows both.
        assert (
            applied[name]
            == f"Go to table {table}. {there}".replace(
                there, f"You move {'up' if table > 2 else 'down'} from table 2. {there}"
            )
            + " Wait there for the facilitator."
        ), applied[name]
        assert page.inner_text("#screen h1") == "Between rounds, table 2"
        seen = page.locator("#screen .going").evaluate(
            "el => { const c = el.cloneNode(true);"
            " c.querySelectorAll('.visually-hidden').forEach((x) => x.remove());"
            " return c.textContent.replace(/\\s+/g, ' ').trim(); }"
        )
        assert seen == f"Table 2 → Table {table}", seen
        assert page.locator("#screen .where").inner_text() == f"Table {table}"
    stay = f"You stay at table 2. With you: {and_list(others_at('Ana'))}."
    assert stay in pages["Ana"].inner_text("#screen")
    assert applied["Ana"] == stay, applied["Ana"]
    assert pages["Ana"].locator("#screen .go-to").count() == 0

    # Round 2: the move is said once in all, before the new table's first lines, and
    # nothing of the last table is said there.
    before = {n: len(heard(p)) for n, p in pages.items()}
    services.round_start(workshop_id=w.pk)
    settle(pages, w)
    for name, page in pages.items():
        page.wait_for_function("n => window.__heard.length > n", arg=before[name], timeout=WAIT)
    for name, table, way in (("Mia", 3, "up"), ("Zed", 1, "down")):
        lines = heard(pages[name])
        said = " ".join(lines)
        assert said.count(f"Go to table {table}.") == 1, said
        new = " ".join(lines[before[name] :])
        arrived = f"You moved {way} to table {table} (from table 2)."
        assert new.startswith(f"Scored round, table {table}."), new
        assert arrived in new, new
        first_move = min(new.index(x) for x in ("Your turn", "leads.", "is playing") if x in new)
        assert new.index(arrived) < first_move, new
        assert not any(n in new for n in PHONES if n != name), new
    # The silence is said as silent play starts and as the round ends ("still"), not
    # again as round 2 starts ("gestures and drawings only" came after "still").
    for name, page in pages.items():
        new = " ".join(heard(page)[before[name] :])
        assert "Silence" not in new, (name, new)
        said = " ".join(heard(page))
        assert said.count("Silence — gestures and drawings only.") == 1, (name, said)
    for page in pages.values():
        assert page.locator(".sheet").count() == 0
        said = " ".join(heard(page))
        times = {x: said.count(x) for x in ("You may talk", "put away", "don't count")}
        assert times == {"You may talk": 1, "put away": 1, "don't count": 2}, said

    # The facilitator ends the tournament in round 2, a trick played at each table.
    one_trick(w)
    settle(pages, w)
    before = {n: len(heard(p)) for n, p in pages.items()}
    services.workshop_start_debrief(workshop_id=w.pk)
    over = (
        "The tournament is over. Thank you for playing."
        " Listen to the facilitator: the debrief starts now."
    )
    for name, page in pages.items():
        page.wait_for_selector("#screen[data-phase=debrief]", timeout=WAIT)
        page.wait_for_function("n => window.__heard.length > n", arg=before[name], timeout=WAIT)
        page.wait_for_timeout(300)  # nothing more said
        # At the debrief nobody sits at a table nor plays a game: the bar showed
        # "Table 2", and the game the debrief cut was said before "The tournament is
        # over" and shown under it.
        assert " ".join(heard(page)[before[name] :]) == over, (name, heard(page))
        assert page.inner_text("#screen .status") == "Debrief", page.inner_text("#screen")
        assert page.locator("#screen .last-game, #screen .watched-end").count() == 0

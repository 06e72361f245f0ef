"""consumers.table_turn: a process sends one action per table at a time to the
database threads; other tables' actions do not wait for it."""

from __future__ import annotations

import asyncio

from tournament import consumers


async def test_actions_at_one_table_take_turns_and_other_tables_do_not_wait():
    log = []
    first_in = asyncio.Event()
    release = asyncio.Event()

    async def act(table_id, name, hold=None):
        async with consumers.table_turn(table_id):
            log.append(f"{name} in")
            if hold is not None:
                first_in.set()
                await hold.wait()
            log.append(f"{name} out")

    a = asyncio.create_task(act(1, "a", hold=release))
    await first_in.wait()
    b = asyncio.create_task(act(1, "b"))  # same table: waits for a
    c = asyncio.create_task(act(2, "c"))  # another table: does not
    d = asyncio.create_task(act(None, "d"))  # no table yet: does not
    await asyncio.gather(c, d)
    assert log == ["a in", "c in", "c out", "d in", "d out"]
    assert not b.done()
    release.set()
    await asyncio.gather(a, b)
    assert log[-3:] == ["a out", "b in", "b out"]
    assert consumers._turns == {}  # nothing kept once no one holds or waits


async def test_a_failed_action_gives_up_its_turn():
    async def fails():
        async with consumers.table_turn(7):
            raise RuntimeError("refused")

    for _ in range(2):
        try:
            await fails()
        except RuntimeError:
            pass
    async with consumers.table_turn(7):
        assert consumers._turns[7][1] == 1
    assert consumers._turns == {}

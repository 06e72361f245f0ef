"""What each player's screen reader hears as a 7Up7Down deal is bid: each bid once,
as it is made ("Ana bid 2.", the phone's own "You bid 2."), the dealer's last one
too. The players' phones said the whole list again at every bid ("Bids: Cai 2, Ana
0; 2 bid for 7 tricks.") and the dealer's bid only inside it, at the first lead,
while a student watching the table heard "Bea bid 2." as it was made. At the first
lead the list that follows it is the others' bids: the dealer's there too was heard
twice in that one line ("Bea bid 2. Ana leads. Bids: Cai 2, Ana 0, Bea 2; …")."""

from __future__ import annotations

import random
import re

import pytest
from phones import dealt_table, heard, table_version, wait_version, watch_heard

from games import seven_up as su
from tournament import gamestate, services

pytestmark = [pytest.mark.browser]


def test_each_bid_is_said_once_as_it_is_made_the_dealers_too(live_server_url, phone):
    w = services.workshop_create(
        name="7Up bids said", game="seven_up", table_count=1, seats_per_table=3, seed=3
    )
    pages, game, names = dealt_table(live_server_url, phone, w, ["Ana", "Bea", "Cai"])
    for page in pages.values():
        wait_version(page, table_version(game), timeout=8000)
        watch_heard(page)
    rng = random.Random(5)
    order = []  # the seats in the order they bid
    while (state := gamestate.load_state(game)).phase == "bid":
        order.append(state.to_act)
        action = su.choose_action(state, state.to_act, rng)
        target = table_version(game) + 1
        services.game_act(
            player_id=game.players[state.to_act], move={"type": "bid", "bid": action["bid"]}
        )
        for page in pages.values():
            wait_version(page, target)
        game.refresh_from_db()
    assert order[-1] == state.dealer and len(order) == 3
    for name, page in pages.items():
        page.wait_for_function(
            "() => window.__heard.some((l) => l.includes(' leads.') || l.includes('Your turn to play'))"
        )
        page.wait_for_timeout(300)  # nothing of it said again
        said = " ".join(heard(page))
        lines = [f"{'You' if names[s] == name else names[s]} bid {state.bids[s]}." for s in order]
        assert all(said.count(line) == 1 for line in lines), (name, lines, said)
        at = [said.index(line) for line in lines]
        assert at == sorted(at), (name, said)
        # The first lead's line names the dealer once, in "Bea bid 2.": its list of bids
        # is the others' ("Bids: Cai 2, Ana 0, Bea 2;" said Bea's bid twice in a line).
        lead = next(x for x in heard(page) if " leads." in x or "Your turn to play" in x)
        dealer = "you" if names[state.dealer] == name else names[state.dealer]
        assert len(re.findall(rf"\b{dealer}\b", lead, re.IGNORECASE)) == 1, (name, lead)
        others = ", ".join(
            f"{'you' if names[s] == name else names[s]} {state.bids[s]}"
            for s in range(3)
            if s != state.dealer
        )
        assert f"Other bids: {others}; {sum(state.bids)} bid for" in lead, (name, lead)

"""The public ``python -m games replay`` contract for 7Up7Down, driven as a subprocess."""

import copy
import json

import pytest
from games_helpers import SEVEN, SEVEN_PLAYS, cli_error, cli_ok, games_cli, replay_cli

from games import seven_up as su

# Deal 1, six cards, dealer 0: seat 1 bids first and leads. Trump clubs (AC).
SIX = [
    ["2D", "3D", "4D", "5D", "6D", "7D"],
    ["8D", "9D", "10D", "JD", "QD", "KD"],
    ["2H", "3H", "4H", "5H", "6H", "7H"],
]


def deal0(**kw):
    d = {"dealer": 2, "hands": SEVEN, "trump_card": "AH", "bids": [6, 1, 1], "plays": SEVEN_PLAYS}
    d.update(kw)
    return d


def deal1(**kw):
    d = {"dealer": 0, "hands": SIX, "trump_card": "AC", "bids": [0, 1, 2], "plays": []}
    d.update(kw)
    return d


def doc(deals=None, **kw):
    base = {
        "game": "seven_up",
        "rules": {"hook": True, "points_per_trick": 15, "zero_bid_points": 10},
        "seats": 3,
        "deals": [deal0()] if deals is None else deals,
    }
    base.update(kw)
    return base


def test_the_docs_replay_example_gives_the_output_the_docs_show(tmp_path):
    """docs/seven_up.md's record, as written there, replays to the output printed
    under it: the hook's bid, an exact 7, an exact 0 and a missed 1."""
    from games_helpers import docs_replay_example

    record, output = docs_replay_example("seven_up.md", "The replay command")
    assert cli_ok(replay_cli(record, tmp_path)) == output


# ---------------------------------------------------------------- success


def test_one_whole_deal(tmp_path):
    out = cli_ok(replay_cli(doc(), tmp_path))
    tricks = [{"leader": 0, "cards": SEVEN_PLAYS[i : i + 3], "winner": 0} for i in range(0, 18, 3)]
    tricks.append({"leader": 0, "cards": ["8S", "2H", "8C"], "winner": 1})
    assert out == {
        "deals": [
            {
                "trump": "H",
                "bids": [6, 1, 1],
                "tricks": tricks,
                "tricks_won": [6, 1, 0],
                "points": [90, 15, 0],
            }
        ],
        "totals": [90, 15, 0],
        "winners": [0],
    }


def test_bids_come_in_bidding_order_and_are_reported_per_seat(tmp_path):
    # Deal 1's dealer is seat 0: bids [0, 1, 2] are seats 1, 2, 0.
    plays = ["8D", "2H", "2D", "9D", "3H", "3D", "10D", "4H", "4D"]
    plays += ["JD", "5H", "5D", "QD", "6H", "6D", "KD", "7H", "7D"]
    out = cli_ok(replay_cli(doc([deal0(), deal1(plays=plays)]), tmp_path))
    second = out["deals"][1]
    assert second["trump"] == "C" and second["bids"] == [2, 0, 1]
    assert all(t["leader"] == 1 and t["winner"] == 1 for t in second["tricks"])
    assert second["tricks_won"] == [0, 6, 0] and second["points"] == [0, 0, 0]
    assert out["totals"] == [90, 15, 0] and out["winners"] == [0]


def test_rules_knobs_and_defaults(tmp_path):
    no_hook = doc([deal0(bids=[6, 1, 0])], rules={"hook": False, "points_per_trick": 10})
    out = cli_ok(replay_cli(no_hook, tmp_path))
    assert out["deals"][0]["points"] == [60, 10, 10]  # zero bonus keeps its default
    bare = {k: v for k, v in doc().items() if k != "rules"}
    assert cli_ok(replay_cli(bare, tmp_path)) == cli_ok(replay_cli(doc(), tmp_path))
    assert cli_ok(replay_cli(doc(rules={}), tmp_path)) == cli_ok(replay_cli(doc(), tmp_path))


def test_any_first_dealer(tmp_path):
    # With dealer 0 seat 1 bids first and leads: it leads a spade it holds.
    d = doc([deal0(dealer=0, bids=[0, 0, 6], plays=["2S", "2C", "AS"])])
    out = cli_ok(replay_cli(d, tmp_path))
    assert out["deals"][0]["bids"] == [6, 0, 0]
    assert out["deals"][0]["tricks"] == [{"leader": 1, "cards": ["2S", "2C", "AS"], "winner": 0}]


def test_a_match_may_stop_early_and_counts_its_points_so_far(tmp_path):
    out = cli_ok(replay_cli(doc([]), tmp_path))
    assert out == {"deals": [], "totals": [0, 0, 0], "winners": []}
    # The last deal stops during bidding: missing bids are null, points null.
    out = cli_ok(replay_cli(doc([deal0(), deal1(bids=[0, 1])]), tmp_path))
    assert out["deals"][1] == {
        "trump": "C",
        "bids": [None, 0, 1],
        "tricks": [],
        "tricks_won": [0, 0, 0],
        "points": [None, None, None],
    }
    assert out["totals"] == [90, 15, 0] and out["winners"] == [0]
    # ... or in the middle of a trick: the unfinished trick is listed with no winner.
    out = cli_ok(replay_cli(doc([deal0(), deal1(plays=["8D", "2H", "2D", "9D", "3H"])]), tmp_path))
    assert out["deals"][1]["tricks"] == [
        {"leader": 1, "cards": ["8D", "2H", "2D"], "winner": 1},
        {"leader": 1, "cards": ["9D", "3H"], "winner": None},
    ]
    assert out["deals"][1]["tricks_won"] == [0, 1, 0]
    assert out["totals"] == [90, 15, 0]
    # A first deal stopped before any deal is scored: nobody has won yet.
    out = cli_ok(replay_cli(doc([deal0(plays=SEVEN_PLAYS[:4])]), tmp_path))
    assert out["winners"] == [] and out["totals"] == [0, 0, 0]
    assert out["deals"][0]["bids"] == [6, 1, 1]


def test_stdin_determinism_and_sorted_keys(tmp_path):
    text = json.dumps(doc([deal0(), deal1(bids=[0])]))
    a = games_cli(["replay", "-"], stdin=text)
    b = games_cli(["replay", "-"], stdin=text)
    c = replay_cli(text, tmp_path)
    assert cli_ok(a) == cli_ok(c) and a.stdout == b.stdout == c.stdout
    assert a.stdout.startswith('{"deals": [{"bids": ')


def test_a_full_seeded_bot_match_with_the_blind_deal(tmp_path):
    config = su.Config(5)
    final, _ = su.play_match(config, seed=77)
    record = su.to_record(final)
    # Cards in any case, as a hand-typed record might have them.
    record["deals"][3]["plays"] = [c.lower() for c in record["deals"][3]["plays"]]
    out = cli_ok(replay_cli(record, tmp_path))
    assert len(out["deals"]) == 14
    for row, r in zip(out["deals"], final.history, strict=True):
        assert row["trump"] == r.trump
        assert row["bids"] == list(r.bids)
        assert row["tricks_won"] == list(r.tricks_won)
        assert row["points"] == list(r.points)
        assert [t["winner"] for t in row["tricks"]] == [t.winner for t in r.tricks]
    assert out["totals"] == su.result(final)["totals"]
    assert out["winners"] == su.result(final)["winners"]
    blind = out["deals"][su.BLIND_DEAL]
    assert len(blind["tricks"]) == 1 and len(blind["tricks"][0]["cards"]) == 5


# ---------------------------------------------------------------- illegal bids and plays


@pytest.mark.parametrize(
    "bids, at, words",
    [
        ([6, 1, 0], 2, "hook rule"),  # 6 + 1 + 0 = 7 cards
        ([8], 0, "from 0 to 7"),
        ([6, -1], 1, "from 0 to 7"),
        ([6, 1, 1, 0], 3, "Bidding is over"),
    ],
)
def test_illegal_bid(tmp_path, bids, at, words):
    payload = cli_error(replay_cli(doc([deal0(bids=bids, plays=[])]), tmp_path))
    assert payload["deal"] == 0 and payload["phase"] == "bid" and payload["at"] == at
    assert words in payload["error"]
    assert set(payload) == {"error", "deal", "phase", "at"}


def test_the_hook_bid_error_reads_well(tmp_path):
    payload = cli_error(replay_cli(doc([deal0(bids=[6, 1, 0])]), tmp_path))
    assert payload["error"] == (
        "deals[0].bids[2]: seat 2 cannot bid 0: As the dealer you may not bid 0: the bids "
        "would add up to 7, the number of cards each player holds (hook rule)."
    )


@pytest.mark.parametrize(
    "plays, at, words",
    [
        (["AS", "2H"], 1, "must follow suit"),
        (["2S"], 0, "You do not hold 2S"),
        (["AS", "2S", "3S"], 2, "You do not hold 3S"),
        (SEVEN_PLAYS + ["AS"], 21, "deals[0].plays[21]: AS cannot be played: The deal is over"),
    ],
)
def test_illegal_play(tmp_path, plays, at, words):
    payload = cli_error(replay_cli(doc([deal0(plays=plays)]), tmp_path))
    assert payload == {"error": payload["error"], "deal": 0, "phase": "play", "at": at}
    assert words in payload["error"]


def test_plays_before_the_bidding_is_over(tmp_path):
    payload = cli_error(replay_cli(doc([deal0(bids=[6], plays=["AS"])]), tmp_path))
    assert (payload["deal"], payload["phase"], payload["at"]) == (0, "play", 0)
    assert "Bidding is not over" in payload["error"]


def test_illegal_play_in_a_later_deal_and_in_the_blind_deal(tmp_path):
    payload = cli_error(replay_cli(doc([deal0(), deal1(plays=["8D", "2H", "2S"])]), tmp_path))
    assert (payload["deal"], payload["phase"], payload["at"]) == (1, "play", 2)
    final, _ = su.play_match(su.Config(4), seed=5)
    record = su.to_record(final)
    blind = record["deals"][su.BLIND_DEAL]
    held = {c for h in blind["hands"] for c in h} | {blind["trump_card"]}
    stranger = next(c for c in su.full_deck() if c not in held)
    bad = copy.deepcopy(record)
    bad["deals"][su.BLIND_DEAL]["plays"][2] = stranger
    payload = cli_error(replay_cli(bad, tmp_path))
    assert (payload["deal"], payload["phase"], payload["at"]) == (su.BLIND_DEAL, "play", 2)
    assert f"You do not hold {stranger}" in payload["error"]


# ---------------------------------------------------------------- malformed input


def _without(d, key):
    return {k: v for k, v in d.items() if k != key}


@pytest.mark.parametrize(
    "d, words",
    [
        ("{not json", "not valid JSON"),
        ("[]", "must be a JSON object"),
        (doc(extra=1), "Unknown key(s) for seven_up: extra"),
        (_without(doc(), "seats"), "Missing key 'seats'"),
        (_without(doc(), "deals"), "Missing key 'deals'"),
        (doc(seats=2), "seats must be"),
        (doc(seats=8), "seats must be"),
        (doc(seats="3"), "seats must be"),
        (doc(rules={"hooks": True}), "Unknown rule(s): hooks"),
        (doc(rules={"hook": "yes"}), "hook must be true or false"),
        (doc(rules={"points_per_trick": -5}), "points_per_trick"),
        (doc(rules={"zero_bid_points": 1.5}), "zero_bid_points"),
        (doc(rules=[1]), "rules must be an object"),
        (doc(deals={}), "deals must be a list"),
        (doc(deals=[1]), "deals must be a list"),
        (doc(deals=[deal0()] * 15), "A match has 14 deals"),
        (doc([deal0(extra=1)]), "deals[0]: unknown key(s) extra"),
        (doc([_without(deal0(), "hands")]), "deals[0]: missing key 'hands'"),
        (doc([_without(deal0(), "trump_card")]), "missing key 'trump_card'"),
        (doc([_without(deal0(), "dealer")]), "missing key 'dealer'"),
        (doc([deal0(dealer=3)]), "deals[0].dealer must be a seat from 0 to 2"),
        (doc([deal0(dealer=True)]), "deals[0].dealer must be a seat"),
        (doc([deal0(), deal1(dealer=1)]), "clockwise"),
        (doc([deal0(hands=SEVEN[:2])]), "3 seats but 2 hands"),
        (doc([deal0(), deal1(hands=SEVEN)]), "this deal gives 6 to each player"),
        (doc([deal0(hands=[SEVEN[0], SEVEN[1][:6] + ["AS"], SEVEN[2]])]), "AS is dealt twice"),
        (doc([deal0(trump_card="2C")]), "trump card 2C is in a hand"),
        (doc([deal0(trump_card="1H")]), "not a card"),
        (doc([deal0(hands=[SEVEN[0], SEVEN[1][:6] + ["XX"], SEVEN[2]])]), "not a card"),
        (doc([deal0(bids=[6, "1", 1])]), "deals[0].bids must be a list of whole numbers"),
        (doc([deal0(bids=[6, True, 1])]), "whole numbers"),
        (doc([deal0(bids=6)]), "whole numbers"),
        (doc([deal0(plays="AS")]), "deals[0].plays must be a list"),
        (doc([deal0(plays=["AS", "ZZ"])]), "deals[0].plays[1]"),
        (doc([deal0(plays=SEVEN_PLAYS[:20]), deal1()]), "only the last deal may stop early"),
        (doc([deal0(bids=[6, 1], plays=[]), deal1()]), "only the last deal may stop early"),
    ],
)
def test_malformed_input(tmp_path, d, words):
    payload = cli_error(replay_cli(d, tmp_path))
    assert words in payload["error"]
    assert "phase" not in payload and "at" not in payload


def test_malformed_errors_name_the_deal(tmp_path):
    payload = cli_error(replay_cli(doc([deal0(), deal1(dealer=1)]), tmp_path))
    assert payload["deal"] == 1
    payload = cli_error(replay_cli(doc(seats=9), tmp_path))
    assert set(payload) == {"error"}

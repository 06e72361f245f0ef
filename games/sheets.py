"""Player-facing rule sheets generated from a sheet's knobs alone.

What players read is produced from the same ``TrickRules`` the engine enforces,
so the two cannot drift apart. The wording is our own; it covers what the seed
sheets cover: cards, deal, lead, following suit, winning a trick, trumps, the end.
"""

from __future__ import annotations

from .cards import SUIT_NAME_SINGULAR, SUIT_NAMES
from .tricks import TrickRules

TITLE = "Five Tricks"


def _order_text(rules: TrickRules) -> str:
    if rules.ace == "high":
        return "From lowest to highest the cards rank 2, 3, 4, 5, 6, 7, ace: the ace is the highest card."
    return (
        "From lowest to highest the cards rank ace, 2, 3, 4, 5, 6, 7: the ace is the lowest card."
    )


def _best_and_worst(rules: TrickRules) -> tuple[str, str]:
    low, high = ("ace", "7") if rules.ace == "low" else ("2", "ace")
    return (high, low) if rules.wins == "highest" else (low, high)


# The table sizes Five Tricks plays best at: its sheet says so, and the facilitator's
# wizard beside its seat count (one figure: they had said 3 to 6 and 4 to 6).
BEST_SEATS = "3 to 6"


def sheet_text(rules: TrickRules) -> dict:
    """The rule sheet for ``rules`` as a title and a list of {heading, text} sections."""
    word = "highest" if rules.wins == "highest" else "lowest"
    best, worst = _best_and_worst(rules)
    trump = rules.trump
    sections = [
        (
            "Cards",
            "Only 28 cards are used: the ace, 2, 3, 4, 5, 6 and 7 of each suit. "
            + _order_text(rules),
        ),
        ("Players", f"2 to 8 players; {BEST_SEATS} play best."),
        (
            "Deal",
            "Shuffle and deal the cards one at a time, clockwise, starting with the player on the "
            "dealer's left, until every player has 7 cards or the cards run out. With 5 players some "
            "get 6 cards and some 5; with 6 players some get 5 and some 4.",
        ),
        (
            "Start",
            "The player on the dealer's left leads the first trick with any card. Then each other "
            "player, clockwise, plays one card; the cards played make a trick. A player with no cards "
            "left sits out, so the last trick may have fewer cards.",
        ),
    ]
    if trump is not None and rules.trump_when == "any":
        t1 = SUIT_NAME_SINGULAR[trump]
        follow = (
            "The leader may play any card. If you hold a card of the suit that was led, you must play "
            f"either a card of that suit or a {t1} (a trump); no other card is allowed. If you hold no "
            "card of the led suit, you may play any card."
        )
    else:
        follow = (
            "The leader may play any card. The others must follow suit: if you hold a card of the suit "
            "that was led, you must play one. If you hold none, you may play any card."
        )
    sections.append(("Following suit", follow))
    if trump is None:
        win = (
            f"The {word} card of the suit that was led wins the trick. In each suit the {best} is the "
            f"best card and the {worst} the worst. A card of another suit never wins. The winner "
            "takes the trick and puts it face down in front of them."
        )
        trumps = "There are no trumps in this game."
    else:
        t1, tn = SUIT_NAME_SINGULAR[trump], SUIT_NAMES[trump]
        win = (
            f"If anyone played a {t1}, the {word} {t1} wins the trick. Otherwise the {word} card of the "
            f"suit that was led wins. In each suit the {best} is the best card and the {worst} the "
            "worst. The winner takes the trick and puts it face down in front of them."
        )
        if rules.trump_when == "any":
            when = (
                f"You may play a {t1} whenever it is your turn, even if you could follow suit. "
                "This is called trumping."
            )
        else:
            when = (
                f"When another suit is led, you may play a {t1} only if you hold no card of that "
                "suit. This is called trumping."
            )
        trumps = (
            f"{tn.capitalize()} are trumps. {when} Any {t1}, even the {worst} of {tn}, beats every "
            f"card of the other suits. If several {tn} are played, the {word} {t1} wins."
        )
    sections += [
        ("Winning a trick", win),
        ("Trumps", trumps),
        (
            "Next trick",
            "The winner of a trick leads the next one. If the winner has no cards left, the next "
            "player clockwise who still has cards leads.",
        ),
        (
            "End of the game",
            "The game ends when every player has played all their cards. The player who took the most tricks wins; "
            "players tied for the most tricks all win. If play is stopped early, the most tricks so "
            "far win; if not one trick has been finished, nobody wins.",
        ),
    ]
    return {"title": TITLE, "sections": [{"heading": h, "text": t} for h, t in sections]}


def sheet_plain(rules: TrickRules) -> str:
    """The same sheet as plain text: the title, then one paragraph per section."""
    sheet = sheet_text(rules)
    parts = [sheet["title"], ""]
    for section in sheet["sections"]:
        parts.append(f"{section['heading']}: {section['text']}")
    return "\n".join(parts) + "\n"

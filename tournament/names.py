"""Player names and join codes: pure rules, no database."""

from __future__ import annotations

import re
import secrets
import unicodedata

NAME_MAX = 30
# No 0/O, 1/I/L, 5/S or 2/Z: a code read off a projector must not be misread.
CODE_ALPHABET = "ABCDEFGHJKMNPQRTUVWXY346789"
CODE_LENGTH = 6
# Zero-width (non-)joiners are format characters, but Persian and Indic names and
# emoji sequences (👩‍💻) need them; every other control or format character is refused.
JOINERS = "\u200c\u200d"
REFUSED = {"Cc", "Cf", "Cs", "Co"}
# Letters and symbols drawn as a blank: the Hangul fillers and the braille blank. No
# name needs them, and "Bot\u3164A" would read as a bot.
BLANK_LETTERS = "\u115f\u1160\u3164\uffa0\u2800"
# After the name of a student who left while a bot plays on in their seat, on the
# phones of the table: the seat's line in the game and, between rounds, "With you".
LEFT_BOT_SEAT = "(left; a bot plays the seat)"


def _drawn_as_nothing(ch: str) -> bool:
    """Marks Unicode draws as nothing that are not format characters: variation
    selectors (the emoji form of ❤️; a CJK glyph's variant), the combining grapheme
    joiner, Mongolian variation selectors, Khmer's inherent vowels. A name may hold
    them; its comparison key leaves them out, as it does the joiners."""
    o = ord(ch)
    return (
        0xFE00 <= o <= 0xFE0F
        or 0xE0100 <= o <= 0xE01EF
        or o == 0x034F
        or 0x180B <= o <= 0x180D
        or o == 0x180F
        or o in (0x17B4, 0x17B5)
    )


# A letter may carry this many combining marks in a row (a Tibetan stack has three
# or four); more is a tower that spills over the lines around it on every screen.
MARKS_IN_A_ROW = 5


class NameError_(ValueError):
    pass


def has_hidden_characters(text: str) -> bool:
    """Control, format (invisible: zero-width space, right-to-left override),
    surrogate or private-use characters, joiners aside; the letters drawn as a
    blank; and the noncharacters (U+FDD0–FDEF, U+xxFFFE/F), which Unicode keeps out
    of text for good."""
    return any(
        (unicodedata.category(ch) in REFUSED and ch not in JOINERS)
        or ch in BLANK_LETTERS
        or 0xFDD0 <= ord(ch) <= 0xFDEF
        or ord(ch) & 0xFFFE == 0xFFFE
        for ch in text
    )


def _marks_in_a_row(text: str) -> int:
    most = run = 0
    for ch in text:
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def clean_name(raw: object) -> str:
    """Trim, collapse inner white space, NFC-normalise; 1–30 characters, no control characters."""
    if not isinstance(raw, str):
        raise NameError_("A name must be text.")
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not name:
        raise NameError_("Please enter a name.")
    # Not "Cn" (unassigned): in Python's Unicode tables that is also every emoji
    # newer than them (🩷, 🫨).
    if has_hidden_characters(name):
        raise NameError_("A name cannot contain control or invisible characters.")
    # Something to see: a letter, digit, symbol or punctuation (not only marks,
    # joiners and spaces).
    if not any(unicodedata.category(ch)[0] in "LNSP" for ch in name):
        raise NameError_("Please enter a name.")
    if _marks_in_a_row(name) > MARKS_IN_A_ROW:
        raise NameError_(
            f"A name can have at most {MARKS_IN_A_ROW} accents or marks on one letter."
        )
    if len(name) > NAME_MAX:
        raise NameError_(f"A name can be at most {NAME_MAX} characters.")
    return name


# Bots are "Bot A", "Bot B" … "Bot AA": a person by such a name would read as a bot
# on the roster, the monitor and the report ("Botond" and "Abbot" are names).
BOT_NAME = re.compile(r"bot(?: [a-z]{1,2})?(?: \d+)?")


def reserved_for_bots(name: str) -> bool:
    """Whether `name` (clean) is one the bots are given, ignoring case and accents."""
    return BOT_NAME.fullmatch(name_key(name)) is not None


def name_key(name: str) -> str:
    """Case- and accent-insensitive comparison key."""
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(
        ch
        for ch in decomposed
        if not unicodedata.combining(ch) and ch not in JOINERS and not _drawn_as_nothing(ch)
    ).casefold()


def distinct_name(name: str, taken: set[str]) -> str:
    """`name`, or `name 2`, `name 3` … so that no two players of a workshop look alike.

    `taken` holds the name_key of every name already in the workshop. The suffix
    may push a 30-character name past the limit, so the base is shortened first.
    """
    if name_key(name) not in taken:
        return name
    n = 2
    while True:
        suffix = f" {n}"
        candidate = name[: NAME_MAX - len(suffix)].rstrip() + suffix
        if name_key(candidate) not in taken:
            return candidate
        n += 1


def normalise_code(raw: object) -> str:
    """A typed join code as stored: capitals, no spaces; a character no code has
    (punctuation, a control character: PostgreSQL refuses a NUL in a query) is
    dropped, and the rest cut at twice a code's length."""
    if not isinstance(raw, str):
        return ""
    return "".join(ch for ch in raw.upper() if ch.isalnum())[: 2 * CODE_LENGTH]


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def new_pin() -> str:
    return f"{secrets.randbelow(10**4):04d}"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def full_stop(names) -> str:
    """The full stop after a name (or a list of names, the last) that ends a sentence,
    unless the name already ends with one: "fewest: Lena B.." read "Lena B." twice
    over (found by a review; "Ana E." is a common way to tell two Anas apart)."""
    last = names[-1] if isinstance(names, list | tuple) and names else names
    return "" if str(last or "").rstrip().endswith((".", "!", "?", "…")) else "."


def said_as_list(words: list[str]) -> str:
    """Words as a sentence lists them: "Ana", "Ana and you", "Ana, Bea and you"."""
    if len(words) < 2:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]

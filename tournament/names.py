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


class NameError_(ValueError):
    pass


def has_hidden_characters(text: str) -> bool:
    """Control, format (invisible: zero-width space, right-to-left override),
    surrogate or private-use characters, joiners aside; and the noncharacters
    (U+FDD0–FDEF, U+xxFFFE/F), which Unicode keeps out of text for good."""
    return any(
        (unicodedata.category(ch) in REFUSED and ch not in JOINERS)
        or 0xFDD0 <= ord(ch) <= 0xFDEF
        or ord(ch) & 0xFFFE == 0xFFFE
        for ch in text
    )


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
    if all(ch in JOINERS or ch == " " for ch in name):
        raise NameError_("Please enter a name.")
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
        ch for ch in decomposed if not unicodedata.combining(ch) and ch not in JOINERS
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

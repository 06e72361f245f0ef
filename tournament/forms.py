"""The facilitator's set-up wizard: one form, checked here, created by services.workshop_setup.

The base game is a choice (games.kinds). Each game has its own per-table sheet
fields: Five Tricks keeps the names ``sheet_N`` / ``custom_N_<knob>``, every
other game prefixes them with its key (``seven_up_sheet_N``,
``seven_up_custom_N_<knob>``). Only the chosen game's are read; a custom sheet's
knobs are the keys of ``kind.rules_from_dict({}).to_dict()`` and are checked by
``kind.rules_from_dict``.
"""

from __future__ import annotations

import json
import re
from decimal import Decimal

from django import forms

from games import kinds
from games.sheets import BEST_SEATS
from tournament import names
from tournament.models import LeavePolicy, Mode
from tournament.services.workshops import GAMES, LIMITS

FIVE_TRICKS = "five_tricks"
GAME_TITLES = dict(kinds.TITLES)
# One line per game for the wizard's radio buttons (a kind without one gets its seats only).
DESCRIPTIONS = {
    "five_tricks": "The Barnga game: the hand is played out in tricks, the most tricks "
    "wins; tables differ in trumps and card order.",
    "seven_up": "Bid the tricks you will take, 14 deals from 7 cards down to 1 and back; "
    "exact bids score.",
    "all_fives": "Take trumps worth points in tricks; the first to 61 points wins.",
    "three_tricks": "Two players lay and block pairs and runs; three standing tricks win.",
}
# Choosing each table's sheet gives every Five Tricks table a different one: no more
# tables than there are different sheets. Other games cycle through their presets
# (neighbours still differ), so a class can sit at two-player tables.
OTHER_GAMES_TABLES = 16
# A conference of 200 at tables of five. Past the different sheets, automatic
# assignment repeats them in a cycle whose neighbours still differ.
CLASS_TABLES = 40
AUTO, CUSTOM = "", "custom"
KNOB_FIELDS = {
    "ace": ("Ace", [("high", "Ace high (above 7)"), ("low", "Ace low (below 2)")]),
    "wins": ("Which card wins", [("highest", "Highest wins"), ("lowest", "Lowest wins")]),
    "trump": (
        "Trump suit",
        [
            ("", "No trump"),
            ("S", "Spades ♠"),
            ("H", "Hearts ♥"),
            ("D", "Diamonds ♦"),
            ("C", "Clubs ♣"),
        ],
    ),
    "trump_when": (
        "Trump may be played",
        [("void", "Only when out of the led suit"), ("any", "At any time")],
    ),
}
_BOOL = [("on", "On"), ("off", "Off")]


def seats_text(kind) -> str:
    lo, hi = kind.min_seats, kind.max_seats
    return f"{lo}" if lo == hi else f"{lo} to {hi}"


def distinct_sheets(kind) -> int:
    return len(set(kind.presets.values()))


def chooser_tables(kind) -> int:
    """Tables whose sheets the facilitator may choose one by one."""
    distinct = distinct_sheets(kind)
    if kind.key == FIVE_TRICKS:
        return min(LIMITS["table_count"][1], distinct)
    return min(LIMITS["table_count"][1], max(distinct, OTHER_GAMES_TABLES))


def prefix(kind) -> str:
    return "" if kind.key == FIVE_TRICKS else f"{kind.key}_"


def knob_specs(kind) -> dict[str, tuple[str, str, list]]:
    """{knob: (label, "choice" | "bool" | "int", choices)} for a custom sheet of `kind`.

    Five Tricks has its own labels; for the other games the knobs are the keys of
    the default rules and a text knob offers the values its default and presets use.
    """
    if kind.key == FIVE_TRICKS:
        return {k: (label, "choice", choices) for k, (label, choices) in KNOB_FIELDS.items()}
    default = kind.rules_from_dict({}).to_dict()
    seen: dict[str, list] = {k: [v] for k, v in default.items()}
    for rules in kind.presets.values():
        for k, v in rules.to_dict().items():
            if k in seen and v not in seen[k]:
                seen[k].append(v)
    specs = {}
    for k, values in seen.items():
        label = kind.knob_title(k)
        first = values[0]
        if isinstance(first, bool):
            specs[k] = (label, "bool", _BOOL)
        elif isinstance(first, int):
            specs[k] = (label, "int", [])
        else:
            specs[k] = (
                label,
                "choice",
                [("" if v is None else v, kind.knob_label(k, v)) for v in values],
            )
    return specs


def _engine_sentence(message: str) -> str:
    """An engine's "points_per_trick must be a whole number … not -5." as a field says it."""
    found = re.match(r"^\w+ must be (.*?),? not .*$", message)
    return f"Must be {found.group(1)}." if found else message


def knobs_from_data(kind, data: dict, n: int) -> dict:
    """The custom sheet of table `n` as a knobs dict (not yet checked)."""
    knobs = {}
    for k, (_, how, _) in knob_specs(kind).items():
        value = data.get(f"{prefix(kind)}custom_{n}_{k}")
        if how == "bool":
            value = {"on": True, "off": False}.get(value)
        elif value == "":
            value = None
        knobs[k] = value
    return knobs


MAX_TABLES = min(LIMITS["table_count"][1], CLASS_TABLES)


def _within(value: int, limits: tuple[int, int]) -> int:
    low, high = limits
    return min(max(value, low), high)


def _in_minutes(seconds: int, limits: tuple[int, int]) -> Decimal:
    """A length in seconds as the wizard's minutes field takes it (a tenth of a minute),
    whole minutes without a tenth: Set up again showed "2.0" beside "0.5" and "5"."""
    minutes = Decimal(_within(seconds, limits) / 60).quantize(Decimal("0.1"))
    return minutes.to_integral_value() if minutes == minutes.to_integral_value() else minutes


def initial_like(workshop) -> dict:
    """The wizard's fields as ``workshop`` was set up: another class, the same workshop.

    Its sheets come back chosen per table, each table's as it was (a preset by its
    name, a custom sheet by its knobs), while the game lets them be chosen one by one;
    past that they are automatic again, as they were. Its name is left blank, for the
    new class's own: kept, the facilitator's list showed two workshops of one name, and
    the new class's projector, tab and report were titled with the last class's.
    """
    kind = kinds.get(workshop.game) if workshop.game in GAMES else kinds.get(GAMES[0])
    initial = {
        "game": kind.key,
        "mode": workshop.mode,
        "table_count": _within(workshop.table_count, (1, MAX_TABLES)),
        "seats_per_table": _within(workshop.seats_per_table, (kind.min_seats, kind.max_seats)),
        "round_minutes": _in_minutes(workshop.round_seconds, LIMITS["round_seconds"]),
        "study_minutes": _in_minutes(workshop.study_seconds, LIMITS["study_seconds"]),
        "home_minutes": _in_minutes(workshop.home_seconds, LIMITS["home_seconds"]),
        "dispute_seconds": _within(workshop.dispute_seconds, LIMITS["dispute_seconds"]),
        "bots_enabled": workshop.bots_enabled,
        "leave_policy": workshop.leave_policy,
        "sheet_mode": "auto",
    }
    tables = list(workshop.tables.order_by("number"))
    if not tables or len(tables) > chooser_tables(kind):
        return initial
    initial["sheet_mode"] = "choose"
    pre, specs = prefix(kind), knob_specs(kind)
    for table in tables:
        preset = kind.presets.get(table.preset)
        if preset is not None and preset.to_dict() == table.rules:
            initial[f"{pre}sheet_{table.number}"] = table.preset
            continue
        initial[f"{pre}sheet_{table.number}"] = CUSTOM
        for knob, (_, how, _) in specs.items():
            value = table.rules.get(knob)
            if how == "bool":
                value = "on" if value else "off"
            initial[f"{pre}custom_{table.number}_{knob}"] = "" if value is None else value
    return initial


def _game_label(kind) -> str:
    line = DESCRIPTIONS.get(kind.key, "")
    return f"{kind.title} — {seats_text(kind)} players per table" + (f". {line}" if line else ".")


def _minutes(
    label: str, initial: int, limits: tuple[int, int], help_text: str = ""
) -> forms.DecimalField:
    low, high = limits
    return forms.DecimalField(
        label=label,
        initial=Decimal(initial),
        min_value=Decimal(low) / 60,
        max_value=Decimal(high) / 60,
        # In the field's unit, as its help says it (Django's "Ensure this value is
        # greater than or equal to 0.5." named none).
        error_messages={
            key: f"Choose from {low / 60:g} to {high // 60} minutes."
            for key in ("min_value", "max_value")
        },
        decimal_places=1,
        max_digits=4,
        help_text=f"{help_text} In minutes, from {low / 60:g} to {high // 60}.".strip(),
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )


class WorkshopForm(forms.Form):
    name = forms.CharField(
        label="Workshop name", max_length=100, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    game = forms.ChoiceField(
        label="Base game",
        choices=[(g, _game_label(kinds.get(g))) for g in GAMES],
        initial=FIVE_TRICKS if FIVE_TRICKS in GAMES else GAMES[0],
        widget=forms.RadioSelect,
    )
    mode = forms.ChoiceField(
        label="How tricks are decided",
        choices=Mode.choices,
        initial=Mode.BARNGA,
        widget=forms.RadioSelect,
        help_text="For "
        + " and ".join(k.title for k in kinds.KINDS.values() if k.per_seat_rules)
        + ". In "
        + " and ".join(k.title for k in kinds.KINDS.values() if not k.per_seat_rules)
        + " the table's sheet always decides.",
    )
    table_count = forms.IntegerField(
        label="Number of tables",
        initial=4,
        min_value=1,
        max_value=MAX_TABLES,
        error_messages={
            "min_value": "At least 1 table.",
            "max_value": f"At most {MAX_TABLES} tables.",
        },
        help_text=f"1 to {MAX_TABLES}. Every table has a sheet of its own up to "
        + ", ".join(f"{distinct_sheets(k)} tables of {k.title}" for k in kinds.KINDS.values())
        + "; with more tables the sheets repeat, neighbouring tables still differing.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    seats_per_table = forms.IntegerField(
        label="Seats per table",
        initial=5,
        # No bounds of the field's own: clean() says the chosen game's range in words
        # ("Five Tricks is played by 2 to 8 players: …"), where Django's "Ensure this
        # value is less than or equal to 8." said neither seats nor game. The input
        # keeps the widest range as its min and max.
        help_text=f"Five Tricks: 2 to 8, {BEST_SEATS} play best. "
        + "; ".join(
            f"{k.title}: {seats_text(k)}" for k in kinds.KINDS.values() if k.key != FIVE_TRICKS
        )
        + ".",
        widget=forms.NumberInput(
            attrs={
                "inputmode": "numeric",
                "min": LIMITS["seats_per_table"][0],
                "max": LIMITS["seats_per_table"][1],
            }
        ),
    )
    round_minutes = _minutes("Round length", 5, LIMITS["round_seconds"])
    study_minutes = _minutes("Study length", 5, LIMITS["study_seconds"])
    home_minutes = _minutes(
        "Silent home play length",
        3,
        LIMITS["home_seconds"],
        "Unscored silent games at the home table.",
    )
    dispute_seconds = forms.IntegerField(
        label="Dispute time-out",
        initial=45,
        min_value=LIMITS["dispute_seconds"][0],
        max_value=LIMITS["dispute_seconds"][1],
        error_messages={
            key: f"Choose from {LIMITS['dispute_seconds'][0]} to {LIMITS['dispute_seconds'][1]} seconds."
            for key in ("min_value", "max_value")
        },
        help_text=f"Seconds before the most-claimed card wins a disputed trick "
        f"({LIMITS['dispute_seconds'][0]} to {LIMITS['dispute_seconds'][1]}; "
        + " and ".join(k.title for k in kinds.KINDS.values() if k.records_tricks)
        + " in Barnga mode).",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    sheet_mode = forms.ChoiceField(
        label="Rule sheets",
        choices=[
            (
                "auto",
                "Automatic: a different sheet at every table while the game has enough, "
                "neighbours always differing",
            ),
            ("choose", "Choose per table"),
        ],
        initial="auto",
        widget=forms.RadioSelect,
    )
    bots_enabled = forms.BooleanField(
        label="Bots may fill empty seats",
        required=False,
        initial=False,
        # Its help, beside the box in the template, heard with it.
        widget=forms.CheckboxInput(attrs={"aria-describedby": "bots-help"}),
    )
    leave_policy = forms.ChoiceField(
        label="When you remove a player after the lobby",
        choices=LeavePolicy.choices,
        initial=LeavePolicy.BOT,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in kinds.KINDS.values():
            pre = prefix(kind)
            choices = [
                (AUTO, "Automatic"),
                # Five Tricks' sheets are named by their source ("Sheet 1 (Tournament
                # guide)"): what each says too, since two of them are the same rules
                # under different names. The other games' titles say their rules.
                *[
                    (
                        slug,
                        kind.preset_titles.get(slug, slug)
                        + (
                            f" — {kind.summary(rules.to_dict())}" if kind.key == FIVE_TRICKS else ""
                        ),
                    )
                    for slug, rules in kind.presets.items()
                ],
                (CUSTOM, "Custom sheet…"),
            ]
            specs = knob_specs(kind)
            default = kind.rules_from_dict({}).to_dict()
            for n in range(1, chooser_tables(kind) + 1):
                self.fields[f"{pre}sheet_{n}"] = forms.ChoiceField(
                    label=f"Table {n}", choices=choices, required=False, initial=AUTO
                )
                for knob, (label, how, knob_choices) in specs.items():
                    name = f"{pre}custom_{n}_{knob}"
                    if how == "int":
                        self.fields[name] = forms.IntegerField(
                            label=label,
                            required=False,
                            initial=default.get(knob),
                            widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
                        )
                    else:
                        initial = knob_choices[0][0]
                        if how == "bool":
                            initial = "on" if default.get(knob) else "off"
                        self.fields[name] = forms.ChoiceField(
                            label=label, choices=knob_choices, required=False, initial=initial
                        )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if names.has_hidden_characters(name):
            raise forms.ValidationError("A name cannot contain control or invisible characters.")
        return name

    def seat_ranges_json(self) -> str:
        """{game: [fewest, most] seats} for the wizard's script (a game's choice keeps
        the seats per table inside its range)."""
        return json.dumps({k: [kind.min_seats, kind.max_seats] for k, kind in kinds.KINDS.items()})

    def chosen_game(self) -> str:
        value = self.data.get("game") if self.is_bound else self.initial.get("game")
        return value if value in GAMES else self.fields["game"].initial

    def _rows(self, kind):
        pre, specs = prefix(kind), knob_specs(kind)
        return [
            (n, self[f"{pre}sheet_{n}"], [self[f"{pre}custom_{n}_{k}"] for k in specs])
            for n in range(1, chooser_tables(kind) + 1)
        ]

    def table_rows(self):
        """Five Tricks' (number, sheet field, knob fields) for the per-table part of the template."""
        return self._rows(kinds.get(FIVE_TRICKS)) if FIVE_TRICKS in GAMES else []

    def game_sheets(self):
        """Per game: its per-table sheet fields, the chosen game first."""
        chosen = self.chosen_game()
        out = [
            {
                "key": kind.key,
                "title": kind.title,
                "five_tricks": kind.key == FIVE_TRICKS,
                "chosen": kind.key == chosen,
                "rows": self._rows(kind),
            }
            for kind in kinds.KINDS.values()
        ]
        return sorted(out, key=lambda g: not g["chosen"])

    def clean(self):
        data = super().clean()
        sheets: dict[int, str | dict] = {}
        game = data.get("game")
        if game not in GAMES:
            data["sheets"] = sheets
            return data
        kind = kinds.get(game)
        seats = data.get("seats_per_table")
        if seats is not None and not kind.min_seats <= seats <= kind.max_seats:
            self.add_error(
                "seats_per_table",
                f"{kind.title} is played by {seats_text(kind)} players: "
                f"choose {seats_text(kind)} seats per table.",
            )
        count = data.get("table_count")
        if count and data.get("sheet_mode") == "choose" and count > chooser_tables(kind):
            self.add_error(
                "sheet_mode",
                f"Choosing each table's sheet works for up to {chooser_tables(kind)} tables of "
                f"{kind.title}. For {count} tables choose automatic sheets: they repeat, and "
                "neighbouring tables still differ.",
            )
            count = None
        pre = prefix(kind)
        if data.get("sheet_mode") == "choose" and count:
            for n in range(1, count + 1):
                choice = data.get(f"{pre}sheet_{n}") or AUTO
                if choice == CUSTOM:
                    knobs = knobs_from_data(kind, data, n)
                    try:
                        kind.rules_from_dict(knobs)
                    except (TypeError, ValueError) as exc:
                        self._knob_errors(kind, n, knobs, str(exc))
                        continue
                    sheets[n] = knobs
                elif choice != AUTO:
                    sheets[n] = choice
        data["sheets"] = sheets
        return data

    def _knob_errors(self, kind, n: int, knobs: dict, whole: str) -> None:
        """Each wrong knob of table `n`'s custom sheet, said at its own field; the
        table's sheet choice says there is something to mend."""
        pre, default = prefix(kind), kind.rules_from_dict({}).to_dict()
        found = False
        for knob, value in knobs.items():
            field = f"{pre}custom_{n}_{knob}"
            if field in self.errors:  # its own check failed first ("Enter a whole number.")
                found = True
                continue
            try:
                kind.rules_from_dict({**default, knob: value})
            except (TypeError, ValueError) as exc:
                found = True
                self.add_error(
                    field, "Enter a value." if value is None else _engine_sentence(str(exc))
                )
        # Each knob right on its own but not together: the engine's sentence, in words.
        self.add_error(
            f"{pre}sheet_{n}",
            f"Table {n}'s custom sheet has a mistake: see below."
            if found
            else _engine_sentence(whole),
        )

    def service_kwargs(self) -> dict:
        d = self.cleaned_data
        return {
            "name": d["name"],
            "game": d["game"],
            "mode": d["mode"],
            "table_count": d["table_count"],
            "seats_per_table": d["seats_per_table"],
            "round_seconds": int(round(d["round_minutes"] * 60)),
            "study_seconds": int(round(d["study_minutes"] * 60)),
            "home_seconds": int(round(d["home_minutes"] * 60)),
            "dispute_seconds": d["dispute_seconds"],
            "bots_enabled": d["bots_enabled"],
            "leave_policy": d["leave_policy"],
            "sheets": d["sheets"] or None,
        }

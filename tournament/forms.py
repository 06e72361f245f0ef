"""The facilitator's set-up wizard: one form, checked here, created by services.workshop_setup."""

from __future__ import annotations

from decimal import Decimal

from django import forms

from games.presets import PRESET_TITLES, PRESETS
from games.tricks import TrickRules
from tournament.models import LeavePolicy, Mode
from tournament.services.workshops import GAMES, LIMITS

GAME_TITLES = {"five_tricks": "Five Tricks"}
# Automatic assignment gives every table a different sheet: no more tables than
# there are different sheets.
MAX_TABLES = min(LIMITS["table_count"][1], len(set(PRESETS.values())))
AUTO, CUSTOM = "", "custom"
SHEET_CHOICES = [
    (AUTO, "Automatic"),
    *[(slug, PRESET_TITLES[slug]) for slug in PRESETS],
    (CUSTOM, "Custom sheet…"),
]
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


def _minutes(
    label: str, initial: int, limits: tuple[int, int], help_text: str = ""
) -> forms.DecimalField:
    low, high = limits
    return forms.DecimalField(
        label=label,
        initial=Decimal(initial),
        min_value=Decimal(low) / 60,
        max_value=Decimal(high) / 60,
        decimal_places=1,
        max_digits=4,
        help_text=help_text or f"In minutes, from {low / 60:g} to {high // 60}.",
        widget=forms.NumberInput(attrs={"step": "0.5", "inputmode": "decimal"}),
    )


class WorkshopForm(forms.Form):
    name = forms.CharField(
        label="Workshop name", max_length=100, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )
    game = forms.ChoiceField(
        label="Base game", choices=[(g, GAME_TITLES.get(g, g)) for g in GAMES], initial=GAMES[0]
    )
    mode = forms.ChoiceField(
        label="How tricks are decided",
        choices=Mode.choices,
        initial=Mode.BARNGA,
        widget=forms.RadioSelect,
    )
    table_count = forms.IntegerField(
        label="Number of tables",
        initial=4,
        min_value=1,
        max_value=MAX_TABLES,
        help_text=f"1 to {MAX_TABLES}.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    seats_per_table = forms.IntegerField(
        label="Seats per table",
        initial=5,
        min_value=LIMITS["seats_per_table"][0],
        max_value=LIMITS["seats_per_table"][1],
        help_text="2 to 8; 4 to 6 plays best.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    round_minutes = _minutes("Round length", 5, LIMITS["round_seconds"])
    study_minutes = _minutes("Study length", 5, LIMITS["study_seconds"])
    home_minutes = _minutes(
        "Silent home play length",
        3,
        LIMITS["home_seconds"],
        "Unscored silent games at the home table, in minutes.",
    )
    dispute_seconds = forms.IntegerField(
        label="Dispute time-out",
        initial=45,
        min_value=LIMITS["dispute_seconds"][0],
        max_value=LIMITS["dispute_seconds"][1],
        help_text="Seconds before the most-claimed card wins a disputed trick.",
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    sheet_mode = forms.ChoiceField(
        label="Rule sheets",
        choices=[
            ("auto", "Automatic: every table a different sheet"),
            ("choose", "Choose per table"),
        ],
        initial="auto",
        widget=forms.RadioSelect,
    )
    bots_enabled = forms.BooleanField(
        label="Bots may fill empty seats", required=False, initial=False
    )
    leave_policy = forms.ChoiceField(
        label="When a player leaves", choices=LeavePolicy.choices, initial=LeavePolicy.BOT
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for n in range(1, MAX_TABLES + 1):
            self.fields[f"sheet_{n}"] = forms.ChoiceField(
                label=f"Table {n}", choices=SHEET_CHOICES, required=False, initial=AUTO
            )
            for knob, (label, choices) in KNOB_FIELDS.items():
                self.fields[f"custom_{n}_{knob}"] = forms.ChoiceField(
                    label=label, choices=choices, required=False, initial=choices[0][0]
                )

    def table_rows(self):
        """(number, sheet field, knob fields) for the per-table part of the template."""
        return [
            (n, self[f"sheet_{n}"], [self[f"custom_{n}_{k}"] for k in KNOB_FIELDS])
            for n in range(1, MAX_TABLES + 1)
        ]

    def clean(self):
        data = super().clean()
        sheets: dict[int, str | dict] = {}
        count = data.get("table_count")
        if data.get("sheet_mode") == "choose" and count:
            for n in range(1, count + 1):
                choice = data.get(f"sheet_{n}") or AUTO
                if choice == CUSTOM:
                    knobs = {k: data.get(f"custom_{n}_{k}") for k in KNOB_FIELDS}
                    knobs["trump"] = knobs["trump"] or None
                    try:
                        TrickRules.from_dict(knobs)
                    except (TypeError, ValueError) as exc:
                        self.add_error(f"sheet_{n}", str(exc))
                        continue
                    sheets[n] = knobs
                elif choice != AUTO:
                    sheets[n] = choice
        data["sheets"] = sheets
        return data

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

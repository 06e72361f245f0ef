"""The facilitator's side for every base game (games.kinds.KINDS, whatever is registered
when the tests run): the wizard, the control panel, monitor, table page and projector,
the debrief report, the CSV/JSON exports, check_export and check_integrity.

Each workshop is created through the wizard view as a logged-in facilitator, its one
human player leaves (a bot takes the seat) and bots fill the other seats, so a
scored round plays itself with `timers.tick` until games have finished.
"""

from __future__ import annotations

import csv
import html
import io
import json
import re
from html.parser import HTMLParser

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from django.utils import timezone
from facilitator_helpers import assert_no_secrets
from tournament_helpers import play_until_finished

from games import kinds
from games.replay import replay_document
from tournament import check_export, forms, gamestate, integrity, services, timers
from tournament import report as report_figures
from tournament import selectors_facilitator as sf
from tournament.models import Game, GameState, Phase, Table, Workshop
from tournament.names import said_as_list
from tournament.templatetags.cards import card_face
from tournament.templatetags.facilitator import dot

# A line's " · " as the pages write it: the dot for the eye, a pause for the ear.
SEP = dot()
NBSP = "\xa0"  # between a monitor tally's count and its word (_monitor.html)

pytestmark = pytest.mark.django_db
KEYS = sorted(kinds.KINDS)


def text(response) -> str:
    return response.content.decode()


def page(response) -> str:
    """The page's text with entities decoded ("The seed's game" is escaped in the HTML)."""
    return html.unescape(text(response))


def seats_for(kind) -> int:
    return min(max(kind.min_seats, 3), kind.max_seats)


def knob_post(kind, n: int, rules: dict) -> dict:
    """The wizard's POST fields of a custom sheet with `rules` for table `n`."""
    out = {}
    for knob, (_, how, _) in forms.knob_specs(kind).items():
        value = rules[knob]
        if how == "bool":
            value = "on" if value else "off"
        out[f"{forms.prefix(kind)}custom_{n}_{knob}"] = "" if value is None else str(value)
    return out


def custom_rules(kind) -> dict:
    """A sheet that is no preset: the default rules with one knob changed if possible."""
    rules = kind.rules_from_dict({}).to_dict()
    for knob, (_, how, choices) in forms.knob_specs(kind).items():
        if how == "bool":
            candidate = {**rules, knob: not rules[knob]}
        elif how == "int":
            candidate = {**rules, knob: rules[knob] + 1}
        else:
            others = [v for v, _ in choices if (v or None) != rules[knob]]
            if not others:
                continue
            candidate = {**rules, knob: others[0] or None}
        try:
            kind.rules_from_dict(candidate)
        except (TypeError, ValueError):
            continue
        return candidate
    return rules


def wizard_data(kind, **kw) -> dict:
    first = next(iter(kind.presets))
    data = {
        "name": f"{kind.title} class",
        "game": kind.key,
        "mode": "barnga",
        "table_count": "2",
        "seats_per_table": str(seats_for(kind)),
        "round_minutes": "60",
        "study_minutes": "5",
        "home_minutes": "3",
        "dispute_seconds": "45",
        "sheet_mode": "choose",
        "leave_policy": "bot",
        "bots_enabled": "on",
        f"{forms.prefix(kind)}sheet_1": first,
        f"{forms.prefix(kind)}sheet_2": "custom",
        **knob_post(kind, 2, custom_rules(kind)),
    }
    data.update(kw)
    return data


def do(client, w, action, data=None):
    r = client.post(f"/workshops/{w.pk}/do/{action}/", data or {})
    assert r.status_code == 303, (action, text(r)[:2000])
    return r


def create(fac, kind) -> Workshop:
    r = fac.post("/workshops/new/", wizard_data(kind))
    assert r.status_code == 302, text(r)[:3000]
    return Workshop.objects.get()


def studying(fac, kind, names=("Ann",)) -> tuple[Workshop, list]:
    """Wizard → these students and bots in the other seats → study (the first games
    dealt): the workshop and the students."""
    w = create(fac, kind)
    people = [services.player_join(workshop_id=w.pk, name=name) for name in names]
    do(fac, w, "seat-auto")
    do(fac, w, "bots")
    do(fac, w, "start-study")
    return w, people


def run_workshop(fac, kind) -> Workshop:
    """Wizard → one human (who leaves: a bot plays for them) and bots → study → home →
    a scored round played by bots until a game is over → round ended → debrief."""
    w, (human,) = studying(fac, kind)
    services.player_leave(player_id=human.pk, policy="bot")
    do(fac, w, "start-home")
    do(fac, w, "start-round")
    play_until_finished(w)
    return w


@pytest.mark.parametrize("key", KEYS)
def test_wizard_offers_the_game_its_presets_and_knobs(fac, key):
    kind = kinds.get(key)
    wizard = page(fac.get("/workshops/new/"))
    assert f'value="{key}"' in wizard and kind.title in wizard
    for title in kind.preset_titles.values():
        assert title in wizard
    for knob in forms.knob_specs(kind):
        assert f'name="{forms.prefix(kind)}custom_1_{knob}"' in wizard


def test_the_wizard_and_the_five_tricks_sheet_give_one_best_table_size(fac):
    """The wizard said "4 to 6 plays best" beside the seat count, the students' sheet
    "3 to 6 play best" (the report's reveal shows both to the facilitator)."""
    from games.sheets import sheet_text
    from games.tricks import TrickRules

    said = next(
        s["text"] for s in sheet_text(TrickRules())["sections"] if s["heading"] == "Players"
    )
    best = said.split("; ")[1].removesuffix(".")
    assert best == "3 to 6 play best"
    assert f"Five Tricks: 2 to 8, {best}." in page(fac.get("/workshops/new/"))


def test_the_custom_sheets_knobs_are_named_in_words(fac):
    """3 Tricks' custom sheet asked for 'Stock floor' and 'Rank match: Card'."""
    wizard = page(fac.get("/workshops/new/"))
    for words in (
        "Drawing stops at",
        "Swap at most",
        "Any card of the rank",
        "Fewest blocked tricks",
        "The dealer's hook",
        "Following the lead",
        "Follow suit or trump",
    ):
        assert words in wizard, words
    for code in ("Stock floor", "Rank match", "Zero bid points", "Suit_or", "Max swap"):
        assert code not in wizard, code


@pytest.mark.parametrize("key", KEYS)
def test_wizard_creates_the_workshop_with_a_preset_and_a_custom_sheet(owner, fac, key):
    kind = kinds.get(key)
    w = create(fac, kind)
    assert w.game == key and w.facilitator == owner
    t1, t2 = Table.objects.filter(workshop=w).order_by("number")
    first = next(iter(kind.presets))
    assert t1.preset == first and t1.rules == kind.presets[first].to_dict()
    assert t2.preset == "custom"
    assert t2.rules == kind.rules_from_dict(custom_rules(kind)).to_dict()


class _FormValues(HTMLParser):
    """What a browser sends for a page's form: inputs' values, checked boxes and
    radios, each select's selected option (its first when none is)."""

    def __init__(self):
        super().__init__()
        self.data: dict[str, str] = {}
        self._select: str | None = None
        self._first: str | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in ("submit", "button"):
            if a.get("type") in ("radio", "checkbox"):
                if "checked" in a:
                    self.data[name] = a.get("value") or "on"
            else:
                self.data[name] = a.get("value") or ""
        elif tag == "select":
            self._select, self._first = name, None
        elif tag == "option" and self._select:
            value = a.get("value") or ""
            if self._first is None:
                self._first = value
            if "selected" in a:
                self.data[self._select] = value

    def handle_endtag(self, tag):
        if tag == "select" and self._select:
            self.data.setdefault(self._select, self._first or "")
            self._select = None


def form_values(response) -> dict[str, str]:
    parser = _FormValues()
    parser.feed(text(response))
    return parser.data


SETTINGS = (
    "game",
    "mode",
    "table_count",
    "seats_per_table",
    "round_seconds",
    "study_seconds",
    "home_seconds",
    "dispute_seconds",
    "bots_enabled",
    "leave_policy",
)


@pytest.mark.parametrize("key", KEYS)
def test_set_up_again_fills_the_wizard_as_the_workshop_was(owner, fac, key):
    """Another class, the same workshop: the wizard comes back filled in with its
    settings and each table's sheet (a preset, a custom sheet), its name left blank
    for the new class's own, and sent with a name makes the same workshop, with no
    players. The old name kept made two workshops of one name in the facilitator's
    list, and the new class's projector and report titled with the last class's."""
    kind = kinds.get(key)
    fac.post(
        "/workshops/new/",
        wizard_data(
            kind,
            mode="referee",
            round_minutes="7.5",
            study_minutes="2",
            home_minutes="1.5",
            dispute_seconds="30",
            leave_policy="skip",
        ),
    )
    old = Workshop.objects.get()
    services.player_join(workshop_id=old.pk, name="Ann")
    assert f'href="/workshops/new/?like={old.pk}"' in text(fac.get("/"))
    r = fac.get(f"/workshops/new/?like={old.pk}")
    assert r.status_code == 200
    assert f"Filled in as “<bdi>{old.name}</bdi>” was set up, each table's sheet as it was" in page(
        r
    )
    assert "give this class its own name" in page(r)
    values = form_values(r)
    assert values["name"] == ""
    # Minutes as they were typed: whole ones without a tenth ("2.0" read oddly beside
    # "1.5" and the new wizard's "5").
    assert (values["study_minutes"], values["home_minutes"], values["round_minutes"]) == (
        "2",
        "1.5",
        "7.5",
    )
    # Sent without one: the name is asked for, nothing is made.
    refused = fac.post("/workshops/new/", values)
    assert refused.status_code == 400 and 'id="id_name_error"' in page(refused)
    assert Workshop.objects.count() == 1
    sent = fac.post("/workshops/new/", {**values, "name": "Thursday's class"})
    assert sent.status_code == 302, text(sent)[:3000]
    new = Workshop.objects.exclude(pk=old.pk).get()
    assert new.name == "Thursday's class" and new.code != old.code
    assert [getattr(new, f) for f in SETTINGS] == [getattr(old, f) for f in SETTINGS]
    assert (new.mode, new.round_seconds, new.leave_policy) == ("referee", 450, "skip")

    def sheets(w):
        return [(t.preset, t.rules) for t in Table.objects.filter(workshop=w).order_by("number")]

    assert sheets(new) == sheets(old) and sheets(new)[1][0] == "custom"
    assert not new.players.exists()


def test_set_up_again_is_only_for_ones_own_workshops(owner, fac):
    other = User.objects.create_user("bea", password="a-long-pass-123")
    theirs = services.workshop_create(facilitator=other, name="Bea's class")
    assert fac.get(f"/workshops/new/?like={theirs.pk}").status_code == 404
    assert fac.get("/workshops/new/?like=12ab").status_code == 404
    assert fac.get("/workshops/new/?like=").status_code == 404
    assert fac.get("/workshops/new/?like=" + "9" * 30).status_code == 404
    assert Workshop.objects.count() == 1


def test_set_up_again_past_the_tables_one_may_choose_gives_automatic_sheets(owner, fac):
    """A conference's twenty tables of Five Tricks came with automatic sheets (17
    differ): set up again, they are automatic again, not twenty chosen ones."""
    w = services.workshop_create(facilitator=owner, name="Conference", table_count=20)
    r = fac.get(f"/workshops/new/?like={w.pk}")
    values = form_values(r)
    assert values["sheet_mode"] == "auto" and values["table_count"] == "20"
    values["name"] = "Conference, day 2"
    # Made another way (the load test's 200 tables, a round of 100 s): what the wizard
    # can take, the nearest it offers.
    big = services.workshop_create(
        facilitator=owner, name="Load", table_count=200, round_seconds=100
    )
    values_big = form_values(fac.get(f"/workshops/new/?like={big.pk}"))
    assert (values_big["table_count"], values_big["round_minutes"]) == ("40", "1.7")
    assert "each table's sheet as it was" not in page(r)
    assert fac.post("/workshops/new/", values).status_code == 302


@pytest.mark.parametrize("key", KEYS)
def test_wizard_refuses_a_seat_count_the_game_cannot_seat(fac, key):
    kind = kinds.get(key)
    bad = kind.max_seats + 1 if kind.max_seats < 8 else kind.min_seats - 1
    r = fac.post("/workshops/new/", wizard_data(kind, seats_per_table=str(bad)))
    assert r.status_code == 400
    body = page(r)
    assert 'id="id_seats_per_table_error"' in body
    if 2 <= bad <= 8:  # inside the form's own limits: the game's range is the message
        assert f"{kind.title} is played by" in body
    assert not Workshop.objects.exists()


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("side", ["below", "above"])
def test_a_seat_count_past_every_game_is_answered_with_this_games_range(key, side):
    """`manage.py demo --game seven_up --seats 9` was told "from 2 to 8" (every game's
    widest range), and 8 was then refused with "3 to 7"."""
    from django.core.management.base import CommandError

    kind = kinds.get(key)
    seats = 1 if side == "below" else 9
    with pytest.raises(CommandError) as info:
        call_command("demo", game=key, seats=seats, password="pw-demo-seats")
    assert str(info.value).startswith(f"{kind.title} is played by {kind.min_seats}")
    assert not Workshop.objects.exists()


@pytest.mark.parametrize("key", KEYS)
def test_wizard_refuses_a_custom_sheet_the_game_refuses(fac, key):
    kind = kinds.get(key)
    specs = forms.knob_specs(kind)
    ints = [k for k, (_, how, _) in specs.items() if how == "int"]
    data = wizard_data(kind)
    if ints:
        data[f"{forms.prefix(kind)}custom_2_{ints[0]}"] = "-5"
    else:
        # An empty choice where the game has no "none" value.
        knob = next(k for k, (_, _, ch) in specs.items() if all(v != "" for v, _ in ch))
        data[f"{forms.prefix(kind)}custom_2_{knob}"] = ""
    r = fac.post("/workshops/new/", data)
    assert r.status_code == 400
    assert f'id="id_{forms.prefix(kind)}sheet_2_error"' in text(r)
    assert not Workshop.objects.exists()
    # Said at the wrong knob itself, in words, every wrong knob, not the engine's.
    body = text(r)
    if ints:
        data[f"{forms.prefix(kind)}custom_2_{ints[-1]}"] = ""  # a second one, left blank
        body = text(fac.post("/workshops/new/", data))
        for knob in {ints[0], ints[-1]}:
            assert f'id="id_{forms.prefix(kind)}custom_2_{knob}_error"' in body, knob
        assert "Must be a whole number" in body and "not -5" not in body and "None" not in body
        assert "custom sheet has a mistake: see below" in body
        # Not a number at all: the field's own sentence, once, not "Enter a value." too.
        data[f"{forms.prefix(kind)}custom_2_{ints[-1]}"] = "abc"
        body = text(fac.post("/workshops/new/", data))
        errors = body.split(f'id="id_{forms.prefix(kind)}custom_2_{ints[-1]}_error"')[1].split(
            "</ul>"
        )[0]
        assert "Enter a whole number." in errors and "Enter a value." not in errors, errors


@pytest.mark.parametrize("key", KEYS)
def test_pages_report_and_exports_for_every_game(fac, key, tmp_path):
    kind = kinds.get(key)
    w = run_workshop(fac, kind)
    preset_title = kind.preset_titles[next(iter(kind.presets))]

    # ---- live pages while games are being played
    panel = page(fac.get(f"/workshops/{w.pk}/"))
    assert kind.title in panel and preset_title in panel and "Custom sheet" in panel
    assert 'id="fac-monitor"' in panel
    playing = Game.objects.filter(table__workshop=w, state=GameState.PLAYING).first()
    if playing is not None:
        assert f"Game {playing.number}{SEP}" in panel[panel.index('id="fac-monitor"') :]
    for number in (1, 2):
        r = fac.get(f"/workshops/{w.pk}/tables/{number}/")
        assert r.status_code == 200
        detail = page(r)
        assert kind.title in detail
        table = Table.objects.get(workshop=w, number=number)
        title = preset_title if number == 1 else "Custom sheet"
        assert title in detail
        assert kind.summary(table.rules) in detail
        for section in kind.sheet(table.rules)["sections"]:
            assert section["heading"] in detail
    # The table page of a game in progress shows every seat's hand.
    if playing is not None:
        detail = text(fac.get(f"/workshops/{w.pk}/tables/{playing.table.number}/"))
        assert detail.count('aria-label="Hand of ') == len(playing.players)

    r = fac.get(f"/workshops/{w.pk}/projector/")
    assert r.status_code == 200
    proj = page(r)
    assert kind.title in proj and w.code in proj
    for title in kind.preset_titles.values():
        assert title not in proj
    if key == "five_tricks":
        assert_no_secrets(text(r), w)

    # ---- the round ends: every game has an outcome; the debrief
    do(fac, w, "end-now")
    do(fac, w, "debrief")
    assert Workshop.objects.get(pk=w.pk).phase == Phase.DEBRIEF
    games = list(Game.objects.filter(table__workshop=w, round__kind="scored"))
    assert games and all(g.state != GameState.PLAYING for g in games)
    assert all(g.kind == key and len(g.scores) == len(g.players) for g in games)

    r = fac.get(f"/workshops/{w.pk}/report/")
    assert r.status_code == 200
    report = page(r)
    # The sheet's card names its preset (7Up7Down's name alone: the summary beside it
    # gives the knobs its title lists in brackets).
    assert kind.title in report
    assert kind.preset_names.get(next(iter(kind.presets)), preset_title) in report
    won = next(g for g in games if g.state == GameState.OVER)
    assert "Games won" in report
    # The single CSV tables offered: tricks, claims and disputes only where there are
    # any (for the other games they were a header and nothing else).
    offered = set(re.findall(r"report/(\w+)\.csv", text(r)))
    assert ({"tricks", "claims", "disputes"} <= offered) == kind.records_tricks, offered
    assert {"actions", "games", "moves", "seatings", "gestures", "players"} <= offered
    # Refused moves are kept where the table's rules decide what is legal.
    assert ("refusals" in offered) == (not kind.per_seat_rules), offered
    # Revokes and calls: All Fives' alone (a Barnga-mode workshop, as this is).
    assert ("revokes" in offered) == (key == "all_fives"), offered
    assert 'players.csv</a> <span class="muted">(one row per player' in text(r)
    # A sheet's line under its table says its title once (All Fives' summary is it).
    assert f"{preset_title}: {preset_title}" not in report
    if kind.records_tricks:
        assert 'id="disputes"' in report
    else:
        assert 'id="disputes"' not in report
        if key == "all_fives":  # its revoke calls are its record of the rules clashing
            assert 'id="revokes"' in report and "has no claims" not in report
        elif key == "seven_up":  # the tricks its players' home sheets judged differently
            assert "judged differently by the players' home sheets" in report
            assert "has no claims" not in report and 'id="revokes"' not in report
        else:
            assert "has no claims" in report and 'id="revokes"' not in report
        assert kind.score_label.capitalize() in report
        if key == "three_tricks":  # a count of blocked tricks (fewer wins at some tables)
            assert '<th scope="col">Blocked tricks</th>' in report and ">Points<" not in report
        # The finished game's scores, seat by seat, in the games list: Ann's seat is
        # the bot's that played it after she left.
        names = {
            p.pk: f"the bot in {p.name}'s seat"
            if p.left_at and p.left_at <= won.started_at
            else p.name
            for p in w.players.all()
        }
        # Listed with "and", as the game's winners are.
        line = said_as_list(
            [
                f"<bdi>{names[pid]}</bdi> {score}"
                for pid, score in zip(won.players, won.scores, strict=True)
            ]
        )
        assert line in report

    # ---- exports: JSON and CSV hold the kind and the scores
    doc = json.loads(fac.get(f"/workshops/{w.pk}/report.json").content)
    assert doc["workshop"]["game"] == key
    by_id = {g["id"]: g for g in doc["games"]}
    for g in games:
        assert by_id[g.pk]["kind"] == key
        assert by_id[g.pk]["scores"] == g.scores
    rows = list(
        csv.DictReader(io.StringIO(text(fac.get(f"/workshops/{w.pk}/report/games.csv"))[1:]))
    )
    row = next(r for r in rows if int(r["game_id"]) == won.pk)
    assert row["kind"] == key and row["scores"] == " ".join(str(s) for s in won.scores)
    # Its tricks: Five Tricks' records, All Fives' replayed (they were 0); the others
    # keep no tricks.
    if key == "five_tricks":
        assert row["tricks"] == str(len(by_id[won.pk]["tricks"])) != "0"
    elif key == "all_fives":
        # A finished game: every trick is in a scored hand.
        hands = gamestate.replay_log(won).history
        assert int(row["tricks"]) == sum(len(h.tricks) for h in hands) > 0
    elif key == "seven_up":
        # A finished match: every trick is in a finished deal (they were 0 too).
        deals = gamestate.replay_log(won).history
        assert int(row["tricks"]) == sum(len(d.tricks) for d in deals) > 0
    else:  # 3 Tricks: blocks and swaps, no tricks
        assert row["tricks"] == "0"
    # players.csv: the report's per-player figures, with this game's own columns (and
    # the others empty); Ann left, and a bot played on in her seat.
    players = list(
        csv.DictReader(io.StringIO(text(fac.get(f"/workshops/{w.pk}/report/players.csv"))[1:]))
    )
    table = report_figures.player_table(doc)
    assert len(players) == len(doc["players"]) == len(table["rows"])
    for row, figures in zip(players, table["rows"], strict=True):
        assert row["player_id"] == str(figures["id"])
        assert row["games_won"] == str(figures["games_won"])
        assert row["gestures_and_drawings"] == str(figures["gestures"])
        assert bool(row["disputes"]) == kind.records_tricks
        assert bool(row["revokes"]) == (key == "all_fives")
        assert bool(row["refused_moves"]) == (not kind.per_seat_rules)
    ann = next(row for row in players if row["player"] == "Ann")
    assert (ann["is_bot"], ann["has_left"]) == ("false", "true") and ann["left_at"]
    assert {row["is_bot"] for row in players if row["player"] != "Ann"} == {"true"}

    # ---- check_export replays every game from its seed and log
    path = tmp_path / "report.json"
    path.write_text(json.dumps(doc))
    out = io.StringIO()
    call_command("check_export", str(path), stdout=out)
    assert f"{len(doc['games'])} games: {len(doc['games'])} OK, 0 MISMATCH" in out.getvalue()

    tampered = json.loads(json.dumps(doc))
    bad = next(g for g in tampered["games"] if g["id"] == won.pk)
    bad["scores"][0] += 1  # Five Tricks too: its stored scores are its tricks won
    path.write_text(json.dumps(tampered))
    out, err = io.StringIO(), io.StringIO()
    assert check_export.run(str(path), out=out, err=err) == check_export.EXIT_MISMATCH
    assert re.search(rf"game {won.pk} \(.*\): MISMATCH", out.getvalue())
    with pytest.raises(SystemExit) as exit_:
        call_command("check_export", str(path), stdout=io.StringIO())
    assert exit_.value.code == check_export.EXIT_MISMATCH

    # A record garbled field by field is a mismatch saying what is wrong, never a
    # traceback (nor an exit status that says the file could not be read).
    garbage = ["x", 5, None, [], {}, [None], [["x"]], [{"cards": 5, "payload": "x"}]]
    essential = {"players", "winners", "seed", "state", "replay"} | (
        {"tricks", "tricks_won"} if key == "five_tricks" else {"scores", "actions"}
    )
    for field in sorted(k for k in by_id[won.pk] if k != "id"):
        for junk in garbage:
            garbled = json.loads(json.dumps(doc))
            next(g for g in garbled["games"] if g["id"] == won.pk)[field] = junk
            line = next(
                c.line() for c in check_export.check_document(garbled) if c.game_id == won.pk
            )
            older_export = field == "replay" and junk is None  # noted, not wrong
            if field in essential and junk != by_id[won.pk][field] and not older_export:
                assert "MISMATCH" in line, (field, junk, line)
    for field in ("tricks", "actions"):
        for junk in garbage:
            garbled = json.loads(json.dumps(doc))
            records = next(g for g in garbled["games"] if g["id"] == won.pk).get(field)
            if records:
                records[0] = junk
                check_export.check_document(garbled)  # raises nothing

    # ---- every game carries its input for `python -m games replay`, and the
    # command's result is the stored one
    for g in doc["games"]:
        assert g["replay"] is not None and g["replay"]["game"] == key
        out = replay_document(g["replay"])
        if key == "five_tricks":
            assert out["tricks_won"] == g["scores"]
        else:
            assert kind.replay_outcome(out)["scores"] == g["scores"]
        assert sorted(g["players"][s] for s in out["winners"]) == sorted(g["winners"])
    # A replay input that is not the game's (another deal) is a mismatch on its own.
    tampered = json.loads(json.dumps(doc))
    replay = next(g for g in tampered["games"] if g["id"] == won.pk)["replay"]
    if "deals" in replay:  # 7Up: the deals as dealt
        hands = replay["deals"][0]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    elif "hands" in replay:  # Five Tricks
        replay["hands"][0][0], replay["hands"][1][0] = replay["hands"][1][0], replay["hands"][0][0]
    else:
        replay["seed"] += 1
    path.write_text(json.dumps(tampered))
    out = io.StringIO()
    assert check_export.run(str(path), out=out, err=io.StringIO()) == check_export.EXIT_MISMATCH
    line = next(x for x in out.getvalue().splitlines() if x.startswith(f"game {won.pk} "))
    assert "MISMATCH" in line and ("replay command" in line or "hands" in line), line

    # ---- integrity: the stored rows replay; a changed score is caught
    count, problems = integrity.workshop_problems(w.pk)
    assert count == Game.objects.filter(table__workshop=w).count() and problems == []
    Game.objects.filter(pk=won.pk).update(scores=[s + 1 for s in won.scores])
    _, problems = integrity.workshop_problems(w.pk)
    assert any(f"game {won.pk} " in p and "scores" in p for p in problems), problems
    # Where, in the numbers the facilitator reads (not the database's ids).
    place = (
        f"game {won.pk} (workshop {w.code}, round {won.round.number}, "
        f"table {won.table.number}, game {won.number})"
    )
    assert any(p.startswith(place) for p in problems), problems


@pytest.mark.parametrize("key", KEYS)
def test_monitor_shows_scores_and_who_acts_but_no_hand(owner, fac, key):
    kind = kinds.get(key)
    w, (human,) = studying(fac, kind)
    services.player_leave(player_id=human.pk, policy="bot")
    do(fac, w, "start-home")
    for _ in range(6):
        timers.tick(timezone.now(), bot_delay=0)
    monitor = sf.monitor(w)
    game = Game.objects.filter(table__workshop=w, state=GameState.PLAYING).first()
    assert game is not None
    glance = next(t for t in monitor if t["number"] == game.table.number)
    state = gamestate.load_state(game)
    scores = kind.outcome(state)["scores"]
    by_id = {p["id"]: p for p in glance["players"]}
    for seat, pid in enumerate(game.players):
        expected = scores[seat]
        got = by_id[pid]["tricks"] if kind.records_tricks else by_id[pid]["score"]
        assert got == expected
    names = {p.pk: p.name for p in w.players.all()}
    # The seat the game waits for: while All Fives' revoke calls are open, to_act also
    # lists the seats that may only call one (ff1f83e), and the monitor leaves them out.
    to_act = [names[game.players[s]] for s in kind.to_act(state)[:1]]
    if to_act and not kind.records_tricks:
        assert glance["game"]["to_act"] == ", ".join(to_act)
    panel = text(fac.get(f"/workshops/{w.pk}/"))
    monitor_html = panel[panel.index('id="fac-monitor"') :]
    if not kind.records_tricks:
        first = by_id[game.players[0]]
        unit = kind.score_label if first["score"] != 1 else kind.score_label[:-1]
        assert f"{first['score']}{NBSP}{unit}{SEP}{first['games_won']}{NBSP}won" in monitor_html
    # No hand on the monitor: the spectator view's hands are only on the table page.
    # (Only this table's card: another table's trick may hold the same card faces.)
    start = monitor_html.index(f'id="mt-{game.table.number}"')
    table_html = monitor_html[start : monitor_html.index("</article>", start)]
    hands = sf.spectator(kind, state, [names[p] for p in game.players]).get("hands") or []
    face_up = {c["card"] for c in glance["game"]["current"]}
    for hand in hands:
        for card in hand:
            if card not in face_up:
                assert f">{card_face(card)}<" not in table_html


def test_the_monitor_says_which_deal_or_hand_a_table_is_at(owner, fac):
    """A 7Up match is 14 deals, an All Fives game hand after hand to 61: the monitor
    said "Game 1 · bid · Ana to act" all match long, so a facilitator timing the round
    could not tell a table at its second deal from one at its thirteenth, nor one in
    the blind deal. Five Tricks' line counts its tricks already."""
    import random

    from games import seven_up as su

    seven = kinds.get("seven_up")
    w, _ = studying(fac, seven)
    do(fac, w, "start-home")
    do(fac, w, "start-round")
    game = Game.objects.filter(table__workshop=w, state=GameState.PLAYING).order_by("pk")[0]

    def line() -> str:
        panel = text(fac.get(f"/workshops/{w.pk}/"))
        card = panel[panel.index(f'id="mt-card-{game.table.number}"') :]
        card = card[: card.index("</article>")]
        return re.search(r"<p class=\"muted\">(Game .*?)</p>", card, re.S).group(1)

    assert line().startswith(f"Game {game.number}{SEP}deal 1 of 14{SEP}bid"), line()
    rng = random.Random(4)

    def state_now():
        game.refresh_from_db()
        return gamestate.load_state(game)

    while (state := state_now()).deal_no < su.BLIND_DEAL:
        seat = seven.to_act(state)[0]
        move = {k: v for k, v in su.choose_action(state, seat, rng).items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
    assert line().startswith(f"Game {game.number}{SEP}deal 8 of 14, blind deal{SEP}bid"), line()

    fives = kinds.get("all_fives")
    state = fives.new_state(table_rules={}, seat_rules=[{}] * 3, mode="barnga", seed=3)
    assert fives.stage(state) == "hand 1"
    assert kinds.get("three_tricks").stage(None) == ""


def test_monitor_counts_one_point_in_the_singular():
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    row = {
        "name": "Ann",
        "is_bot": False,
        "has_left": False,
        "connected": True,
        "tricks": None,
        "games_won": 0,
    }
    table = {
        "number": 1,
        "score_label": "points",
        "game": None,
        "games_note": "",
        "players": [{**row, "score": 1}, {**row, "name": "Ben", "score": 2}],
    }
    html = render_to_string(
        "facilitator/_monitor.html", {"monitor": [table], "workshop": SimpleNamespace(pk=1)}
    )
    assert f"1{NBSP}point{SEP}0{NBSP}won" in html and f"2{NBSP}points{SEP}0{NBSP}won" in html


def test_the_monitor_writes_a_name_as_text_in_its_rows_and_its_labels():
    """The monitor is a Jinja2 template (it is redrawn about once a second at 200
    tables): a name is escaped wherever it is written, a card's label included."""
    from types import SimpleNamespace

    from django.template.loader import render_to_string

    name = '<img src=x onerror="go()">'
    row = {
        "name": name,
        "is_bot": False,
        "has_left": False,
        "connected": True,
        "tricks": 1,
        "score": None,
        "games_won": 0,
    }
    game = {
        "current": [{"card": "AS", "name": name}],
        "records_tricks": True,
        "number": 1,
        "tricks_played": 0,
        "phase": "play",
        "to_act": name,
        "dispute": False,
    }
    table = {"number": 7, "score_label": "points", "game": game, "games_note": "", "players": [row]}
    html = render_to_string(
        "facilitator/_monitor.html", {"monitor": [table], "workshop": SimpleNamespace(pk=3)}
    )
    assert "<img" not in html and "go()" in html
    assert html.count("<bdi>&lt;img src=x onerror=&#34;go()&#34;&gt;</bdi>") == 3
    assert 'aria-label="ace of spades played by &lt;img src=x onerror=&#34;go()&#34;&gt;"' in html
    assert 'href="/workshops/3/tables/7/"' in html and f"1{NBSP}trick{SEP}0{NBSP}won" in html


@pytest.mark.django_db
@pytest.mark.parametrize("key", ["all_fives", "three_tricks"])
def test_the_recorded_dealer_is_the_one_the_seeds_cut_chose(key, monkeypatch):
    """All Fives and 3 Tricks cut for the first dealer from the game's seed, but the game
    row (and the export's `dealer`) named the last seat whatever the cut said."""
    kind = kinds.get(key)
    n = kind.min_seats

    def first_dealer(seed):
        seats = [{}] * n
        return kind.new_state(table_rules={}, seat_rules=seats, mode="barnga", seed=seed).dealer

    seed = next(s for s in range(100) if first_dealer(s) != n - 1)
    monkeypatch.setattr("tournament.services.play.secrets.randbits", lambda bits: seed)
    w = services.workshop_create(name="Cut", game=key, table_count=1, seats_per_table=n)
    for i in range(n):
        services.player_join(workshop_id=w.pk, name=f"P{i}")
    services.players_seat_home(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    game = Game.objects.get(table__workshop=w)
    assert game.seed == seed
    assert game.dealer_id == game.players[first_dealer(seed)] != game.players[-1]
    from tournament.export import workshop_document

    doc = workshop_document(w)
    assert doc["games"][0]["dealer"] == game.players[first_dealer(seed)]


def test_a_score_of_one_is_one_point_on_the_tables_page(fac):
    """All Fives' eldest begs and the dealer gives one point: the table's page said
    "1 points"."""
    w, _ = studying(fac, kinds.get("all_fives"), names=("Ann", "Ben"))
    game = Game.objects.filter(table__workshop=w, state=GameState.PLAYING).first()
    state = gamestate.load_state(game)
    services.game_act(player_id=game.players[state.to_act], move={"type": "beg"})
    state = gamestate.load_state(Game.objects.get(pk=game.pk))
    services.game_act(player_id=game.players[state.to_act], move={"type": "take_one"})
    state = gamestate.load_state(Game.objects.get(pk=game.pk))
    assert sorted(state.scores)[-1] == 1
    detail = text(fac.get(f"/workshops/{w.pk}/tables/{game.table.number}/"))
    assert re.search(re.escape(SEP) + r"1 point(?!s)", detail)
    assert not re.search(r"(?<!\d)1 points", detail) and f"{SEP}0 points" in detail


def test_the_other_games_table_page_says_cards_suits_and_names_in_words():
    """The table page of All Fives, 3 Tricks and 7Up7Down read "Trump: S", "seat rules
    3 items" and cards as bare faces ("3 black spade suit"). A name is still text."""
    from tournament.selectors_facilitator import generic_spectator, spectator
    from tournament.templatetags.cards import card_name

    kind = kinds.get("all_fives")
    names = ["<b>Ana</b>", "Bo", "Cai"]
    state = kind.new_state(table_rules={}, seat_rules=[{}] * 3, mode="barnga", seed=3)
    laid = generic_spectator(spectator(kind, state, names), names, kind.to_act(state))
    facts = {f["label"]: str(f["value"]) for f in laid["facts"]}
    assert facts["Trump"] in ("spades", "hearts", "diamonds", "clubs"), facts["Trump"]
    assert "seat rules" not in facts["Config"] and "items" not in facts["Config"]
    turn_up = state.turn_up
    assert facts["Turn up"] == (
        f'<span aria-hidden="true">{card_face(turn_up)}</span>'
        f'<span class="visually-hidden">{card_name(turn_up)}</span>'
    )
    # The cut's cards by name, and a name beside them escaped, not markup.
    assert "&lt;b&gt;Ana&lt;/b&gt;" in facts["Cut"] and "<b>" not in facts["Cut"]
    cut = [card for draw in state.cut for _seat, card in draw]
    assert cut and all(
        f'<span class="visually-hidden">{card_name(c)}</span> (' in facts["Cut"] for c in cut
    )


def test_a_table_pages_log_is_a_named_stop_that_scrolls_sideways(fac):
    """At 200 % zoom or on a phone the tricks' log scrolls sideways in a box that had no
    name and could not be reached by keyboard."""
    import random

    kind = kinds.get("all_fives")
    w, _ = studying(fac, kind)
    game = Game.objects.filter(table__workshop=w, state=GameState.PLAYING).first()
    rng = random.Random(3)
    for _ in range(40):
        state = gamestate.load_state(Game.objects.get(pk=game.pk))
        if state.tricks:
            break
        seat = kind.to_act(state)[0]
        move = {k: v for k, v in kind.bot_action(state, seat, rng).items() if k != "seat"}
        services.game_act(player_id=game.players[seat], move=move)
    assert state.tricks, "no trick played"
    detail = text(fac.get(f"/workshops/{w.pk}/tables/{game.table.number}/"))
    assert (
        '<div class="scroll" tabindex="0" role="region" aria-labelledby="log-caption-1">' in detail
    )
    assert '<caption class="visually-hidden" id="log-caption-1">Tricks</caption>' in detail


def test_the_other_games_table_page_counts_deals_from_one_and_names_no_winner_mid_game():
    """7Up's table page said "Deal 0" (the engine's index) beside "N deals 14", and
    3 Tricks' said "Winners: Bea" in the middle of a game (the count so far), with
    "Outcome —", "Draw no" and "Complete no" besides."""
    import random

    from tournament.selectors_facilitator import generic_spectator, spectator

    def facts(kind, state, names):
        laid = generic_spectator(spectator(kind, state, names), names, kind.to_act(state))
        return {f["label"]: str(f["value"]) for f in laid["facts"]}

    seven = kinds.get("seven_up")
    names = ["Ana", "Bea", "Cai"]
    state = seven.new_state(table_rules={}, seat_rules=[{}] * 3, mode="barnga", seed=3)
    told = facts(seven, state, names)
    assert told["Deal"] == "1 of 14" and "N deals" not in told, told
    # Two deals on, the score sheet's rows are deals 1 and 2 too (as on the phones),
    # under "Deal 3 of 14".
    rng = random.Random(2)
    while len(state.history) < 2:
        state, _ = seven.apply(state, seven.bot_action(state, seven.to_act(state)[0], rng))
    laid = generic_spectator(spectator(seven, state, names), names, seven.to_act(state))
    assert {f["label"]: f["value"] for f in laid["facts"]}["Deal"] == "3 of 14"
    sheet = next(log for log in laid["logs"] if "Deal" in log["columns"])
    column = sheet["columns"].index("Deal")
    assert [row[column] for row in sheet["rows"]] == ["1", "2"], sheet["rows"]

    three = kinds.get("three_tricks")
    names = ["Ana", "Bea"]
    state = three.new_state(table_rules={}, seat_rules=[{}] * 2, mode="barnga", seed=3)
    rng, ahead = random.Random(1), None
    while not three.is_over(state):
        told = facts(three, state, names)
        assert not {"Winners", "Outcome", "Draw", "Complete"} & set(told), told
        ahead = ahead or told.get("Ahead so far")
        state, _ = three.apply(state, three.bot_action(state, three.to_act(state)[0], rng))
    assert ahead in names, "no one was ahead at any turn"
    told = facts(three, state, names)
    assert told["Winners"] and "Ahead so far" not in told and "Complete" not in told, told
    assert told["Outcome"] != "—", told

    fives = kinds.get("all_fives")
    state = fives.new_state(table_rules={}, seat_rules=[{}] * 3, mode="barnga", seed=3)
    assert facts(fives, state, ["Ana", "Bea", "Cai"])["Hand"] == "1"


def test_the_7up_table_page_shows_each_past_deals_hands_on_its_row_of_the_sheet():
    """The table page had a fact "Sheet hands": every past deal's hands run on as one
    paragraph ("Ana A♠ … · Bea … | Ana 5♣ …"), no deal named. Each deal's hands are a
    column of its row of the score sheet."""
    import random

    from tournament.selectors_facilitator import generic_spectator, spectator

    seven = kinds.get("seven_up")
    names = ["Ana", "Bea", "Cai"]
    state = seven.new_state(table_rules={}, seat_rules=[{}] * 3, mode="barnga", seed=3)
    rng = random.Random(2)
    while len(state.history) < 2:
        state, _ = seven.apply(state, seven.bot_action(state, seven.to_act(state)[0], rng))
    laid = generic_spectator(spectator(seven, state, names), names, seven.to_act(state))
    assert not [f for f in laid["facts"] if "hands" in f["label"].lower()], laid["facts"]
    sheet = next(log for log in laid["logs"] if "Deal" in log["columns"])
    column = sheet["columns"].index("Hands")
    for row, deal in zip(sheet["rows"], state.history, strict=True):
        cell = html.unescape(re.sub(r"<[^>]+>", "", str(row[column])))
        for name, hand in zip(names, deal.hands, strict=True):
            assert name in cell and all(card_face(c) in cell for c in hand), cell


def test_a_fact_per_seat_on_a_table_page_parts_its_seats_with_a_pause_not_a_middle_dot():
    """A generic game's table page lays a value per seat out as "Ana … · Bea …" (7Up's
    bids and hands on its score sheet): a screen reader said "middle dot" between the
    seats."""
    import random

    from tournament.selectors_facilitator import generic_spectator, spectator

    seven, names = kinds.get("seven_up"), ["Ana", "Bea", "Cai"]
    state = seven.new_state(table_rules={}, seat_rules=[{}] * 3, mode="barnga", seed=3)
    rng, per_seat = random.Random(1), []
    for _ in range(60):  # a deal or so, until a value per seat is laid out
        laid = generic_spectator(spectator(seven, state, names), names, seven.to_act(state))
        facts = [str(f["value"]) for f in laid["facts"]]
        facts += [str(cell) for log in laid["logs"] for row in log["rows"] for cell in row]
        per_seat += [v for v in facts if v.startswith("Ana ") and "Bea " in v and "Cai " in v]
        state, _ = seven.apply(state, seven.bot_action(state, seven.to_act(state)[0], rng))
    assert per_seat, "no value per seat laid out in 60 moves"
    for value in per_seat:
        assert value.startswith("Ana ") and f"{SEP}Cai " in value
        assert "·" not in value.replace(SEP, ""), value

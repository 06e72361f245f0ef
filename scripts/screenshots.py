"""Regenerate the README's screenshots: the phone table, the projector view, the debrief report.

Run with `bash scripts/screenshots.sh`. It builds two workshops in a fresh
SQLite file (one in a round with bots and one human seat, one finished and
debriefed by bots), serves them with Daphne on a free port and photographs
them with Chromium. Output: docs/screenshots/*.png.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from datetime import timedelta
from pathlib import Path
from unittest import mock

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
sys.path.insert(0, str(ROOT))
WORK = Path(tempfile.mkdtemp(prefix="barnga-shots-"))
ENV = {
    "DATABASE_URL": f"sqlite:///{WORK / 'shots.sqlite3'}",
    "BARNGA_RUN_TIMERS": "1",
    "BARNGA_BOT_DELAY": "0.8",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "REDIS_URL": "",
}
os.environ.update(ENV)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "barnga.settings")
os.environ["BARNGA_RUN_TIMERS"] = "0"  # this process drives its own clock

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.utils import timezone  # noqa: E402

from tournament import services, timers  # noqa: E402
from tournament.identity import COOKIE, signed_cookie_value  # noqa: E402
from tournament.loadtest.servers import free_port, start_daphne, stop, wait_healthy  # noqa: E402
from tournament.models import Round, Workshop  # noqa: E402

PASSWORD = "screenshots-only"


class SimulatedClock:
    """The time the finished workshop is played in: every service and the timer ticks
    read it, so claim steps, disputes and deadlines agree (with the real clock the
    ticks ran ahead of the services and every claim step timed out at once)."""

    def __init__(self) -> None:
        self.at = timezone.now()

    def __call__(self):
        return self.at

    def play_for(self, seconds: int) -> None:
        """Let the bots play `seconds` of simulated time, one tick per second."""
        for _ in range(seconds):
            self.at += timedelta(seconds=1)
            timers.tick(now=self.at, bot_delay=0)


def finished_workshop(user) -> Workshop:
    clock = SimulatedClock()
    with mock.patch("django.utils.timezone.now", clock):
        w = services.workshop_create(
            name="Tuesday seminar",
            facilitator=user,
            table_count=3,
            seats_per_table=5,
            round_seconds=300,
            seed=5,
        )
        Workshop.objects.filter(pk=w.pk).update(bots_enabled=True)
        services.bots_fill(workshop_id=w.pk)
        services.workshop_start_study(workshop_id=w.pk)
        clock.play_for(60)
        services.workshop_start_home(workshop_id=w.pk)
        clock.play_for(60)
        for _ in range(2):
            rnd = services.round_start(workshop_id=w.pk)
            clock.play_for(240)
            services.round_end_now(round_id=rnd.pk)
            services.movement_apply(round_id=Round.objects.get(pk=rnd.pk).pk)
        services.workshop_start_debrief(workshop_id=w.pk)
    return w


def live_workshop(user):
    w = services.workshop_create(
        name="Demo workshop",
        facilitator=user,
        table_count=3,
        seats_per_table=4,
        round_seconds=600,
        seed=11,
    )
    Workshop.objects.filter(pk=w.pk).update(bots_enabled=True)
    human = services.player_join(workshop_id=w.pk, name="Sam")
    services.players_seat_home(workshop_id=w.pk)
    services.bots_fill(workshop_id=w.pk)
    services.workshop_start_study(workshop_id=w.pk)
    services.workshop_start_home(workshop_id=w.pk)
    services.round_start(workshop_id=w.pk)
    return w, human


def main() -> None:
    call_command("migrate", verbosity=0)
    user = get_user_model().objects.create_user("demo", password=PASSWORD)
    report_workshop = finished_workshop(user)
    workshop, human = live_workshop(user)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    server = start_daphne(port, {**ENV}, WORK / "daphne.log")
    try:
        wait_healthy(url, server)
        shoot(url, workshop, human, report_workshop)
    finally:
        stop(server)
        shutil.rmtree(WORK, ignore_errors=True)


def shoot(url, workshop, human, report_workshop) -> None:
    from playwright.sync_api import sync_playwright

    sys.path.insert(0, str(ROOT / "tests" / "e2e"))
    from conftest import CHROMIUM_ARGS, chromium_path

    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        phone = browser.new_context(
            viewport={"width": 390, "height": 844},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
        )
        phone.add_cookies([{"name": COOKIE, "value": signed_cookie_value(human.token), "url": url}])
        page = phone.new_page()
        page.goto(f"{url}/play/")
        # Wait until Sam holds cards and the table has something on it.
        page.wait_for_selector(".hand .card", timeout=30000)
        for _ in range(60):  # Sam plays when it is Sam's turn, as a person would
            if page.locator(".trick .card").count() >= 2:
                break
            if page.locator(".hand .card.legal").count():
                page.locator(".hand .card.legal").first.click()
            page.wait_for_timeout(500)
        page.screenshot(path=str(OUT / "phone-table.png"))

        laptop = browser.new_context(viewport={"width": 1280, "height": 760})
        fac = laptop.new_page()
        fac.goto(f"{url}/login/")
        fac.fill("#id_username", "demo")
        fac.fill("#id_password", PASSWORD)
        fac.click("form [type=submit]")
        fac.wait_for_load_state()
        fac.goto(f"{url}/workshops/{workshop.pk}/projector/")
        fac.wait_for_selector("#fac-live[data-updated]", timeout=15000)
        fac.screenshot(path=str(OUT / "projector.png"))
        fac.set_viewport_size({"width": 1280, "height": 1500})
        fac.goto(f"{url}/workshops/{report_workshop.pk}/report/")
        fac.wait_for_load_state("networkidle")
        fac.screenshot(path=str(OUT / "report.png"))
        browser.close()
    for name in ("phone-table.png", "projector.png", "report.png"):
        print(OUT / name)


if __name__ == "__main__":
    main()

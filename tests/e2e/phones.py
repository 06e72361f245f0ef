"""What the browser tests do with a phone page: join, and wait for its screen's version."""

from __future__ import annotations


def join(page, url, code, name):
    page.goto(f"{url}/j/{code}")
    page.fill("#name", name)
    page.click("button[type=submit]")
    page.wait_for_selector("#screen")


def version(page) -> int:
    return int(page.locator("#screen").get_attribute("data-version"))


def wait_version(page, at_least: int, timeout=5000):
    page.wait_for_function(
        "v => Number(document.getElementById('screen').dataset.version) >= v",
        arg=at_least,
        timeout=timeout,
    )


def wait_change(page, before: int, timeout=5000):
    """Until the screen shows a newer version than `before`."""
    wait_version(page, before + 1, timeout=timeout)


def dealt_table(live_server_url, phone, workshop, names):
    """A phone per name joins `workshop`, everyone is seated at home and the study
    phase deals. Returns the pages by name, the game and its players' names by seat."""
    from tournament import services
    from tournament.models import Game, GameState, Player

    pages = {}
    for name in names:
        pages[name] = phone()
        join(pages[name], live_server_url, workshop.code, name)
    services.players_seat_home(workshop_id=workshop.pk)
    services.workshop_start_study(workshop_id=workshop.pk)
    game = Game.objects.get(state=GameState.PLAYING)
    return pages, game, [Player.objects.get(pk=pid).name for pid in game.players]

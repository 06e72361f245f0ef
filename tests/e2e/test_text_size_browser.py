"""The pages' text follows the browser's own text size (static/css/barnga.css).

The root size was a fixed 18 px: a facilitator or student who sets a larger default
size in the browser got 18 px all the same. It is now 112.5 % of the browser's size:
18 px at the usual 16, and larger for whoever asks for larger. Checked in Chromium
with a profile whose default font size is set, as its settings page sets it.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytestmark = pytest.mark.browser

CSS = (Path(__file__).resolve().parents[2] / "static" / "css" / "barnga.css").read_text()


def text_sizes(chromium, profile: Path, default_size: int) -> tuple[str, str]:
    """(root, a card's name label) font sizes in a browser set to `default_size` px."""
    from playwright.sync_api import sync_playwright

    (profile / "Default").mkdir(parents=True)
    prefs = {"webkit": {"webprefs": {"default_font_size": default_size}}}
    (profile / "Default" / "Preferences").write_text(json.dumps(prefs))
    with sync_playwright() as p:
        path, args = chromium
        ctx = p.chromium.launch_persistent_context(
            str(profile), executable_path=path, args=args, headless=True
        )
        try:
            page = ctx.new_page()
            page.set_content(
                f"<html><head><style>{CSS}</style></head><body>"
                '<div class="card"><span class="by">Ana</span></div></body></html>'
            )
            return page.evaluate(
                "[getComputedStyle(document.documentElement).fontSize,"
                " getComputedStyle(document.querySelector('.card .by')).fontSize]"
            )
        finally:
            ctx.close()


def test_the_root_text_size_follows_the_browsers_setting(chromium, tmp_path):
    assert text_sizes(chromium, tmp_path / "usual", 16)[0] == "18px"
    root, label = text_sizes(chromium, tmp_path / "larger", 24)
    assert root == "27px"
    assert float(label.removesuffix("px")) > 18  # everything sized in rem grows with it

"""axe-core (through axe-playwright-python, which bundles it) on a page as it is:
its WCAG A/AA rules and best practices, and no template syntax left in the text."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe

AXE = Axe()
TEMPLATE_SYNTAX = ("{#", "#}", "{%", "%}", "{{", "}}")


def assert_accessible(page, where: str) -> None:
    results = AXE.run(page)
    assert results.violations_count == 0, f"{where} ({page.url}):\n{results.generate_report()}"
    # A template's syntax left in the page (a comment over several lines, which Django
    # does not allow with {# #}) is read out to the class and read aloud.
    text = page.inner_text("body")
    leaked = [s for s in TEMPLATE_SYNTAX if s in text]
    assert not leaked, f"{where} ({page.url}) shows template syntax {leaked}:\n{text[:600]}"

"""The Jinja2 environment for the one template rendered on every change: a phone's
screen (templates/jinja2/play/_screen.html).

Every action re-renders the screen of each seat at its table; with Django's template
language that render was over a third of a web process's work under load. The
markup is the same; the other games' parts (templates/play/games/*.html) stay in
Django's language and are included with `dtl()`.
"""

from __future__ import annotations

from django.template.defaultfilters import pluralize
from django.template.loader import get_template
from jinja2 import ChainableUndefined, Environment, pass_context
from markupsafe import Markup

from tournament.templatetags.cards import card_colour, card_face, card_name, seconds


@pass_context
def dtl(context, template_name: str) -> Markup:
    """Render a Django template with this screen's context (a game's own part)."""
    return Markup(get_template(template_name, using="django").render(context.get_all()))


def environment(**options) -> Environment:
    options.setdefault("undefined", ChainableUndefined)  # as Django's: missing is empty
    env = Environment(**options)
    env.filters.update(
        card_face=card_face, card_name=card_name, card_colour=card_colour,
        seconds=seconds, pluralize=pluralize,
    )
    env.globals["dtl"] = dtl
    return env

"""The Jinja2 environment for the one template rendered on every change: a phone's
screen (templates/jinja2/play/_screen.html).

Every action re-renders the screen of each seat at its table; with Django's template
language that render was over a third of a web process's work under load. The
markup is the same. The other games' parts (templates/jinja2/play/games/*.html)
are Jinja2 too: in Django's language 7Up7Down's part (its score sheet a table of
deals by players by four columns) was 70 % of a web process's time under load
(`loadtest --game seven_up`). So are the facilitator's panel's regions
(templates/jinja2/facilitator/): the monitor, redrawn about once a second while 200
tables play, 48 ms in Django's language at 1,000 players and 6.5 ms here; the
roster, redrawn on every join and reconnection, 200 ms and 38 ms.
"""

from __future__ import annotations

from django.template.defaultfilters import floatformat, yesno
from django.template.defaultfilters import pluralize as django_pluralize
from django.urls import reverse
from jinja2 import ChainableUndefined, Environment, Template
from markupsafe import _escape_inner

from tournament.errors import goes_on, paused_said
from tournament.names import LEFT_BOT_SEAT, said_as_list
from tournament.templatetags.cards import (
    card_colour,
    card_face,
    card_index,
    card_name,
    seconds,
)
from tournament.templatetags.facilitator import arrow, clock, dot, say_now


def output_escape(value) -> str:
    """What a `{{ … }}` writes, as markupsafe.escape would, but as plain text.

    The compiled screen calls `escape` only on what it yields, and the yielded pieces
    are joined as text, so they need not be Markup objects: building one for each of
    the screen's ~80 values (Markup.__new__, a `__html__` probe on ints) was half
    the render's time (py-spy at 1,000 players: escape ~10 % of a web process's GIL
    time). Same text: test_jinja_screen renders every seat both ways."""
    kind = type(value)
    if kind is str:
        return _escape_inner(value)
    if kind is int:
        return str(value)  # digits and a sign: nothing to escape
    html = getattr(value, "__html__", None)
    if html is not None:  # Markup, Django's SafeString, Undefined: already safe
        return html()
    return _escape_inner(str(value))


class _Isle(str):
    """A name already escaped and set in its <bdi> (tournament/templatetags/names.py):
    written as it is. A plain str subclass: building Markup, or Django's SafeString
    through its lazy-aware helpers, made the filter cost more than the rest of a
    name's output."""

    __slots__ = ()

    def __html__(self) -> str:
        return str(self)


def bdi(name) -> _Isle:
    """names.bdi for the screen: the same element, escaped as the screen escapes."""
    return _Isle(f"<bdi>{output_escape(name)}</bdi>")


def bdi_join(names, separator: str = ", ") -> _Isle:
    return _Isle(output_escape(separator).join(bdi(name) for name in names))


def bdi_and(names) -> _Isle:
    """Names said as "Ana", "Ana and you", "Ana, Bea and you", each its own island."""
    return _Isle(said_as_list([bdi(name) for name in names]))


def words_and(words) -> str:
    """Words (not names) as a sentence lists them, escaped as any text: "2 and 3" (the
    Django templates' said_as_list)."""
    return said_as_list([str(w) for w in words])


class ScreenTemplate(Template):
    @classmethod
    def from_code(cls, environment, code, globals, uptodate=None):
        template = super().from_code(environment, code, globals, uptodate)
        # The compiled module's own name for the output escape (its functions'
        # globals are that module's namespace); every `escape(` Jinja2 generates
        # there is an output statement.
        template.root_render_func.__globals__["escape"] = output_escape
        return template


def url(name: str, *args) -> str:
    """Django's {% url name arg … %}: the path of a named view."""
    return reverse(name, args=args)


def pluralize(value, arg: str = "s") -> str:
    """Django's pluralize, with the screen's case (a count) taken first."""
    if type(value) is int and "," not in arg:
        return "" if value == 1 else arg
    return django_pluralize(value, arg)


class ScreenEnvironment(Environment):
    """`a.b` on a dict looks up the key first, as Django's templates do.

    Jinja2 tries the attribute first, and the AttributeError it raises and catches
    for every `game.seats`, `s.name`, `c.card` on the screen's dicts was a tenth of a
    web process's time under load. Keys that are also dict methods (`items`…)
    therefore mean the key, as in the Django templates this screen came from.
    """

    template_class = ScreenTemplate

    def getattr(self, obj, attribute):
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                if not hasattr(dict, attribute):
                    return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def environment(**options) -> Environment:
    # As Django's templates: a missing name is empty, and so is anything after it.
    # Set, not defaulted: Django's backend has already put Undefined (or, with DEBUG,
    # DebugUndefined, which prints the missing name on a phone) in the options.
    options["undefined"] = ChainableUndefined
    env = ScreenEnvironment(**options)
    env.filters.update(
        card_face=card_face,
        card_name=card_name,
        card_colour=card_colour,
        card_index=card_index,
        seconds=seconds,
        clock=clock,
        pluralize=pluralize,
        bdi=bdi,
        bdi_join=bdi_join,
        bdi_and=bdi_and,
        said_as_list=words_and,
        floatformat=floatformat,
        yesno=yesno,
    )
    env.globals["arrow"] = arrow  # as {% arrow %} on the facilitator's pages
    env.globals["url"] = url  # as {% url %}
    env.globals["say_now"] = say_now  # as {% say_now %}
    env.globals["dot"] = dot  # as {% dot %}
    # The words a move is refused with while paused, in the workshop's phase: said by
    # the phone itself for a tap on a move marked data-paused (table.js), never sent;
    # and what a paused player waits for ("Your turn when play continues.").
    env.globals["paused_said"] = paused_said
    env.globals["goes_on"] = goes_on
    env.globals["left_bot_seat"] = LEFT_BOT_SEAT  # names.py: words the selectors say too
    return env

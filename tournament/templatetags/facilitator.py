"""Small filters and tags for the facilitator's templates (the arrow is also on a phone's screen)."""

import re

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()


@register.filter
def clock(seconds) -> str:
    """Seconds as m:ss (what the countdown shows before its script takes over)."""
    if seconds is None:
        return ""
    left = max(0, round(float(seconds)))
    return f"{left // 60}:{left % 60:02d}"


@register.simple_tag
def say_now(phase_label: str, round, phase: str) -> str:
    """The sentence a screen reader is told when the situation changes by itself
    (facilitator.js): the phase, and the round paused, over or under way."""
    sentence = f"Now: {phase_label}"
    if round:
        if round.get("paused"):
            sentence += f", {round['label']} paused"
        elif round.get("finished"):
            sentence += f", {round['label']} over"
        elif phase == "round":
            sentence += f", {round['label']}"
    return sentence + "."


ARROW = "→"


def _spoken_arrow(word: str) -> str:
    return (
        f'<span aria-hidden="true">{ARROW}</span>'
        f'<span class="visually-hidden">{conditional_escape(word)}</span>'
    )


@register.simple_tag
def arrow(word: str) -> str:
    """An arrow the eye sees and a screen reader hears as `word` ("to", "then"):
    read aloud, "→" is "right arrow"."""
    return mark_safe(_spoken_arrow(word))


@register.simple_tag
def dot(pause: str = "; ") -> str:
    """A " · " between two parts of a line, for the eye only: read aloud it is "middle
    dot" (the join line's "Join code K7QD · 12 players · joining open"). A screen reader
    hears `pause` instead; with none (where the line's words are read as drawn) a plain
    space after the hidden dot still parts the words: without it a reader runs the text
    on each side together ("Scored roundRound 1")."""
    if not pause:
        return mark_safe('<span aria-hidden="true"> ·</span> ')
    heard = conditional_escape(pause)
    return mark_safe(
        f'<span aria-hidden="true"> · </span><span class="visually-hidden">{heard}</span>'
    )


@register.filter
def arrows(text, word: str) -> str:
    """`text` escaped, each " → " in it heard as `word` (the report's journeys)."""
    parts = [conditional_escape(p) for p in str(text).split(f" {ARROW} ")]
    return mark_safe(f" {_spoken_arrow(word)} ".join(parts))


FOLD_FORM = '{% fold "id" [more of the id] [csv="name.csv"] %}'
# A keyword option (`csv="x"`, `cvs=x`, a bare `=`), not a quoted part of the id.
_OPTION = re.compile(r"(?P<name>\w*)=")


@register.tag
def fold(parser, token):
    """A large class's report folds a long part (report.FOLD_TABLES, FOLD_PLAYERS):

        {% fold "res-" rd.round "-tables" csv="games.csv" %}SUMMARY{% left_out %}WHAT{% endfold %}
        ...the part...
        </details>

    opens a closed <details class="print-if-open fold"> with SUMMARY as its summary,
    after a line seen only in print: "WHAT is left out of print: open
    “SUMMARY” on screen before printing to include it, or see games.csv." A fold
    opened on screen prints, and the line does not (report.css); to a screen reader
    the line is hidden as on screen, and the summary says what opens. The id is its
    parts put together. The caller closes the <details>. `csv` may be empty: no file
    is named (the class's view links none). csv= anywhere but last, or any other
    option, is a TemplateSyntaxError that says so."""
    bits = token.split_contents()[1:]
    csv = None
    if bits and bits[-1].startswith("csv=") and bits[-1] != "csv=":
        csv = parser.compile_filter(bits.pop().removeprefix("csv="))
    if not bits:
        raise template.TemplateSyntaxError(f"{{% fold %}} needs an id: {FOLD_FORM}")
    for bit in bits:
        # An option anywhere but last, or misspelt, or spaced ("csv = …"): said so,
        # not Django's "Could not parse the remainder", nor a "csv=" that names nothing.
        option = _OPTION.match(bit)
        if option and option["name"] == "csv":
            raise template.TemplateSyntaxError(
                f'{{% fold %}} takes csv= only as its last part, with a value ("" for no'
                f" file): {FOLD_FORM}, not {bit!r} among the id's parts"
            )
        if option:
            raise template.TemplateSyntaxError(
                f"{{% fold %}} has no option {bit!r}: its only one is csv=, last: {FOLD_FORM}"
            )
    # The id in parts, put together: {% fold "res-" rd.round "-tables" %}.
    id_parts = [parser.compile_filter(b) for b in bits]
    summary = parser.parse(("left_out",))
    parser.delete_first_token()
    what = parser.parse(("endfold",))
    parser.delete_first_token()
    return FoldNode(id_parts, csv, summary, what)


class FoldNode(template.Node):
    def __init__(self, id_parts, csv, summary, what):
        self.id_parts, self.csv, self.summary, self.what = id_parts, csv, summary, what

    def render(self, context) -> str:
        summary = self.summary.render(context)
        csv = self.csv.resolve(context) if self.csv else ""
        return format_html(
            '<p class="print-only muted">{} is left out of print: open “{}” on screen before'
            ' printing to include it{}.</p>\n  <details class="print-if-open fold" id="{}">'
            "<summary>{}</summary>",
            self.what.render(context),
            summary,
            format_html(", or see {}", csv) if csv else "",
            "".join(str(part.resolve(context)) for part in self.id_parts),
            summary,
        )

"""Small filters and tags for the facilitator's templates (the arrow is also on a phone's screen)."""

from django import template
from django.utils.html import conditional_escape
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


@register.filter
def arrows(text, word: str) -> str:
    """`text` escaped, each " → " in it heard as `word` (the report's journeys)."""
    parts = [conditional_escape(p) for p in str(text).split(f" {ARROW} ")]
    return mark_safe(f" {_spoken_arrow(word)} ".join(parts))

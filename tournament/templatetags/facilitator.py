"""Small filters for the facilitator's templates."""

from django import template

register = template.Library()


@register.filter
def clock(seconds) -> str:
    """Seconds as m:ss (what the countdown shows before its script takes over)."""
    if seconds is None:
        return ""
    left = max(0, round(float(seconds)))
    return f"{left // 60}:{left % 60:02d}"

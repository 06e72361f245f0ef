"""Deadline arithmetic for rounds and disputes: pure functions of datetimes."""

from __future__ import annotations

from datetime import datetime, timedelta


def deadline_after(now: datetime, seconds: float) -> datetime:
    return now + timedelta(seconds=seconds)


def remaining(
    deadline: datetime | None, now: datetime, paused_remaining: float | None = None
) -> float | None:
    """Seconds left (never negative); a paused round reports what was left at the pause."""
    if paused_remaining is not None:
        return max(0.0, paused_remaining)
    if deadline is None:
        return None
    return max(0.0, (deadline - now).total_seconds())


def epoch_ms(moment: datetime | None) -> int | None:
    """A deadline as the pages count to it: whole milliseconds since the epoch (what
    a browser's Date.now() says), None for none. The page maps it onto its own clock
    with the offset its pings measured (live.js), as the seconds left arrive late."""
    if moment is None:
        return None
    return round(moment.timestamp() * 1000)


def is_expired(deadline: datetime | None, now: datetime) -> bool:
    return deadline is not None and deadline <= now


def pause(deadline: datetime, now: datetime) -> float:
    """The seconds to keep while paused."""
    return max(0.0, (deadline - now).total_seconds())


def resume(paused_remaining: float, now: datetime) -> datetime:
    return now + timedelta(seconds=paused_remaining)


def extend(
    deadline: datetime | None, paused_remaining: float | None, seconds: float, now: datetime
):
    """Add time to a running or paused round: returns (deadline, paused_remaining).

    An extension of a round whose deadline has passed counts from now, so "+1
    minute" always gives the players a minute.
    """
    if seconds <= 0:
        raise ValueError("An extension must be a positive number of seconds.")
    if paused_remaining is not None:
        return None, paused_remaining + seconds
    base = max(deadline, now) if deadline is not None else now
    return base + timedelta(seconds=seconds), None


def paused_within(
    pauses: list[tuple[datetime, datetime | None]], start: datetime, end: datetime
) -> float:
    """Seconds of the pauses (a round's; a pause still under way runs to `end`) that
    fall between `start` and `end`: a clock that stood still while the round was paused
    does not count them."""
    total = 0.0
    for began, ended in pauses:
        lo = max(began, start)
        hi = min(ended if ended is not None else end, end)
        if hi > lo:
            total += (hi - lo).total_seconds()
    return total

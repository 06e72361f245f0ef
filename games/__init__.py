"""Pure card-game engines for the Barnga app: no Django, no I/O, no clock, no global random.

Modules: ``cards`` (notation), ``tricks`` (trick-taking core), ``five_tricks``
(the Barnga game), ``presets`` and ``sheets`` (rule sheets), ``bots``, ``replay``.
"""

from .errors import IllegalAction

__all__ = ["IllegalAction"]

"""Exceptions shared by the game engines.

One exception type crosses the engine boundary for a refused action, so the app
can show its ``reason`` to the player as it is.
"""


class IllegalAction(Exception):
    """An action the rules do not allow; ``reason`` is a sentence a player can read."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason

"""Limits a service enforces and the report states: plain constants, no Django, so
the report (a pure function of the export document) may import them too."""

from __future__ import annotations

# Refused moves kept per player and game for the report (services.play._keep_refusal):
# a student hammering a card the table forbids is told every time, but fills no more
# rows than this, and the report says so.
REFUSALS_KEPT = 20

"""Where the machine's time went during a load test, per action.

On a machine shared by the servers, the bot clients, PostgreSQL and Redis, a
throughput figure alone does not say whether the web processes or something else
ran out of time. This reads Linux's /proc (CPU seconds of given processes and of
the whole machine) at the start and the end of the measured run; elsewhere it
reports nothing.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


def process_seconds(pid: int) -> float | None:
    """User + system CPU seconds of a live process (None if unreadable)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rfind(")") + 2 :].split()  # the name may hold spaces and ")"
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_seconds() -> float | None:
    """Busy CPU seconds of the whole machine, all cores (None if unreadable)."""
    try:
        first = (PROC / "stat").read_text().splitlines()[0].split()
    except OSError:
        return None
    if first[0] != "cpu":
        return None
    user, nice, system, idle, iowait, irq, softirq, steal = (int(x) for x in first[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


@dataclass
class Snapshot:
    servers: list[float | None]
    machine: float | None


def snapshot(server_pids: list[int]) -> Snapshot:
    return Snapshot([process_seconds(p) for p in server_pids], machine_seconds())


def per_action(
    start: Snapshot,
    end: Snapshot,
    *,
    clients_s: float | None,
    actions: int,
    wall_s: float,
    cores: int | None = None,
) -> str | None:
    """One line: CPU milliseconds per action of the web processes, the bot clients
    and the rest of the machine (database, Redis, anything else running), and how
    busy the machine was. None when there is nothing to divide by or to read."""
    if actions <= 0 or wall_s <= 0 or start.machine is None or end.machine is None:
        return None
    cores = cores or os.cpu_count() or 1
    machine = end.machine - start.machine
    parts = []
    web = None
    if start.servers and all(x is not None for x in start.servers + end.servers):
        web = sum(e - s for s, e in zip(start.servers, end.servers, strict=True))
        parts.append(f"web {web / actions * 1000:.2f}")
    if clients_s is not None:
        parts.append(f"bot clients {clients_s / actions * 1000:.2f}")
    if web is not None and clients_s is not None:
        rest = max(0.0, machine - web - clients_s)
        parts.append(f"rest of machine {rest / actions * 1000:.2f} (database, Redis, others)")
    else:
        parts.append(f"whole machine {machine / actions * 1000:.2f}")
    busy = machine / wall_s / cores * 100
    return f"cpu ms per action: {' · '.join(parts)}; machine busy {busy:.0f} % of {cores} cores"

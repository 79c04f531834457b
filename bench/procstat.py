"""Where a machine's CPU went during a benchmark window, read from /proc (Linux only).

A snapshot holds the machine's busy and total CPU ticks (/proc/stat) and the CPU seconds
(utime + stime, /proc/<pid>/stat) of the processes of interest: the server's workers (by pid)
and, given the benchmark's database, every PostgreSQL process (by `comm`; their stat files are
world-readable). The difference of two snapshots splits the window's CPU into the workers, the
benchmark database's backends, PostgreSQL's shared processes (postmaster, WAL writer,
checkpointer, background writer, autovacuum launcher), other databases' backends (other work on
the same server), PostgreSQL processes that exited in the window (the postmaster's reaped
children, of any database: the benchmark's pools keep theirs, so these are mostly others'),
and the rest of the machine.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

TICKS_PER_SECOND = os.sysconf("SC_CLK_TCK")
_PROC = Path("/proc")


def _stat_fields(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after `comm` (which may hold spaces): field 3 (state)
    is index 0, so utime (14) is index 11, stime 12, cutime 13, cstime 14."""
    text = (_PROC / str(pid) / "stat").read_text()
    return text[text.rindex(")") + 2 :].split()


def process_cpu_seconds(pid: int, *, reaped_children: bool = False) -> float:
    """utime + stime of every thread of a process, past and present (and, with
    `reaped_children`, of its children that exited and were waited for)."""
    fields = _stat_fields(pid)
    ticks = int(fields[11]) + int(fields[12])
    if reaped_children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks / TICKS_PER_SECOND


def wait_until_quiet(pids: list[int], quiet_seconds: float = 0.6, limit: float = 60) -> None:
    """Waits until none of `pids` has used CPU for `quiet_seconds` (workers that have
    finished starting: the first of several answers /healthz while the others still load
    the app), or `limit` seconds have passed."""
    deadline = time.monotonic() + limit
    step = 0.1
    quiet_since = time.monotonic()
    last = [process_cpu_seconds(pid) for pid in pids]
    while time.monotonic() < deadline:
        time.sleep(step)
        now = [process_cpu_seconds(pid) for pid in pids]
        if now != last:
            quiet_since, last = time.monotonic(), now
        elif time.monotonic() - quiet_since >= quiet_seconds:
            return


def machine_ticks() -> tuple[int, int, int]:
    """(busy, total, kernel) ticks of all CPUs since boot: idle and iowait count as idle;
    kernel is system, irq and softirq time (loopback networking is much of it)."""
    values = [int(v) for v in (_PROC / "stat").read_text().split("\n", 1)[0].split()[1:9]]
    total = sum(values)
    return total - values[3] - values[4], total, values[2] + values[5] + values[6]


def context_switches(pid: int) -> tuple[int, int]:
    """(voluntary, involuntary) context switches of a process's main thread: waits it chose
    (for I/O) and preemptions it did not."""
    counts = {}
    for line in (_PROC / str(pid) / "status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches"):
            counts[name] = int(value)
    return counts["voluntary_ctxt_switches"], counts["nonvoluntary_ctxt_switches"]


def postgres_group(title: str, database: str | None) -> str:
    """Which part of PostgreSQL a process title names: "postgres:db" for a backend of
    `database`, "postgres:other" for another database's backend, "postgres:shared" for the
    rest (the postmaster, WAL writer, checkpointer, autovacuum...)."""
    # A backend's title: "postgres: 15/main: <user> <database> <host>(<port>) <state>".
    words = title.split(": ", 2)[-1].split()
    is_backend = len(words) >= 3 and (words[2].endswith(")") or words[2] == "[local]")
    if not is_backend:
        return "postgres:shared"
    return "postgres:db" if words[1] == database else "postgres:other"


def _postgres_group(pid: int, database: str | None) -> str | None:
    """The group of a PostgreSQL process (see `postgres_group`); None for other processes."""
    try:
        if not (_PROC / str(pid) / "comm").read_text().startswith("postgres"):
            return None
        title = (_PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return None
    return postgres_group(title.strip(), database)


def backends(database: str) -> list[int]:
    """The pids of the PostgreSQL backends connected to `database` now."""
    return [
        int(entry.name)
        for entry in _PROC.iterdir()
        if entry.name.isdigit() and _postgres_group(int(entry.name), database) == "postgres:db"
    ]


def _established(port: int, peer_port: int | None = None) -> set[str]:
    """The socket inodes of established TCP connections whose local port is `port` (and,
    given, whose remote port is `peer_port`): the server ends of connections to `port`."""
    inodes: set[str] = set()
    for table in ("tcp", "tcp6"):
        try:
            lines = (_PROC / "net" / table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            # local "0100007F:1F90", remote "0100007F:D431", state "01" (established), inode
            fields = line.split()
            if fields[3] != "01" or int(fields[1].rsplit(":", 1)[1], 16) != port:
                continue
            if peer_port is None or int(fields[2].rsplit(":", 1)[1], 16) == peer_port:
                inodes.add(fields[9])
    return inodes


def _sockets(pid: int) -> set[str]:
    """The socket inodes a process has open."""
    try:
        descriptors = list((_PROC / str(pid) / "fd").iterdir())
    except OSError:
        return set()
    inodes = set()
    for fd in descriptors:
        try:
            target = os.readlink(fd)
        except OSError:
            continue  # closed since the listing
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    return inodes


def connections_by_process(pids: list[int], port: int) -> dict[int, int]:
    """How many established TCP connections to local `port` each process holds (the
    kernel hands a shared listening socket's connections to whichever worker accepts
    first, so several workers may not share them evenly)."""
    established = _established(port)
    return {pid: len(_sockets(pid) & established) for pid in pids}


def process_holding(pids: list[int], port: int, peer_port: int) -> int | None:
    """Which of `pids` holds the server end (local `port`) of the connection from
    `peer_port`, once accepted; None if none does (yet)."""
    server_end = _established(port, peer_port)
    return next((pid for pid in pids if _sockets(pid) & server_end), None)


@dataclass(frozen=True)
class Snapshot:
    """CPU seconds per process (with its group) and the machine's ticks, at one instant."""

    wall: float
    machine: tuple[int, int, int]
    processes: dict[int, tuple[str, float]] = field(default_factory=dict)
    # The workers' (voluntary, involuntary) context switches.
    switches: tuple[int, int] = (0, 0)
    # The postmaster's reaped children: PostgreSQL processes that have exited.
    exited: float = 0.0


def snapshot(workers: list[int], database: str | None = None) -> Snapshot:
    """The workers' CPU now and, given the benchmark's `database` (so that its backends are
    told from other databases'), PostgreSQL's."""
    processes: dict[int, tuple[str, float]] = {}
    exited = 0.0
    voluntary = involuntary = 0
    for pid in workers:
        processes[pid] = ("workers", process_cpu_seconds(pid))
        chosen, preempted = context_switches(pid)
        voluntary, involuntary = voluntary + chosen, involuntary + preempted
    for entry in _PROC.iterdir() if database is not None else ():
        if not entry.name.isdigit() or int(entry.name) in processes:
            continue
        pid = int(entry.name)
        group = _postgres_group(pid, database)
        if group is None:
            continue
        try:
            processes[pid] = (group, process_cpu_seconds(pid))
            # Only the postmaster has children: backends that exited are counted there.
            exited += process_cpu_seconds(pid, reaped_children=True) - processes[pid][1]
        except (OSError, ValueError):
            continue  # it exited between the listing and the read
    return Snapshot(
        time.perf_counter(), machine_ticks(), processes, (voluntary, involuntary), exited
    )


GROUPS = ("workers", "postgres:db", "postgres:shared", "postgres:other", "postgres:exited")


def cpu_between(before: Snapshot, after: Snapshot) -> dict[str, float]:
    """Seconds of CPU per group (`GROUPS`) over the window, the workers' context switches,
    the window's wall seconds, and the machine's busy and kernel seconds and idle share. A
    process that started inside the window counts from zero; one that ended inside it is
    only seen in "postgres:exited"."""
    groups = dict.fromkeys(GROUPS, 0.0)
    for pid, (group, seconds) in after.processes.items():
        earlier = before.processes.get(pid)
        start = earlier[1] if earlier is not None and earlier[0] == group else 0.0
        groups[group] += max(0.0, seconds - start)
    groups["postgres:exited"] = max(0.0, after.exited - before.exited)
    wall = after.wall - before.wall
    busy = after.machine[0] - before.machine[0]
    total = after.machine[1] - before.machine[1]
    return {
        **groups,
        "workers_voluntary_switches": after.switches[0] - before.switches[0],
        "workers_involuntary_switches": after.switches[1] - before.switches[1],
        "wall": wall,
        "machine_busy": busy / TICKS_PER_SECOND,
        "machine_kernel": (after.machine[2] - before.machine[2]) / TICKS_PER_SECOND,
        "machine_idle_share": 1 - busy / total if total else 0.0,
        "cores": total / TICKS_PER_SECOND / wall if wall > 0 else 0.0,
    }

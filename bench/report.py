"""The benchmark's table (stdout) and chart (PNG)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

TARGETS = {
    "pg_16_rps": 400,
    "pg_16_p99_ms": 50,
    "ratio": 1 / 25,
    "messages_ratio": 1.2,
    "tasks_ms": 20,
    "rss_growth_pct": 10,
}


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table, as bench/README.md shows the benchmarks' figures."""
    lines = ["| " + " | ".join(header) + " |", "|" + " --- |" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def markdown_rows(output: str) -> dict[str, list[str]]:
    """The rows of the Markdown tables in a benchmark's output, by their first cell (the
    measure), the header and separator lines left out."""
    rows = {}
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] not in {"measure", "---"}:
            rows[cells[0]] = cells[1:]
    return rows


def print_table(results: dict[str, Any]) -> None:
    machine = results["machine"]
    print(f"machine: {machine['cpus']} cpus, python {machine['python']}, {machine['platform']}")
    if "python_loop_ms" in machine:
        print(f"machine speed: a 10M-step Python loop takes {machine['python_loop_ms']} ms")
    print(
        f"{'db':<11}{'conns':>6}{'chat/s':>9}{'p50':>8}{'p95':>8}{'p99':>8}"
        f"{'trivial/s':>11}{'ratio':>8}"
    )
    for kind, entry in results["databases"].items():
        for label, rows in (
            ("1 worker", entry["throughput"]),
            ("2 workers", entry.get("two_workers", [])),
        ):
            for row in rows:
                chat = row["chat"]
                print(
                    f"{kind[:10]:<11}{row['connections']:>6}{chat['rps']:>9.1f}"
                    f"{chat['p50_ms']:>8.1f}{chat['p95_ms']:>8.1f}{chat['p99_ms']:>8.1f}"
                    f"{row['trivial']['rps']:>11.1f}{row['ratio']:>8.3f}  {label}"
                )
        scaling = entry["scaling"]
        print(f"  scaling ({kind}): " + ", ".join(f"{k}={v}" for k, v in scaling.items()))
        memory = entry["memory"]
        print(
            f"  memory ({kind}): {memory['turns']} turns, RSS {memory['rss_after_warmup_mib']}"
            f" -> {memory['rss_end_mib']} MiB (peak {memory['peak_rss_mib']}),"
            f" growth {memory['growth_pct']}%"
        )
    print("targets: " + ", ".join(f"{k}={v:g}" for k, v in TARGETS.items()))


def write_chart(results: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    for kind, entry in results["databases"].items():
        series = [("1 worker", entry["throughput"])]
        if entry.get("two_workers"):
            series.append(("2 workers", entry["two_workers"]))
        for label, rows in series:
            conns = [r["connections"] for r in rows]
            left.plot(conns, [r["chat"]["rps"] for r in rows], marker="o", label=f"{kind}, {label}")
            right.plot(
                conns, [r["chat"]["p99_ms"] for r in rows], marker="o", label=f"{kind}, {label}"
            )
    left.set(title="Chat turns per second", xlabel="connections", ylabel="turns/s", xscale="log")
    right.set(title="Chat turn p99 latency", xlabel="connections", ylabel="ms", xscale="log")
    for axis in (left, right):
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)

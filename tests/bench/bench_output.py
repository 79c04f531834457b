"""Running a benchmark command as CI's smoke tests do, and reading the table it prints."""

from __future__ import annotations

import subprocess
import sys

from tests.live_server import ROOT


def run_bench(module: str, *args: str, timeout: float = 300) -> str:
    """Runs `python -m bench.<module> args` and returns its output, failing on a non-zero exit."""
    result = subprocess.run(
        [sys.executable, "-m", f"bench.{module}", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    return result.stdout


def table_rows(output: str) -> dict[str, list[str]]:
    """A printed Markdown table's rows by their first cell (the measure), header left out."""
    rows = {}
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and cells[0] not in {"measure", "---"}:
            rows[cells[0]] = cells[1:]
    return rows

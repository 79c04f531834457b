"""Running a benchmark command as CI's smoke tests do, and reading the table it prints."""

from __future__ import annotations

import subprocess
import sys

from bench.report import markdown_rows
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
    return markdown_rows(output)

"""scripts/bootstrap.sh's editable install of the project, as pip makes it (issue 33, item 19)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import venv
from pathlib import Path

from tests.live_server import ROOT


def test_the_editable_install_prints_no_warning_and_points_at_the_checkout(tmp_path: Path) -> None:
    # A copy of what the build reads, so the checkout's own egg-info is left alone; the
    # project's dependencies are not installed (--no-deps), which keeps this to seconds. pip
    # fetches the build backend (pyproject's [build-system]) as bootstrap.sh's install does.
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, checkout / name)
    for package in ("backend", "mcp_tools"):
        shutil.copytree(
            ROOT / package, checkout / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    # Into a throwaway environment of its own (pip's --python): with `--prefix`, pip would
    # still uninstall the project from the environment running the tests.
    target = tmp_path / "venv"
    venv.create(target, with_pip=False, symlinks=True)
    result = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(target / "bin" / "python"), "install"]
        + ["--quiet", "--no-deps", "--no-compile", "-e", str(checkout)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    # pip shows the build backend's warnings as BuildBackendWarning; setuptools' import-hook
    # install printed "Editable installation. ... Please be careful with folders ...".
    assert "BuildBackendWarning" not in output
    assert "Editable installation" not in output
    # A plain path entry to the checkout: its code runs as edited, with no reinstall.
    [pth] = target.glob("lib/python*/site-packages/__editable__.*.pth")
    assert pth.read_text().strip() == str(checkout)

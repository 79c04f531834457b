"""The import contracts (pyproject.toml, `make lint`) hold for the code as it is, and break on
an import that runs up a layer or into the tests: checked on a copy of the code with one bad
import added, so the check is shown to catch what it exists for."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("backend", "mcp_tools", "corpus", "bench", "scripts")
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def _copy_of_the_code(tmp_path: Path) -> Path:
    copy = tmp_path / "repo"
    copy.mkdir()
    shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
    for package in PACKAGES:
        shutil.copytree(
            ROOT / package,
            copy / package,
            ignore=lambda _dir, names: [n for n in names if not n.endswith(".py") and "." in n],
        )
    return copy


def _lint_imports(repo: Path) -> subprocess.CompletedProcess[str]:
    # The copy first on the path, so its packages are the ones analysed (not an installed copy).
    environment = {**os.environ, "PYTHONPATH": str(repo)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache"],
        cwd=repo,
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _copy_of_the_code(tmp_path_factory.mktemp("pristine"))


def test_the_code_keeps_every_import_contract(pristine: Path) -> None:
    result = _lint_imports(pristine)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "BROKEN" not in result.stdout


# A module, an import it must not make, and the contract that forbids it.
VIOLATIONS = [
    ("backend/domain/due.py", "backend.services.tasks", "Imports run down the layers"),
    ("backend/core/config.py", "backend.api.errors", "Imports run down the layers"),
    ("backend/services/tasks.py", "backend.chat.turns", "Imports run down the layers"),
    ("bench/seed.py", "tests.conftest", "Nothing but the tests imports the tests"),
    ("backend/agent/brains.py", "corpus.report", "The service runs without the corpus"),
]


def test_every_import_against_a_contract_breaks_the_check(tmp_path: Path) -> None:
    """All the violations in one copy (one analysis): each is reported, under its contract."""
    repo = _copy_of_the_code(tmp_path)
    for module, imported, _contract in VIOLATIONS:
        target = repo / module
        target.write_text(target.read_text() + f"\nimport {imported}  # a deliberate violation\n")
    result = _lint_imports(repo)
    assert result.returncode != 0
    for module, imported, contract in VIOLATIONS:
        importer = module.removesuffix(".py").replace("/", ".")
        assert f"{contract} BROKEN" in result.stdout
        # (an import of a package outside the analysed ones is reported as its top package)
        reported = imported if not imported.startswith("tests.") else "tests"
        assert f"{importer} -> {reported}" in result.stdout, result.stdout

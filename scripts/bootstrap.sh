#!/usr/bin/env bash
# Creates .venv and installs the project (with dev tools) when pyproject.toml changed.
# Idempotent and quick when nothing changed, so `make run` and `make test` call it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "Python 3.11 or newer is required (found: $("$PYTHON" --version 2>&1))" >&2
    exit 1
fi

if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi

stamp=.venv/.setup-stamp
want=$(cat pyproject.toml scripts/bootstrap.sh | sha256sum | cut -d' ' -f1)
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    .venv/bin/python -m pip install --quiet --upgrade pip
    .venv/bin/python -m pip install --quiet -e '.[dev]'
    echo "$want" > "$stamp"
fi

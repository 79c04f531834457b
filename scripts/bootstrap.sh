#!/usr/bin/env bash
# Creates .venv and installs the project into it: `bootstrap.sh runtime` installs what serving
# needs (`make run`), `bootstrap.sh dev` adds the test, lint and type-check tools (`make test`).
# Idempotent and quick when nothing changed, so the make targets call it every time.
set -euo pipefail
cd "$(dirname "$0")/.."

profile="${1:-dev}"
case "$profile" in
    runtime) requirement='.' ;;
    dev) requirement='.[dev]' ;;
    *)
        echo "usage: $0 [runtime|dev]" >&2
        exit 2
        ;;
esac

PYTHON="${PYTHON:-python3}"
if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
    echo "Python 3.11 or newer is required (found: $("$PYTHON" --version 2>&1))" >&2
    exit 1
fi

if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi

# One stamp per profile holds the hash of the inputs it was installed from.
want=$(cat pyproject.toml scripts/bootstrap.sh | sha256sum | cut -d' ' -f1)
installed() { [ -f ".venv/.setup-stamp-$1" ] && [ "$(cat ".venv/.setup-stamp-$1")" = "$want" ]; }

# A current dev install holds everything a runtime one would.
if installed "$profile" || { [ "$profile" = runtime ] && installed dev; }; then
    exit 0
fi
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e "$requirement"
echo "$want" > ".venv/.setup-stamp-$profile"

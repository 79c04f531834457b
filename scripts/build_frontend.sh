#!/usr/bin/env bash
# Installs the UI's npm packages and builds frontend/dist when its sources changed.
# Quick when nothing changed, so `make run` and `make test` call it every time.
set -euo pipefail
cd "$(dirname "$0")/../frontend"

if ! command -v npm >/dev/null 2>&1; then
    echo "npm (Node.js 20+) is required to build the web UI" >&2
    exit 1
fi

lock_stamp=node_modules/.install-stamp
want_lock=$(sha256sum package-lock.json | cut -d' ' -f1)
if [ ! -f "$lock_stamp" ] || [ "$(cat "$lock_stamp")" != "$want_lock" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$want_lock" > "$lock_stamp"
fi

build_stamp=dist/.build-stamp
want_build=$(find src public index.html package.json package-lock.json vite.config.ts tsconfig*.json \
    openapi.json \
    -type f -print0 2>/dev/null | sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1)
if [ ! -f "$build_stamp" ] || [ "$(cat "$build_stamp")" != "$want_build" ]; then
    npm run build --silent
    echo "$want_build" > "$build_stamp"
fi

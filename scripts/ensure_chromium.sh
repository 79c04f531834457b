#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests when it is missing (playwright-core drives
# it; test tools must not download browsers of their own here).
set -euo pipefail
if command -v chromium >/dev/null 2>&1; then
    exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
    echo "chromium is missing: run 'sudo apt-get install chromium' (needed by the browser tests)" >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null

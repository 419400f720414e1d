#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the linters and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# System parts the tests use for real, from Debian's packages, installed only when missing:
# the cairo library (PNG pictures through cairosvg) and PostgreSQL (the server tests start a
# cluster of their own on loopback), and Chromium (tests/web drive it through Playwright).
missing=()
ldconfig -p | grep 'libcairo\.so\.2' >/dev/null || missing+=(libcairo2)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
if [ ${#missing[@]} -gt 0 ]; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev]'
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/pytest "$@"

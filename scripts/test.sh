#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the linters and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# PNG pictures go through cairosvg, which loads the cairo library: install it only when missing.
if ! ldconfig -p | grep 'libcairo\.so\.2' >/dev/null; then
    apt-get update -qq && apt-get install -y -qq libcairo2
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev]'
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/pytest "$@"

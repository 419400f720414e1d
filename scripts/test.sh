#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the linters and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev]'
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/pytest "$@"

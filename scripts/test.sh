#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the linters and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/pip install --quiet --upgrade pip
.venv/bin/pip install --quiet -e '.[dev]'
# The server tests start a real PostgreSQL cluster of their own (Debian's package, on loopback).
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
.venv/bin/ruff check .
.venv/bin/mypy
.venv/bin/pytest "$@"

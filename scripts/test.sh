#!/usr/bin/env bash
# Install everything the tests need into .venv, then run the linters and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# System parts the tests use for real, from Debian's packages, installed only when missing:
# the cairo library (PNG pictures through cairosvg) and PostgreSQL (the server tests start a
# cluster of their own on loopback), Chromium (tests/web drive it through Playwright), and nginx
# with openssl (tests/server/test_nginx.py runs docs/deploy.md's configuration with TLS).
missing=()
ldconfig -p | grep 'libcairo\.so\.2' >/dev/null || missing+=(libcairo2)
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing+=(postgresql)
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/time ] || missing+=(time)  # docs/simulate.md's memory figures (tests/test_docs_examples.py)
[ -x /usr/sbin/nginx ] || missing+=(nginx)
command -v openssl >/dev/null || missing+=(openssl)
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
if [ $# -gt 0 ]; then
    .venv/bin/pytest "$@"
    exit 0  # (a chosen subset of the tests: the plain build alone)
fi
# The suite runs on two pytest-xdist workers (loadfile: a module's tests on one worker, in
# order, so that its fixtures are made once and its last tests see what the earlier ones did),
# then the tests marked `alone` (a timing claim of an issue) with the machine to themselves.
# PARLOR_TEST_WORKERS=1 runs it in one process, as before.
workers=${PARLOR_TEST_WORKERS:-2}
xdist=()
if [ "$workers" -gt 1 ]; then
    xdist=(-n "$workers" --dist loadfile)
    .venv/bin/pytest "${xdist[@]}" -m "not alone"
    .venv/bin/pytest -m alone
else
    .venv/bin/pytest
fi
# The optional compiled build (README, setup.py) must play by the same rules: compile its
# modules in a copy of the tree (with bench/: a bots test runs bench_bots.py), check that the
# engines load compiled, and run the engines' and bots' tests against it (the edition-data tests
# read files only and ran above), and the RL tests of what is compiled there: the encoders'
# byte-for-byte, the table's, AEC step's and batch's PettingZoo, Gymnasium and honesty tests, and
# OpenSpiel's (a compiled module that holds the package to the end once made it abort at exit).
repo=$PWD
build=$(mktemp -d)
trap 'rm -rf "$build"' EXIT
cp -r src tests bench setup.py pyproject.toml README.md "$build"/
(cd "$build" && PARLOR_COMPILE=1 "$repo/.venv/bin/python" setup.py -q build_ext --inplace >build.log 2>&1) \
    || { tail -40 "$build/build.log"; exit 1; }
cd "$build"
export PYTHONPATH="$build/src"
"$repo/.venv/bin/python" -c '
import parlor.monopoly.game as m, parlor.tools.game as t, parlor.bots.monopoly_heuristic as h
import parlor.rl.tools_obs as to, parlor.rl.property_obs as po
import parlor.rl.table as rt, parlor.rl.aec_core as ac, parlor.rl.vector as rv, parlor.bots.base as b
assert all(x.__file__.endswith(".so") for x in (m, t, h, to, po, rt, ac, rv, b)), "the compiled build did not load"
import parlor.build
assert parlor.build.build_name() == "compiled", parlor.build.build_name()'
"$repo/.venv/bin/python" -m pytest -p no:cacheprovider ${xdist[@]+"${xdist[@]}"} \
    tests/test_conformance.py tests/golden \
    tests/monopoly tests/tools tests/bots tests/test_records.py \
    tests/rl/test_fast_obs.py tests/rl/test_openspiel.py tests/rl/test_pettingzoo.py \
    tests/rl/test_gym.py tests/rl/test_vector.py tests/rl/test_hidden.py \
    --ignore=tests/monopoly/test_edition_data.py

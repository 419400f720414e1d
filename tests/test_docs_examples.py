"""Every code block of README.md and docs/**/*.md is run here, or listed with the reason it is not
(issue 20: "Every code example in README.md and docs/*.md is run by the test suite (short ones as
written, long ones with a smaller count that the test states), so the documentation cannot drift
again").

COST: the slowest module of the suite's kind, several minutes on the project's loaded 2-core
machine (Python subprocesses, bot games, a local Ray, a ``parlor serve`` on a loopback port);
docs/simulate.md's and docs/analysis.md's tests are the longest (scripts/test.sh's two workers
run the rest of the suite beside it). Run it alone with ``pytest tests/test_docs_examples.py``.

How a block is read:

* ``sh`` and console blocks: each command runs in bash, in a scratch folder (``bench`` linked in,
  ``parlor`` and ``python`` the interpreter running the tests), and must exit with 0. Lines that
  start with ``$ `` are the commands of a block that also shows their output: every line of that
  output without a digit in it (headings, column names, messages) must be in what the command
  printed (figures differ with the smaller counts and from machine to machine).
* ``python`` blocks run as a script in the scratch folder; ``json`` blocks of the protocol are
  parsed, and the create request is sent to a real server whose answer must have the keys shown.
* A block this file does not know fails the test: add it to ``PLANS`` (run, or listed with why).
  A substitution whose text is no longer in its block fails too, so the table never goes stale.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shlex
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from parlor import client
from tests.server.support import ServerProcess

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```(\S*)\s*$")


@dataclass(frozen=True)
class Block:
    path: str  # relative to the repository
    line: int
    lang: str
    text: str

    @property
    def key(self) -> tuple[str, str]:
        first = next((ln.strip() for ln in self.text.splitlines() if ln.strip()), "")
        return (self.path, first)


def read_blocks() -> list[Block]:
    found = []
    for doc in DOCS:
        lines = doc.read_text(encoding="utf-8").splitlines()
        start: int | None = None
        for i, line in enumerate(lines):
            fence = FENCE.match(line)
            if not fence:
                continue
            if start is None:
                start, lang = i, fence.group(1)
            else:
                body = "\n".join(lines[start + 1 : i]) + "\n"
                found.append(Block(str(doc.relative_to(ROOT)), start + 1, lang, body))
                start = None
        assert start is None, f"{doc}: a code block is not closed"
    return found


# ----- what to do with each block ------------------------------------------------------------
@dataclass(frozen=True)
class Sub:
    """Text of the block replaced before it runs (``{base}``: the test server, ``{link}``: an
    invite link to a table with a free seat, ``{work}``: the scratch folder), and why."""

    old: str
    new: str
    why: str


@dataclass(frozen=True)
class Plan:
    kind: str  # "sh", "python", "json", "synopsis", or "listed" (not run)
    why: str = ""  # for "listed": why it cannot run here
    subs: tuple[Sub, ...] = ()
    prelude: str = ""  # python run before the block (names the block uses but does not make)
    raises: str = ""  # python: the block ends by raising this error, on purpose
    server: bool = False
    # sh: commands that do not run (their start -> why), commands that serve until stopped,
    # commands that wait for a person (stdin is empty: they must start and stop cleanly)
    skip: dict[str, str] = field(default_factory=dict)
    serves: tuple[str, ...] = ()
    interactive: tuple[str, ...] = ()
    order: int = 0  # blocks of a document run by this, then as they come (a block's input first)


FEW = "fewer games: the figures in the doc are from the full run; this checks the command"
SERVER = Sub("http://127.0.0.1:8000", "{base}", "the test's own server on a free loopback port")
NO_TRAIN = "needs the train extra (torch, sb3-contrib), which the tests do not install"
DISTILL = (
    "a training run of minutes to an hour and its evaluations; tests/rl/test_distill.py runs a"
    " short one and its evaluation and shipping"
)
PLAY_PROMPTS = ("parlor play", "parlor tools")
RECORD_EXAMPLE = "written by the code: tests/records/test_docs.py checks it is what the code writes"
NICE = Sub(
    "nice -n 10 ",
    "",
    "at normal priority: niced on a loaded machine, a short run waits minutes for the others",
)

PLANS: dict[tuple[str, str], Plan] = {
    # ----- README.md
    (
        "README.md",
        "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/parlor serve",
    ): Plan(
        "listed",
        "makes a virtualenv and installs from the package index; `parlor serve`"
        " itself runs below (docs/server.md)",
    ),
    ("README.md", "./scripts/test.sh"): Plan("listed", "the whole suite, of which this is a part"),
    (
        "README.md",
        "python3 -m venv fast && fast/bin/pip install mypy setuptools wheel .  # mypyc"
        " checks against the dependencies",
    ): Plan("listed", "a mypyc build of several minutes; CI's .ci/run builds and tests it"),
    ("README.md", "from parlor import client"): Plan("python", server=True, subs=(SERVER,)),
    (
        "README.md",
        "# seat a remote bot at a table: --bot random, heuristic, offering (property"
        " games) or search",
    ): Plan(
        "sh",
        server=True,
        subs=(
            Sub(
                "'http://127.0.0.1:8000/#table=...&invite=...'",
                "'{link}'",
                "a real table's invite link (a host script starts it and plays the other seat)",
            ),
            Sub("--budget 50", "--budget 8", "a smaller search budget: the same bot, faster"),
        ),
    ),
    (
        "README.md",
        "parlor play                                   # classic, you against three heuristic bots",
    ): Plan(
        "sh",
        interactive=PLAY_PROMPTS,
        subs=(
            Sub(
                "parlor play --bots all --seed 1 ",
                "parlor play --bots all --seed 1 --max-steps 300 ",
                "a shorter bot game (the whole one is a minute here)",
            ),
        ),
    ),
    (
        "README.md",
        "parlor simulate --edition classic --bots heuristic,random,random,random"
        " --rotate-seats --games 1000",
    ): Plan(
        "sh",
        subs=(
            Sub("--rotate-seats --games 1000", "--rotate-seats --games 8", FEW),
            Sub("--games 2000 --csv", "--games 100 --csv", FEW),
            Sub(
                "--cards cycling             #",
                "--cards cycling --orders 2  #",
                "2 shuffles solved exactly, not the default 20",
            ),
            Sub(
                "--matchups tools-search --games 20",
                "--matchups tools-search --games 2 --sims 8 --workers 1",
                "two games at a search budget of 8, not 20 at 1200 (7 minutes)",
            ),
        ),
        skip={
            "parlor simulate --edition matador --bots search": "a local Ray takes over a minute"
            " to start on this machine: docs/simulate.md's block that compares a local and a Ray"
            " run runs the same backend"
        },
    ),
    ("README.md", "import gymnasium as gym"): Plan("listed", NO_TRAIN),
    ("README.md", "from parlor import monopoly"): Plan("python"),
    # ----- docs/analysis.md
    (
        "docs/analysis.md",
        "parlor analyze --edition classic --jail both --per both --opponents 3 --out out/analysis",
    ): Plan("sh"),
    (
        "docs/analysis.md",
        "parlor analyze --edition classic --cards cycling --orders 100"
        " --no-plot --out out/cycling  # 27 s",
    ): Plan("sh", subs=(Sub("--orders 100", "--orders 3", "3 shuffles, not 100 (27 s)"),)),
    # ----- docs/bots.md, docs/editions.md, docs/i18n.md
    ("docs/bots.md", "from parlor.bots.registry import make_bot"): Plan("python"),
    ("docs/editions.md", "from parlor.monopoly.edition import load_edition"): Plan("python"),
    ("docs/editions.md", "from parlor.monopoly.edition import load_edition#2"): Plan(
        "python",
        prelude="import shutil, importlib.resources as r\n"
        "shutil.copy(r.files('parlor.monopoly') / 'data/classic.toml', 'my-edition.toml')\n",
        subs=(
            Sub(
                "/path/to/my-edition.toml",
                "my-edition.toml",
                "a copy of the classic edition file, made first",
            ),
        ),
    ),
    ("docs/i18n.md", "from parlor import monopoly, tools"): Plan("python"),
    ("docs/i18n.md", "_ = translator(lang)"): Plan(
        "python",
        prelude="from parlor.i18n import N_, translator\n"
        "lang, name, where, amount, n = 'es', 'Ana', 'Boardwalk', '$400', 2\n",
    ),
    ("docs/i18n.md", "from parlor.core.errors import E_, IllegalAction"): Plan(
        "python",
        raises="IllegalAction",
        prelude="import types\nname, cash = 'Ana', 5\n"
        "self = types.SimpleNamespace(money=lambda n: f'${n}')\n",
    ),
    # ----- docs/render.md
    ("docs/render.md", "from parlor import monopoly, tools"): Plan("python"),
    (
        "docs/render.md",
        "parlor play --bots all --bot heuristic --seed 3 --names Ann,Bo,Cy,Dee"
        " --max-steps 400 --save classic.json",
    ): Plan("sh"),
    # ----- docs/rl-baseline.md, docs/rl.md
    (
        "docs/rl-baseline.md",
        "nice -n 10 python -m parlor.rl.train --game tools --players 2"
        " --timesteps 300000 --seed 0 \\",
    ): Plan("listed", NO_TRAIN),
    (
        "docs/rl-baseline.md",
        'A="--game classic --players 4 --reward margin --max-steps 4000'
        " --truncation-reward valuation \\",
    ): Plan("listed", NO_TRAIN),
    (
        "docs/rl-baseline.md",
        "nice -n 10 python -m parlor.rl.distill --game tools --players 2 --opponents heuristic \\",
    ): Plan("listed", DISTILL),
    (
        "docs/rl-baseline.md",
        "nice -n 10 python -m parlor.rl.distill --game classic --players 4 --opponents random \\",
    ): Plan("listed", DISTILL),
    (
        "docs/rl-baseline.md",
        "nice -n 10 python -m parlor.rl.distill --game classic --players 4 --opponents"
        ' "random;heuristic" \\',
    ): Plan("listed", DISTILL),
    (
        "docs/rl-baseline.md",
        "nice -n 10 python bench/bench_snapped_offers.py --games 600 --seed 6000 --workers 1"
        " exact old quarters eighths",
    ): Plan(
        "sh",
        subs=(
            Sub("--games 600", "--games 8", FEW),
            Sub("--games 300", "--games 4", FEW),
            NICE,
        ),
    ),
    (
        "docs/rl-baseline.md",
        "OMP_NUM_THREADS=1 nice -n 10 python -m parlor.rl.distill --game classic --players 4 \\",
    ): Plan("listed", DISTILL),
    # ----- docs/server.md
    (
        "docs/server.md",
        "python bench/bench_server.py --tables 300 --seconds 30 --warmup 10",
    ): Plan(
        "sh",
        subs=(
            Sub("--tables 300 --seconds 30 --warmup 10", "--tables 4 --seconds 2 --warmup 1", FEW),
            Sub(
                "--seconds 40 --warmup 10 --tables 1000 --make-timeout 900",
                "--seconds 3 --warmup 1 --tables 8 --make-timeout 120",
                FEW,
            ),
        ),
    ),
    (
        "docs/server.md",
        "parlor serve                                   # http://127.0.0.1:8000/,"
        " tables in ./parlor.db",
    ): Plan(
        "sh",
        server=True,
        serves=("parlor serve",),
        subs=(
            Sub(
                "parlor serve                                   #",
                "parlor serve --port 0                          #",
                "port 8000 may be taken on a shared machine: any free port",
            ),
            Sub("--name Robo", "--name Robo --seed 1", "a seeded bot"),
            Sub("'http://127.0.0.1:8000/#table=T&invite=I'", "'{link}'", "a real invite link"),
            Sub(
                "--tables 300",
                "--tables 2 --seconds 2 --warmup 1 --game tools",
                "two TOOLS tables for two seconds, not 300 for 30",
            ),
        ),
        skip={
            "parlor serve --database-url postgresql://parlor@db.example/parlor": "needs that PostgreSQL host; tests/server/test_postgres.py serves from a real"
            " PostgreSQL",
            "parlor verify game.json": "needs a game exported from a finished server table;"
            " tests/server/test_fairness.py runs parlor verify on such exports, changed and not",
        },
    ),
    ("docs/server.md", '{"game": "monopoly", "edition": "matador", "variant": "short",'): Plan(
        "json", server=True
    ),
    (
        "docs/server.md",
        '{"table": "Xb3kT0qN_aZm", "invite": "<43 characters>", "host_key": "<43 characters>",',
    ): Plan("json", server=True),
    (
        "docs/server.md",
        '{"type": "hello", "protocol": 3, "table": "Xb3kT0qN_aZm", "token":'
        ' "<seat token>", "lang": "es"}',
    ): Plan("json"),
    ("docs/server.md", '{"type": "update", "version": 58, "base": 57,'): Plan(
        "listed",
        "a server frame: tests/server/test_view_changes.py applies every update's changes sent"
        " over a real server and finds the whole views protocol 1 is sent",
    ),
    (
        "docs/server.md",
        '{"decision": {"player": 1, "kind": "buy_or_auction", "info": {"square":'
        ' 39, "price": 400}},',
    ): Plan("json"),
    ("docs/server.md", "from parlor import client"): Plan("python", server=True, subs=(SERVER,)),
    (
        "docs/server.md",
        'final = client.play(link, name="Robo", policy=client.bot_policy("search",'
        " 7, simulations=50))",
    ): Plan(
        "python",
        server=True,
        prelude=(
            "import threading\nfrom parlor import client\n"
            "made = client.create_table('{base}', game='tools', seats=['human', 'human'])\n"
            "host = threading.Thread(target=client.play, args=(made,),"
            " kwargs={'policy': client.random_policy(1)})\nhost.start()\nlink = made['link']\n"
        ),
        subs=(Sub("simulations=50", "simulations=8", "a smaller search budget"),),
    ),
    (
        "docs/server.md",
        "parlor bot --url 'http://127.0.0.1:8000/#table=T&invite=I' --bot search --budget 50",
    ): Plan(
        "sh",
        server=True,
        subs=(
            Sub("'http://127.0.0.1:8000/#table=T&invite=I'", "'{link}'", "a real invite link"),
            Sub("--budget 50", "--budget 8", "a smaller search budget"),
        ),
    ),
    # ----- docs/simulate.md
    (
        "docs/simulate.md",
        "parlor simulate [--game monopoly|tools] [--edition ED] [--variant V]"
        " [--option KEY=VALUE ...]",
    ): Plan("synopsis"),
    (
        "docs/simulate.md",
        "$ parlor simulate --game tools --players 2 --bots heuristic,random --games 100000"
        " --out out/tools",
    ): Plan("sh", subs=(Sub("--games 100000", "--games 100", FEW),)),
    (
        "docs/simulate.md",
        "$ parlor simulate --game tools --bots heuristic,random,random,random --rotate-seats \\",
    ): Plan(
        "sh",
        subs=(
            Sub(
                "--games 2000 --seed 7 --workers 2 --backend local",
                "--games 40 --seed 7 --workers 2 --backend local",
                FEW,
            ),
            Sub(
                "--games 2000 --seed 7 --workers 2 --backend ray",
                "--games 40 --seed 7 --workers 2 --backend ray",
                FEW,
            ),
        ),
    ),
    (
        "docs/simulate.md",
        "$ parlor simulate --game monopoly --edition classic --bots"
        " heuristic,random,random,random \\",
    ): Plan("sh", subs=(Sub("--games 1000", "--games 8", FEW),)),
    (
        "docs/simulate.md",
        "$ parlor simulate --game tools --bots heuristic,random,random,random --rotate-seats \\#2",
    ): Plan("sh", subs=(Sub("--games 2000", "--games 100", FEW),)),
    (
        "docs/simulate.md",
        "git clone https://github.com/gamescomputersplay/monopoly /somewhere/gcp-monopoly",
    ): Plan(
        "listed",
        "needs a clone of gamescomputersplay/monopoly from the internet, which the tests do not"
        " have (its code stays out of this repository)",
    ),
    ("docs/simulate.md", "head$   ray start --head --port=6379"): Plan(
        "listed", "a Ray cluster of several machines (HEAD:6379 is a placeholder)"
    ),
    (
        "docs/simulate.md",
        "$ nice -n 10 /usr/bin/time -v python bench/bench_sim_memory.py"
        " --report-from runs/tools/1000000",
    ): Plan(
        "sh",
        subs=(
            Sub(
                "runs/tools/1000000",
                "runs/tools/100",
                "the rows of the smaller run of the block below, run first",
            ),
            NICE,
        ),
    ),
    (
        "docs/simulate.md",
        "$ nice -n 10 /usr/bin/time -v python bench/bench_sim_memory.py --game"
        " tools --players 2 \\",
    ): Plan(
        "sh", order=-1, subs=(Sub("--games 1000000 --remake", "--games 100 --remake", FEW), NICE)
    ),
    (
        "docs/simulate.md",
        "$ nice -n 10 /usr/bin/time -v python bench/bench_sim_memory.py --game"
        " monopoly --edition classic \\",
    ): Plan(
        "sh",
        subs=(
            Sub("--games 20000 100000", "--games 4 8", FEW),
            NICE,
        ),
    ),
    (
        "docs/simulate.md",
        "$ nice -n 10 /usr/bin/time -v python bench/bench_sim_memory.py --game monopoly \\",
    ): Plan("sh", subs=(Sub("--games 1000", "--games 4", FEW), NICE)),
    (
        "docs/simulate.md",
        "$ nice -n 10 python bench/bench_live_memory.py       # stopped during"
        " latam (machine too busy), then:",
    ): Plan(
        "sh",
        subs=(
            Sub(
                "bench/bench_live_memory.py       #",
                "bench/bench_live_memory.py --tables 10 --sources 2 --kinds tools2 classic #",
                "10 tables from 2 logs, of two kinds, not 10,000 of five (an hour)",
            ),
            Sub(
                "--kinds tools2 tools4 matador",
                "--kinds tools4 --tables 10 --sources 2",
                "10 tables from 2 logs, of one of the kinds",
            ),
            NICE,
        ),
    ),
    ("docs/simulate.md", "from parlor.sim import GameSpec, run_many"): Plan(
        "python",
        prelude="from pathlib import Path\nout_dir = Path('out/api')\n",
        subs=(
            Sub(
                "records = run_many(spec, 200, base_seed=0, workers=4)",
                "records = run_many(spec, 6, base_seed=0, workers=2)",
                FEW,
            ),
        ),
    ),
    ("docs/simulate.md", "from parlor.sim import iter_records, rows"): Plan(
        "python",
        prelude=(
            "from pathlib import Path\nfrom parlor.sim import GameSpec, report\n"
            "spec = GameSpec(game='tools', players=2, bots=('random', 'random'))\n"
            "out_dir = Path('out/stream')\n"
        ),
        subs=(
            Sub(
                "iter_records(spec, 1_000_000, base_seed=0, workers=4)",
                "iter_records(spec, 50, base_seed=0, workers=2)",
                FEW,
            ),
        ),
    ),
    # ----- docs/tools-deck.md
    ("docs/tools-deck.md", "python -m parlor.analysis.deckstudy --games 2000"): Plan(
        "sh", subs=(Sub("--games 2000", "--games 4", FEW),)
    ),
    (
        "docs/tools-deck.md",
        "deck         cards bot     n  turns pen/game pen games seat0 win  fair blocked",
    ): Plan("listed", "figures only (no command in the block): the measured table"),
    # ----- docs/deploy.md (a host's set-up: its parts are run by the server tests named)
    (
        "docs/deploy.md",
        "pip install 'parlor[postgres]'        # (the postgres extra only for PostgreSQL)",
    ): Plan("listed", "a host's install at system paths; the README's block serves the same way"),
    ("docs/deploy.md", "# /etc/nginx/conf.d/parlor.conf"): Plan(
        "listed", "tests/server/test_nginx.py runs this server block in Debian's nginx, with TLS"
    ),
    ("docs/deploy.md", "upstream parlor {"): Plan(
        "listed", "nginx in front of several processes; tests/server/test_postgres.py runs two"
    ),
    ("docs/deploy.md", "[Unit]"): Plan("listed", "a systemd unit: no systemd runs the tests"),
    ("docs/deploy.md", "PARLOR_DATABASE_URL=postgresql://parlor@/parlor"): Plan(
        "listed", "the unit's environment file (systemd reads it)"
    ),
    ("docs/deploy.md", "apt-get install postgresql"): Plan(
        "listed", "a database host's set-up as root; the server tests start a cluster of their own"
    ),
    ("docs/deploy.md", "# prometheus.yml"): Plan(
        "listed", "Prometheus's own configuration; tests/server/test_metrics.py reads /metrics"
    ),
    (
        "docs/deploy.md",
        "parlor db backup /var/backups/parlor-$(date +%F).db --database-url sqlite:////var/lib/parlor/parlor.db",
    ): Plan(
        "listed", "a host's paths; tests/server/test_backup.py runs parlor db backup during play"
    ),
    # ----- docs/analysis.md (the value tables)
    (
        "docs/analysis.md",
        "parlor analyze --all --out out/tables          # about 14 s of CPU in all (see below)",
    ): Plan(
        "sh",
        subs=(
            Sub(
                "bench_value_tables.py             #",
                "bench_value_tables.py --repeat 1  #",
                "one timed build of the tables, not the best of three (each 6-8 s of CPU)",
            ),
        ),
    ),
    # ----- docs/records.md (its records and messages are written by the code itself)
    ("docs/records.md", '[Format "parlor-record 1"]'): Plan("listed", RECORD_EXAMPLE),
    ("docs/records.md", '[Format "parlor-record 1"]#2'): Plan("listed", RECORD_EXAMPLE),
    ("docs/records.md", '[Format "parlor-record 1"]#3'): Plan("listed", RECORD_EXAMPLE),
    (
        "docs/records.md",
        "record       = { comment-line | blank-line }, format-tag, { tag-line | comment-line | blank-line },",
    ): Plan("listed", "the grammar (EBNF): the reader in parlor/records parses by it"),
    (
        "docs/records.md",
        "line 21: the record says P2 roll 6+2 -> Connecticut Avenue, the game gives P2 roll 6+3 -> Connecticut Avenue",
    ): Plan("listed", RECORD_EXAMPLE),
    # ----- docs/web.md
    ("docs/web.md", "$ PYTHONPATH=src python bench/bench_web_traffic.py --actions 600"): Plan(
        "sh", subs=(Sub("--actions 600", "--actions 60", "60 actions, not 600: the bench runs"),)
    ),
    # ----- docs/rl.md
    ("docs/rl.md", "import gymnasium as gym"): Plan("python"),
    ("docs/rl.md", "import gymnasium as gym#2"): Plan("python"),
    ("docs/rl.md", "from parlor.rl.vector_processes import ParlorProcessVectorEnv"): Plan("python"),
    # ----- docs/terminal.md
    (
        "docs/terminal.md",
        "parlor play                                 # classic: you against three heuristic bots",
    ): Plan("sh", interactive=PLAY_PROMPTS),
    ("docs/terminal.md", "Player 1, it is your turn."): Plan(
        "listed", "a screen of the game (tests/cli/test_terminal_80.py plays it at 80 columns)"
    ),
    (
        "docs/terminal.md",
        "FrePar Kentuc Chance Indian Illino BO     Atlant Ventno WatWor Marvin GoJail",
    ): Plan(
        "listed", "the board as the game draws it (tests/cli/test_terminal_items.py checks it)"
    ),
}


def _keyed(blocks: list[Block]) -> dict[tuple[str, str], Block]:
    """Blocks by (file, first line); a first line met again in a file gets ``#2``, ``#3``..."""
    out: dict[tuple[str, str], Block] = {}
    for block in blocks:
        key, n = block.key, 1
        while key in out:
            n += 1
            key = (block.key[0], f"{block.key[1]}#{n}")
        out[key] = block
    return out


BLOCKS = _keyed(read_blocks())


def test_every_block_is_run_or_listed_with_a_reason() -> None:
    """The lead merges documentation from several branches: a block nobody classified fails
    here, with what to add to PLANS."""
    unknown = [f"{b.path}:{b.line}: {k[1]!r}" for k, b in BLOCKS.items() if k not in PLANS]
    gone = [f"{k[0]}: {k[1]!r}" for k in PLANS if k not in BLOCKS]
    assert not unknown, "code blocks neither run nor listed (add them to PLANS):\n" + "\n".join(
        unknown
    )
    assert not gone, "PLANS names blocks that are no longer in the docs:\n" + "\n".join(gone)
    for key, plan in PLANS.items():
        assert plan.kind in ("sh", "python", "json", "synopsis", "listed"), key
        assert plan.kind != "listed" or plan.why, f"{key}: a listed block needs its reason"
        for sub in plan.subs:
            assert sub.why, f"{key}: substitution {sub.old!r} needs its reason"
            assert sub.old in BLOCKS[key].text, f"{key}: {sub.old!r} is no longer in the block"


# ----- the scratch folder, the shims and the server ----------------------------------------------
@pytest.fixture(scope="module")
def work(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("docs")
    (folder / "bench").symlink_to(ROOT / "bench")
    shims = folder / ".bin"
    shims.mkdir()
    for name, args in (("parlor", "-m parlor.cli"), ("python", ""), ("python3", "")):
        shim = shims / name
        shim.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} {args} "$@"\n')
        shim.chmod(0o755)
    return folder


def environment(work: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("LANGUAGE", None)
    env.update(
        PATH=f"{work / '.bin'}{os.pathsep}{env.get('PATH', '')}",
        PYTHONPATH=os.pathsep.join([str(ROOT / "src"), str(ROOT), env.get("PYTHONPATH", "")]),
        LANG="C.UTF-8",
        LC_ALL="C.UTF-8",
        MPLBACKEND="Agg",
        COLUMNS="80",
        PYTHONUNBUFFERED="1",
        RAY_USAGE_STATS_ENABLED="0",
    )
    return env


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("docs-db") / "parlor.db"
    proc = ServerProcess(f"sqlite:///{db}", "--bot-delay", "0").start()
    yield proc
    proc.stop()


class HostedTable:
    """A TOOLS table with a free seat: a host thread plays seat 0 and starts the table once the
    free seat is taken (what ``{link}`` in a command names)."""

    def __init__(self, base: str) -> None:
        self.made = client.create_table(base, game="tools", seats=["human", "human"])
        self.result: dict[str, Any] = {}
        self.thread = threading.Thread(target=self._play, daemon=True)
        self.thread.start()

    def _play(self) -> None:
        self.result.update(client.play(self.made, policy=client.random_policy(1), timeout=240))

    def done(self) -> dict[str, Any]:
        self.thread.join(250)
        assert self.result.get("winners") is not None, "the host's game did not end"
        return self.result


def _apply(plan: Plan, text: str, fields: dict[str, str]) -> str:
    for sub in plan.subs:
        text = text.replace(sub.old, sub.new)
    for name, value in fields.items():
        text = text.replace("{" + name + "}", value)
    return text


# ----- shell blocks ------------------------------------------------------------------------------
def commands(text: str) -> tuple[list[str], list[str], bool]:
    """The block's commands (continued lines joined), the output lines it shows, and whether it is
    written with ``$`` prompts."""
    lines = text.splitlines()
    prompted = any(ln.startswith("$ ") for ln in lines)
    cmds: list[str] = []
    shown: list[str] = []
    current: str | None = None
    for line in lines:
        if current is not None:
            current += "\n" + line
        elif prompted and line.startswith("$ "):
            current = line[2:]
        elif not prompted and line.strip() and not line.lstrip().startswith("#"):
            current = line
        else:
            shown.append(line)
            continue
        if current.endswith("\\"):
            continue
        try:
            shlex.split(current, comments=True)
        except ValueError:  # (a quote still open: the command goes on)
            continue
        cmds.append(current.replace("\\\n", " "))
        current = None
    assert current is None, f"a command is not finished: {current!r}"
    return cmds, shown, prompted


def _norm(text: str) -> str:
    return " ".join(text.replace("━", " ").split())


def run_sh(plan: Plan, block: Block, work: Path, fields: dict[str, str]) -> None:
    env = environment(work)
    if plan.prelude:
        done = subprocess.run(
            _apply(plan, plan.prelude, fields), shell=True, cwd=work, env=env, text=True,
            capture_output=True, timeout=300, executable="/bin/bash",
        )  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
    cmds, shown, prompted = commands(_apply(plan, block.text, fields))
    printed = []
    for cmd in cmds:
        if any(cmd.startswith(start) for start in plan.skip):
            continue
        where = f"{block.path}:{block.line}: {cmd}"
        if any(cmd.startswith(start) for start in plan.serves):
            serve(cmd, work, env, where)
            continue
        started, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(
            cmd, shell=True, cwd=work, env=env, text=True, capture_output=True, timeout=300,
            stdin=subprocess.DEVNULL, executable="/bin/bash",
        )  # fmt: skip
        out = done.stdout + done.stderr
        seconds = time.perf_counter() - started
        print(f"{seconds:6.1f} s ({_children_cpu() - cpu:5.1f} s CPU)  {cmd.splitlines()[0][:90]}")
        assert "Traceback" not in out, f"{where}\n{out[-3000:]}"
        if any(cmd.startswith(start) for start in plan.interactive):
            # stdin is empty: the game starts, shows its first prompt and stops ("input ended"),
            # with 1; 2 would be a refused option
            assert done.returncode in (0, 1) and out.strip(), f"{where}\n{out[-3000:]}"
        else:
            assert done.returncode == 0, f"{where}\nexit {done.returncode}\n{out[-3000:]}"
        printed.append(out)
    if prompted:  # the output the doc shows: every line without a figure must be there
        said = _norm("\n".join(printed))
        for line in shown:
            if re.search(r"[A-Za-z]", line) and not re.search(r"\d", line):
                assert _norm(line) in said, f"{block.path}:{block.line}: not printed: {line!r}"


def serve(cmd: str, work: Path, env: dict[str, str], where: str) -> None:
    """A command that serves until stopped: it must print its address and answer there."""
    proc = subprocess.Popen(
        cmd, shell=True, cwd=work, env=env, text=True, stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT, start_new_session=True, executable="/bin/bash",
    )  # fmt: skip
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert "serving at" in line, f"{where}\n{line}"
        base = line.split()[-1].rstrip("/")
        deadline = time.time() + 30
        while True:
            try:
                with urllib.request.urlopen(base + "/api/health", timeout=2) as resp:
                    assert resp.status == 200
                    break
            except OSError:
                assert time.time() < deadline, f"{where}: no answer at {base}"
                time.sleep(0.1)
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(20)


# ----- python, json and the synopsis -------------------------------------------------------------
def run_python(plan: Plan, block: Block, work: Path, fields: dict[str, str]) -> None:
    code = _apply(plan, plan.prelude, fields) + _apply(plan, block.text, fields)
    if plan.raises:
        code = f"try:\n{_indent(code)}\nexcept {plan.raises}:\n    print('raised as shown')\n"
        code = f"from parlor.core.errors import {plan.raises}\n" + code
    started, cpu = time.perf_counter(), _children_cpu()
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=work, env=environment(work), text=True,
        capture_output=True, timeout=300, stdin=subprocess.DEVNULL,
    )  # fmt: skip
    seconds, cpu = time.perf_counter() - started, _children_cpu() - cpu
    print(f"{seconds:6.1f} s ({cpu:5.1f} s CPU)  python: {block.key[1][:70]}")
    out = done.stdout + done.stderr
    assert done.returncode == 0, f"{block.path}:{block.line}\n{out[-3000:]}"
    assert not plan.raises or "raised as shown" in done.stdout, out


def _children_cpu() -> float:
    """CPU seconds of the finished child processes (the machine may be loaded: wall time says
    little of what a block costs)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _indent(code: str) -> str:
    return "\n".join("    " + line for line in code.splitlines())


def run_json(block: Block, base: str | None) -> None:
    lines = [ln for ln in block.text.splitlines() if ln.strip()]
    try:
        values = [json.loads(block.text)]
    except json.JSONDecodeError:  # one message a line, a message over several lines
        values, chunk = [], ""
        for line in lines:
            chunk += line
            try:
                values.append(json.loads(chunk))
                chunk = ""
            except json.JSONDecodeError:
                continue
        assert not chunk, f"{block.path}:{block.line}: not JSON: {chunk!r}"
    first = values[0]
    if "game" in first and "seats" in first:  # the create request: sent to a real server
        assert base is not None
        made = client.create_table(base, **first)
        shown = json.loads(BLOCKS[("docs/server.md", next(
            k[1] for k in BLOCKS if k[0] == "docs/server.md" and k[1].startswith('{"table"')
        ))].text)  # fmt: skip
        assert set(made) == set(shown), (sorted(made), sorted(shown))
        assert made["link"].startswith(base + "/#table=" + made["table"] + "&invite=")
    elif "type" in first:  # client messages: every type is one the server reads
        from parlor.server.protocol import CLIENT_TYPES

        assert {v["type"] for v in values} <= set(CLIENT_TYPES), values
    else:
        assert all(isinstance(v, dict) for v in values)


def run_synopsis(block: Block, work: Path) -> None:
    """Every option of the synopsis is one ``parlor simulate --help`` lists, and the other way."""
    done = subprocess.run(
        ["parlor", "simulate", "--help"], cwd=work, env=environment(work), text=True,
        capture_output=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    documented = set(re.findall(r"--[a-z][a-z-]+", block.text))
    helped = set(re.findall(r"--[a-z][a-z-]+", done.stdout)) - {"--help"}
    assert documented == helped, (sorted(documented - helped), sorted(helped - documented))


# ----- the tests: one per document, so that a failure names it -----------------------------------
def _blocks_of(doc: str) -> list[tuple[tuple[str, str], Block]]:
    return [(k, b) for k, b in BLOCKS.items() if k[0] == doc]


@pytest.mark.parametrize("doc", sorted({k[0] for k in BLOCKS}))
def test_the_examples_of(
    doc: str, work: Path, server: ServerProcess, request: pytest.FixtureRequest
) -> None:
    for key, block in sorted(_blocks_of(doc), key=lambda kb: PLANS.get(kb[0], Plan("")).order):
        plan = PLANS.get(key)
        if plan is None or plan.kind == "listed":
            continue  # (an unknown block fails the test above)
        fields = {"work": str(work), "base": server.base}
        hosted = None
        if "{link}" in "".join(s.new for s in plan.subs):
            hosted = HostedTable(server.base)
            fields["link"] = hosted.made["link"]
        if plan.kind == "sh":
            run_sh(plan, block, work, fields)
        elif plan.kind == "python":
            run_python(plan, block, work, fields)
        elif plan.kind == "json":
            run_json(block, server.base)
        elif plan.kind == "synopsis":
            run_synopsis(block, work)
        if hosted is not None:
            hosted.done()

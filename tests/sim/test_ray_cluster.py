"""``parlor simulate --backend ray`` against a real Ray cluster: a head node started with
``ray start --head`` and a second node joining it with ``ray start --address``, on this machine,
in a network namespace of the test's own where the loopback address is the only one (see
``ray_cluster_run.py``). Rows from the cluster equal a local run of the same seeds, through the
library and through the command pointed at the cluster by ``RAY_ADDRESS``.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the Ray backend needs Ray: pip install 'parlor[ray]'")

HELPER = Path(__file__).with_name("ray_cluster_run.py")
TIMEOUT = 240  # seconds: a bound, not the expected time (about 40 s here)


def test_two_node_cluster_on_loopback_gives_the_local_rows(tmp_path: Path) -> None:
    unshare = shutil.which("unshare")
    assert unshare, "util-linux's unshare is needed to give the cluster its own loopback network"
    proc = subprocess.Popen(
        [unshare, "--net", sys.executable, str(HELPER), str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        cwd=Path(__file__).parents[2],
    )
    try:
        out, _ = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        pytest.fail(f"the Ray cluster run took over {TIMEOUT} s:\n{out[-4000:]}")
    results = [line for line in out.splitlines() if line.startswith("RESULT ")]
    assert proc.returncode == 0 and results, out[-4000:]
    found = json.loads(results[-1].removeprefix("RESULT "))
    assert found["nodes"] == ["127.0.0.1", "127.0.0.1"]  # two nodes, both on the loopback
    assert found["task_nodes"] == 2  # and both ran tasks
    assert found["rows_equal"] and found["games"] == 12
    assert found["cli_exit"] == 0 and found["cli_rows_equal"]
    assert found["cli_backend"] == "ray" and found["cli_ray_address"] == found["address"]

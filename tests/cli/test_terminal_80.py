"""Both terminal games played in a real pseudo-terminal of 80 columns, in en, es and da.

A terminal cuts a line that is too long at its last column, mid-word. Each game is played twice
with the same seed and keys: in a terminal 80 columns wide and in one 200 wide. The 80-column
screen must hold no line over 80 columns, and exactly the words of the wide screen (which the
game printed without wrapping): a word cut at a line's end would be two words there. The wide
run must have lines over 80 columns, so the narrow one did have to wrap.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.pty_run import run_in_pty

# Keys that open every screen: the table, the board, the rule, a hint, the help, a few moves,
# the build menu, a trade (cancelled), junk, then quitting without saving.
PLAY_KEYS = ["i", "v", "r", "?", "h", "1", "1", "1", "b", "", "t", "", "zz", "q", ""]
TOOLS_KEYS = ["?", "r", "h", "d", "1", "1 6", "r", "zz", "q", ""]

CASES = [
    (["play", "--seed", "5", "--lang", "en"], PLAY_KEYS),
    (["play", "--seed", "5", "--lang", "es", "--edition", "latam"], PLAY_KEYS),
    (["play", "--seed", "5", "--lang", "da", "--edition", "matador"], PLAY_KEYS),
    (["play", "--seed", "5", "--lang", "es", "--variant", "short"], PLAY_KEYS),
    (["tools", "--seed", "4", "--lang", "en"], TOOLS_KEYS),
    (["tools", "--seed", "4", "--lang", "es"], TOOLS_KEYS),
    (["tools", "--seed", "4", "--lang", "da"], TOOLS_KEYS),
]


@pytest.mark.parametrize(("args", "keys"), CASES, ids=lambda x: "-".join(x)[:40])
def test_no_line_is_cut_mid_word_at_80_columns(
    args: list[str], keys: list[str], tmp_path: Path
) -> None:
    code, narrow = run_in_pty(args, keys, width=80, cwd=tmp_path)
    assert code == 1, narrow[-2000:]  # quit by q, as typed
    assert "Traceback" not in narrow
    too_long = [line for line in narrow.split("\n") if len(line) > 80]
    assert not too_long
    code, wide = run_in_pty(args, keys, width=200, cwd=tmp_path)
    assert code == 1
    assert any(len(line) > 80 for line in wide.split("\n"))  # wrapping was needed at 80
    assert narrow.split() == wide.split()
    # the keys reached the game: r cited the rules notes of the game played
    notes = "docs/rules/README.md" if args[0] == "play" else "docs/rules/tools.md"
    assert notes in narrow

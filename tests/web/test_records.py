"""The browser and game records (docs/records.md): after the end the replay card downloads the
game's record, which replays to the game, and opens a record file to step through its moves,
read by the grammar alone."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

from parlor import client
from parlor.records import parse, read_game
from tests.server.support import start
from tests.web.play import DESKTOP


def test_the_replay_card_downloads_and_opens_records(
    web_server: Any, contexts: Any, tmp_path: Path
) -> None:
    made = client.create_table(
        web_server.base, game="tools", seats=["heuristic", "random", "heuristic"], host_seat=None
    )

    async def begin() -> None:
        h = await client.Table.connect(web_server.base, made["table"], host_key=made["host_key"])
        await start(h)
        await h.close()

    # (in a thread of its own: Playwright's event loop runs in this one)
    starter = threading.Thread(target=asyncio.run, args=(begin(),))
    starter.start()
    starter.join(timeout=60)
    page = contexts(viewport=DESKTOP, accept_downloads=True).new_page()
    page.goto(made["link"])
    page.click("#watch-button")
    page.wait_for_selector("#final", timeout=120_000)
    with page.expect_download() as info:
        page.click("#record-download")
    path = tmp_path / "game.plr"
    info.value.save_as(path)
    assert info.value.suggested_filename == f"parlor-{made['table']}.plr"
    text = path.read_text(encoding="utf-8")
    game = read_game(text)
    assert game.is_over
    record = parse(text)
    assert [t.values[2] for t in record.tags_named("Seat")] == ["heuristic", "random", "heuristic"]
    # the file opened again in the page by its button (in the page's words; the browser's own
    # "Choose File" is not shown): its moves, one step at a time
    assert page.inner_text("#records label.file-button") == "Open a record"
    box = page.locator("#records label.file-button").bounding_box()
    assert box is not None and box["height"] >= 44
    with page.expect_file_chooser() as chooser:
        page.click("#records label.file-button")
    chooser.value.set_files(str(path))
    page.wait_for_selector("#record-at[data-step='0']")
    assert page.inner_text("#record-seats").count("P") == 3
    assert "tools" in page.inner_text("#record-head")
    for step in (1, 2, 3):
        page.click("#record-next")
        page.wait_for_selector(f"#record-at[data-step='{step}']")
    assert page.inner_text("#record-moves li.current") == record.moves[2].text()
    page.click("#record-prev")
    page.wait_for_selector("#record-at[data-step='2']")
    assert page.inner_text("#record-moves li.current") == record.moves[1].text()
    page.click("#record-last")
    page.wait_for_selector(f"#record-at[data-step='{len(record.moves)}']")
    assert page.inner_text("#record-moves li.current") == record.moves[-1].text()
    (tmp_path / "not.plr").write_text('{"game": "tools"}', encoding="utf-8")
    page.set_input_files("#record-file", str(tmp_path / "not.plr"))
    page.wait_for_selector("#record-error")

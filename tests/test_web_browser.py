"""The board in a real browser: Playwright driving Debian's chromium headless against a
``hanabi serve`` started for the test (issue 35, item 6). Skips, saying why, where
chromium or Playwright is missing (``.ci/run`` installs chromium; Playwright is a test
dependency)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

from conftest import DATA, REPO

sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (.ci/run installs it)", allow_module_level=True)

GAME = DATA / "hanablive" / "p5v0s198_game149251.json"


@pytest.fixture(scope="module")
def server(server_process):
    return server_process[0]


@pytest.fixture(scope="module")
def server_process():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-c", "import cli.hanabi as h; h.main()", "serve", "--port", str(port)],
                            cwd=REPO, stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}"
    t0 = time.monotonic()
    while True:
        try:
            with urllib.request.urlopen(url + "/healthz", timeout=1):
                break
        except OSError:
            if time.monotonic() - t0 > 20 or proc.poll() is not None:
                proc.kill()
                pytest.fail(f"hanabi serve did not start: {proc.stderr.read() if proc.stderr else ''}")
            time.sleep(0.1)
    yield url, proc
    proc.send_signal(signal.SIGTERM)
    proc.wait(timeout=20)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context()
    pg = context.new_page()
    pg.problems = []
    pg.on("pageerror", lambda e: pg.problems.append(str(e)))
    pg.on("dialog", lambda d: (pg.problems.append("dialog: " + d.message), d.dismiss()))
    yield pg
    context.close()


def slow_game(k: int) -> str:
    """A game whose review takes seconds (hard two-player deck ``k`` of tests/data/decks,
    ten greedy moves in): long enough to be watched, cancelled or broken, and a game no
    other test here reviews (the server keeps reviews by the game)."""
    import solver

    line = (DATA / "decks" / "hard_2p_first20.jsonl").read_text().splitlines()[k]
    rec = solver.game_from_json(json.loads(line))
    rec.actions = list(solver.greedy_line(rec.game.initial_state())[0][:10])
    return json.dumps(rec.to_json())


def open_game(page, server, text: str) -> None:
    page.goto(server + "/")
    page.fill("textarea[name=game]", text)
    page.click("form.stack button[type=submit]")


def test_a_seed_solves_to_25_and_steps_through_its_line(page, server):
    page.goto(server + "/")
    page.fill("#seed", "p3v0s1")
    page.click("#seed-form button")
    page.wait_for_selector("#position .hand")
    assert "score 0/25" in page.text_content("#info")
    page.click("#solve")
    page.wait_for_selector("#verdict", timeout=60_000)
    assert page.text_content("#verdict") == "From turn 0: maximum 25/25 (exact)"
    assert "why not more (perfect): the perfect score of No Variant is 25" in page.text_content("#answer")
    assert not page.problems


def test_review_a_real_game_shows_the_drops_and_steps_to_them(page, server):
    open_game(page, server, GAME.read_text())
    page.wait_for_selector("#position .hand")
    assert page.text_content("#turn-label") == "turn 0 of 53"
    page.keyboard.press("End")
    assert page.text_content("#turn-label") == "turn 53 of 53" and "score 23/25" in page.text_content("#info")
    page.keyboard.press("ArrowLeft")
    assert page.text_content("#turn-label") == "turn 52 of 53"
    page.click("#review")
    page.wait_for_selector("#drops li", timeout=120_000)
    items = page.query_selector_all("#drops li")
    assert [i.text_content().split(" ")[1] for i in items] == ["35", "40"]  # as hanabi review says
    items[1].query_selector("button").click()
    assert page.text_content("#turn-label") == "turn 40 of 53"
    page.click("#solve")
    page.wait_for_selector("#verdict", timeout=60_000)
    assert page.text_content("#verdict") == "From turn 40: maximum 24/25 (exact)"
    assert not page.problems


def test_the_front_page_lays_out_its_form(page, server):
    """The form's layout class once clashed with the stack tiles' (a 34 px wide form)."""
    page.goto(server + "/")
    box = page.locator("textarea[name=game]").bounding_box()
    assert box is not None and box["width"] > 400
    assert not page.problems


def test_bad_files_get_their_errors(page, server, tmp_path):
    truncated = tmp_path / "truncated.json"
    truncated.write_text(GAME.read_text()[:700])
    big = tmp_path / "big.json"
    big.write_text(" " * (3 * 1024 * 1024))
    for path, words in ((truncated, "invalid JSON"), (big, "larger than 2 MB")):
        page.goto(server + "/")
        page.set_input_files("input[type=file]", str(path))
        page.click("form.stack button[type=submit]")
        page.wait_for_selector(".error")
        assert words in page.text_content(".error")
    assert not page.problems


def test_a_player_name_of_markup_is_text_and_runs_nothing(page, server):
    d = json.loads(GAME.read_text())
    evil = "<img src=x onerror=alert(1)>"
    d["players"][0] = evil
    open_game(page, server, json.dumps(d))
    page.wait_for_selector("#position .hand")
    assert page.text_content("#position .hand .name") == evil
    assert page.query_selector("#position img") is None
    page.wait_for_timeout(300)
    assert not page.problems  # no alert dialog, no script error


def test_play_the_solved_line_from_a_turn_on_the_board(page, server):
    open_game(page, server, GAME.read_text())
    page.wait_for_selector("#position .hand")
    for _ in range(36):
        page.keyboard.press("ArrowRight")
    page.click("#solve")
    page.wait_for_selector("#play-line", timeout=60_000)
    page.click("#play-line")
    page.wait_for_selector("#banner:not([hidden])")
    assert page.text_content("#turn-label").startswith("turn 36 of ")
    page.keyboard.press("End")
    info = page.text_content("#info")
    assert "score 24/25" in info and "game over" in info  # the line reaches the maximum from turn 36
    page.click("#back")
    assert page.text_content("#turn-label").endswith("of 53") and page.is_hidden("#banner")
    assert not page.problems


def test_the_chances_panel_near_the_end(page, server):
    open_game(page, server, GAME.read_text())
    page.wait_for_selector("#position .hand")
    assert page.is_disabled("#chances")  # 40 cards in the pile at the deal: too many
    for _ in range(45):
        page.keyboard.press("ArrowRight")
    assert page.is_enabled("#chances")
    page.click("#chances")
    page.wait_for_selector("#chances-verdict", timeout=60_000)
    # as hanabi chances --turn 45 says: the target 23, reached in 1 of the 2 orders of the pile
    assert page.text_content("#chances-verdict") == ("Turn 45, the pile's order unknown: P(reach 23) 50.00% with "
                                                     "the best play")
    assert page.query_selector_all("table.moves tr.best")
    assert not page.problems


def test_a_review_shows_its_progress_and_can_be_cancelled(page, server):
    open_game(page, server, slow_game(0))
    page.wait_for_selector("#position .hand")
    page.click("#review")
    page.locator("#status", has_text="reviewing").wait_for(timeout=60_000)
    page.click("#cancel")
    # (the page's Content Security Policy forbids the evaluated script wait_for_function would run)
    page.locator("#status", has_text="the review was cancelled").wait_for(timeout=60_000)
    assert page.is_hidden("#cancel")
    assert not page.problems


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (from /proc)."""
    import os

    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for c in children.get(todo.pop(), []):
            out.append(c)
            todo.append(c)
    return out


def test_killing_the_workers_mid_review_leaves_the_server_serving(page, server_process):
    url, proc = server_process
    open_game(page, url, slow_game(1))
    page.wait_for_selector("#position .hand")
    page.click("#review")
    page.locator("#status", has_text="reviewing").wait_for(timeout=60_000)
    for pid in _descendants(proc.pid):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    page.locator("#status", has_text="error: a worker stopped").wait_for(timeout=60_000)
    page.reload()
    page.wait_for_selector("#position .hand")
    page.click("#solve")
    page.wait_for_selector("#verdict", timeout=60_000)
    assert page.text_content("#verdict").startswith("From turn 0: maximum ")
    page.click("#review")  # and a review runs again, to its end
    page.wait_for_selector("#drops li", timeout=120_000)
    assert proc.poll() is None and not page.problems


def test_both_real_games_show_the_drops_hanabi_review_gives(page, server):
    from conftest import run_cli

    for path in sorted((DATA / "hanablive").glob("*.json")):
        if path.name == "expected.json":
            continue
        cli = json.loads(run_cli("review", str(path), "--json").stdout)
        open_game(page, server, path.read_text())
        page.wait_for_selector("#position .hand")
        page.click("#review")
        page.wait_for_selector("#drops li", timeout=120_000)
        items = [i.text_content() for i in page.query_selector_all("#drops li")]
        if cli["drops"]:
            assert [int(t.split(" ")[1]) for t in items] == [d["turn"] for d in cli["drops"]], path.name
        else:
            assert items == [f"the maximum never fell: {cli['turns'][0]['max_score']}"], path.name
    assert not page.problems

"""`lumos view` in a real headless browser: the system's Chromium driven by Selenium.

Opens a Catch the Golden Snitch log, steps through it and checks the page against the
game: the pieces on the board stand where the positions say, the log marks the current
decision with the option taken, and the side switch shows each coach's own hand while
the rival's stays a count. Skipped when Chromium, chromedriver or Selenium is missing
(CI installs Debian's `chromium` and `chromium-driver`).

Rulebook (catch-the-golden-snitch.txt): "Setup" (the Quaffle starts with a Chaser of the
team that won the roll for advantage), "Prepare to Play > Team Selection" and "Hand Swap"
(each coach's hand is seen by that coach only).
"""
from __future__ import annotations

import shutil
import threading
import time

import pytest

from lumos.api import load_game
from lumos.interpreter.play import write_game_log
from lumos.viewer import LogGame, log_history, make_server

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
webdriver = pytest.importorskip("selenium.webdriver", reason="the browser test needs selenium")
if not (CHROMIUM and DRIVER):
    pytest.skip("the browser test needs chromium and chromedriver (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

GAME = "catch-the-golden-snitch"


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    cg = load_game(GAME)
    path = tmp_path_factory.mktemp("browser") / "game.jsonl"
    assert write_game_log(cg, path, seed=3).completed
    states, choices = log_history(cg, path)
    server = make_server(LogGame(cg, states, choices), 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1400,1000"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.get(f"http://127.0.0.1:{server.server_port}/")
        wait(driver, lambda d: d.execute_script("return document.body.dataset.ready") == "yes")
        yield driver, cg, states, choices
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()
        thread.join()


def wait(driver, condition):
    return WebDriverWait(driver, 60).until(condition)


def at_step(driver, k: int) -> None:
    """Wait until the page shows decision k, its board drawn too."""
    wait(driver, lambda d: d.execute_script("return document.body.dataset.step") == str(k))
    wait(driver, lambda d: d.execute_script("return document.getElementById('board').dataset.step") == str(k))


def board_pieces(driver) -> dict[str, str]:
    """Piece -> the space it is drawn on, or `carried by X` for a carried piece."""
    out = {}
    for g in driver.find_elements(By.CSS_SELECTOR, "#board g.piece"):
        carrier = g.get_attribute("data-carried-by")
        out[g.get_attribute("data-piece")] = f"carried by {carrier}" if carrier else g.get_attribute("data-space")
    return out


def expected_pieces(state, side: int) -> dict[str, str]:
    """Where the position (as `side` sees it) puts each piece on the board."""
    out = {}
    for name, where in state.position(for_side=side)["pieces"].items():
        if isinstance(where, dict):
            out[name] = f"carried by {where['carried_by']}"
        elif isinstance(where, str):
            out[name] = where
    return out


def kick_off_step(states) -> int:
    """The first decision at which a Chaser holds the Quaffle ("Setup")."""
    return next(k for k, s in enumerate(states)
                if isinstance(s.position()["pieces"]["quaffle"], dict))


def test_stepping_moves_the_pieces_and_the_log(page):
    driver, cg, states, choices = page
    at_step(driver, 0)
    target = kick_off_step(states)
    for _ in range(target):
        driver.find_element(By.ID, "next").click()
    at_step(driver, target)
    assert board_pieces(driver) == expected_pieces(states[target], 0)
    carrier = states[target].position()["pieces"]["quaffle"]["carried_by"]
    assert board_pieces(driver)["quaffle"] == f"carried by {carrier}"
    current = driver.find_element(By.CSS_SELECTOR, "#log li.step.current")
    assert current.get_attribute("data-step") == str(target)
    label = states[target].options()[choices[target]]["label"]
    assert label in current.text
    # the events of the kick-off cite their rules, linked to the reference
    links = current.find_elements(By.CSS_SELECTOR, ".rule a")
    assert links and all(f"/reference/{GAME}.html#" in a.get_attribute("href") for a in links)
    driver.find_element(By.ID, "prev").click()
    at_step(driver, target - 1)
    assert board_pieces(driver) == expected_pieces(states[target - 1], 0)


def test_the_side_switch_shows_each_hand_to_its_coach_only(page):
    driver, cg, states, choices = page
    k = len(states) // 2
    driver.execute_script(f"document.querySelector('#log li.step[data-step=\"{k}\"]').click()")
    at_step(driver, k)
    for side, rival in ((0, 1), (1, 0)):
        Select(driver.find_element(By.ID, "side")).select_by_value(cg.sides[side])
        wait(driver, lambda d: d.execute_script("return document.body.dataset.side") == cg.sides[side])
        at_step(driver, k)
        own = driver.find_element(By.CSS_SELECTOR, f'#zone-list li[data-zone="{cg.sides[side]} hand"]').text
        hand = [cg.cards[c].name for c in states[k].st.zones[cg.zone_id("hand", side)]]
        assert all(name in own for name in hand)
        rivals = driver.find_elements(By.CSS_SELECTOR, f'#zone-list li[data-zone="{cg.sides[rival]} hand"]')
        rival_hand = states[k].st.zones[cg.zone_id("hand", rival)]
        if rival_hand:
            assert rivals[0].text == f"{cg.sides[rival]} hand: {len(rival_hand)} hidden " \
                                     f"card{'s' if len(rival_hand) != 1 else ''}"


def test_a_live_game_is_played_by_clicking_an_option():
    from lumos.interpreter.agents import RandomAgent
    from lumos.interpreter.engine import GameState
    from lumos.viewer import LiveGame
    cg = load_game(GAME)
    game = LiveGame(cg, GameState.new(cg, seed=2, log=True, forced="take"), 0, {1: RandomAgent(1)})
    server = make_server(game, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        driver.get(f"http://127.0.0.1:{server.server_port}/")
        wait(driver, lambda d: d.execute_script("return document.body.dataset.ready") == "yes")
        assert [o.text for o in Select(driver.find_element(By.ID, "side")).options] == ["home"]
        at = len(game.states) - 1
        first = game.state.options()[0]["label"]
        buttons = driver.find_elements(By.CSS_SELECTOR, "#option-list button")
        assert buttons and buttons[0].text == first
        buttons[0].click()
        wait(driver, lambda d: int(d.execute_script("return document.body.dataset.step") or 0) > at)
        assert game.choices[at] == 0
        assert first in driver.find_element(By.CSS_SELECTOR, f'#log li.step[data-step="{at}"]').text
    finally:
        driver.quit()
        server.shutdown()
        server.server_close()
        thread.join()

"""`lumos view`'s data and server: one side's page data never holds what that side cannot see.

Rulebook: catch-the-golden-snitch.txt, "Prepare to Play > Team Selection" and "Hand Swap"
(each coach builds a Tactical deck and holds a hand the rival does not see); the data of
a side is made from that side's positions, so the rival's deck, hand and face-down
choices stay out of it.
"""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest

from lumos.api import load_game
from lumos.interpreter.agents import RandomAgent
from lumos.interpreter.engine import GameState
from lumos.interpreter.play import write_game_log
from lumos.interpreter.visibility import zone_seen
from lumos.viewer import LiveGame, LogGame, log_history, make_server, side_data
from lumos.viewer.steps import HIDDEN_CHOICE

GAME = "catch-the-golden-snitch"


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    cg = load_game(GAME)
    path = tmp_path_factory.mktemp("view") / "game.jsonl"
    result = write_game_log(cg, path, seed=3)
    assert result.completed
    states, choices = log_history(cg, path)
    return cg, path, states, choices


def secrets_by_step(cg, states, side: int) -> list[set[str]]:
    """Per state: the names of the cards lying where `side` cannot look, less those it reads
    at that moment anyway (in a zone it sees, in its own options, in an event the engine
    lets it read: a card it drew itself)."""
    out = []
    for k, state in enumerate(states):
        hidden, visible = set(), set()
        for c, z in enumerate(state.st.card_zone):
            if z >= 0:
                (visible if zone_seen(cg, z, side) else hidden).add(cg.cards[c].name)
        earlier = len(states[k - 1].events) if k else 0
        readable = " ".join(ev["event"] for ev in state.events[earlier:] if side not in ev.get("hidden_from", ()))
        if state.current_player() == side:
            readable += " ".join(o["label"] for o in state.options())
        out.append({name for name in hidden - visible if name not in readable})
    return out


@pytest.mark.parametrize("side", [0, 1])
def test_a_sides_data_never_names_a_card_it_cannot_see(logged, side):
    cg, _path, states, choices = logged
    secrets = secrets_by_step(cg, states, side)
    assert sum(map(len, secrets)) > 100, "the rival's Tactical deck and hand, the Snitch deck"
    assert_no_secret(cg, side_data(cg, states, choices, side), secrets, side)


@pytest.mark.parametrize("game", ["snitch-snatcher", "defenders-of-hogwarts", "chamber-of-secrets-trivia"])
def test_no_game_sends_a_side_a_card_it_cannot_see(game, tmp_path):
    cg = load_game(game)
    path = tmp_path / "game.jsonl"
    write_game_log(cg, path, seed=3, max_decisions=400)
    states, choices = log_history(cg, path)
    for side in (0, cg.nsides - 1):
        assert_no_secret(cg, side_data(cg, states, choices, side), secrets_by_step(cg, states, side), side)


def mentions(cg, text: str, name: str) -> bool:
    """Does `text` name the card `name` (not only a longer card name holding it: "Boathouse"
    in "Boathouse Tunnel")?"""
    for longer in {c.name for c in cg.cards if name in c.name and c.name != name}:
        text = text.replace(json.dumps(longer)[1:-1], "")
    return json.dumps(name)[1:-1] in text


def assert_no_secret(cg, data, secrets, side) -> None:
    for k, (step, secret) in enumerate(zip(data["steps"], secrets)):
        # what was chosen shows once it is done: it is read against the state after it; the
        # rules' names and rulebook sections are the game's own words, not cards in play
        shown = {key: value for key, value in step.items() if key != "chosen"}
        shown["events"] = [ev["text"] for ev in step["events"]]
        shown["options"] = [o["label"] for o in step["options"] or ()]
        text = json.dumps(shown)
        leaked = sorted(name for name in secret if mentions(cg, text, name))
        assert leaked == [], f"step {k}"
        if step["chosen"] is not None and step["decider"] != cg.sides[side]:   # its own choice it knows
            after = secrets[k + 1]
            assert [name for name in after if mentions(cg, step["chosen"], name)] == [], f"choice at step {k}"


def test_hidden_zones_show_only_their_size_and_rival_choices_stay_hidden(logged):
    cg, _path, states, choices = logged
    data = side_data(cg, states, choices, 0)
    step = data["steps"][-1]
    assert step["zones"]["away hand"] == {"hidden": len(states[-1].st.zones[cg.zone_id("hand", 1)])}
    # away's Tactical deck is built face down ("Build Your Team"): home reads none of its cards
    away_builds = [s for s in data["steps"] if s["decider"] == "away" and s["chosen"] == HIDDEN_CHOICE]
    assert away_builds
    assert all(s["options"] is None for s in data["steps"] if s["decider"] == "away")


def test_each_event_names_its_rule_and_rulebook_section(logged):
    cg, _path, states, choices = logged
    data = side_data(cg, states, choices, 0)
    events = [ev for s in data["steps"] for ev in s["events"]]
    assert events
    for ev in events:
        rule = ev["rule"]
        assert rule["name"] and rule["href"].startswith(f"/reference/{GAME}.html#lumos-{GAME}-")
    # "Setup": the Snitch starts at the end of the Snitch Race; the event cites the setup rule
    first = data["steps"][0]["events"][0]
    assert first["rule"]["name"] == "setup" and first["rule"]["section"] == "Setup"


def test_the_board_follows_the_positions(logged):
    cg, _path, states, choices = logged
    data = side_data(cg, states, choices, 1)
    for k in (0, len(states) // 2, len(states) - 1):
        position = states[k].position(for_side=1)["pieces"]
        for name, where in data["steps"][k]["pieces"].items():
            assert where == position[name] if not isinstance(where, dict) else where["carried_by"] == \
                position[name]["carried_by"]


def _get(port: int, path: str):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, e.read()


@pytest.fixture()
def live_server():
    cg = load_game(GAME)
    state = GameState.new(cg, seed=5, log=True, forced="take")
    game = LiveGame(cg, state, 0, {1: RandomAgent(9)})
    server = make_server(game, 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield game, server.server_port
    server.shutdown()
    server.server_close()
    thread.join()


def test_a_live_game_serves_only_the_persons_side(live_server):
    game, port = live_server
    assert _get(port, "/data/home.json")[0] == 200
    status, body = _get(port, "/data/away.json")
    assert status == 403 and b"agent" in body
    assert _get(port, "/reference/../../etc/passwd")[0] == 404
    assert _get(port, "/board.svg")[1].lstrip().startswith(b"<svg")
    status, svg = _get(port, "/board/home/0.svg")
    assert status == 200 and b'class="piece"' in svg
    assert _get(port, "/board/away/0.svg")[0] == 403
    assert _get(port, "/board/home/99999.svg")[0] == 404


def test_a_live_choice_moves_the_game_on(live_server):
    game, port = live_server
    at = len(game.states) - 1
    request = urllib.request.Request(f"http://127.0.0.1:{port}/choose", method="POST",
                                     data=json.dumps({"index": 0, "at": at}).encode(),
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as r:
        assert r.status == 200
    assert len(game.states) > at + 1 and game.choices[at] == 0
    # a stale page (the same step again) is refused, not applied twice
    stale = urllib.request.Request(request.full_url, method="POST", data=request.data,
                                   headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as info:
        urllib.request.urlopen(stale, timeout=30)
    with info.value:
        assert info.value.code == 409


def test_a_live_question_is_answered_in_words_and_its_answer_never_sent():
    """chamber-of-secrets-trivia.txt, "Game Play": a team answers the question read to it;
    the page shows the question (never its answer) and takes the typed answer."""
    cg = load_game("chamber-of-secrets-trivia")
    game = LiveGame(cg, GameState.new(cg, seed=1, log=True, forced="take"), 0, {1: RandomAgent(3)})
    person = RandomAgent(4)
    for _ in range(2000):
        if game._asked() or game.state.is_terminal():
            break
        assert game.choose(person.choose(game.state), len(game.states) - 1) is None
    assert game._asked(), "a question comes to gryffindor within the game"
    card, field = game.state.st.pending["question"]
    answer = cg.cards[card].fields[field]["answer"]
    step = json.loads(game.data(0))["steps"][-1]
    assert step["question"]["ask"] == cg.cards[card].fields[field]["ask"]
    assert step["options"] is None
    assert set(step["question"]) == {"side", "card", "category", "ask", "choices"}   # never the answer
    before = len(game.states)
    assert game.answer(str(answer), before - 1) is None
    assert game.choices[before - 1] == 0, "the right answer, typed, is the outcome `right`"


def test_the_status_has_a_line_for_each_seated_side_only():
    """defenders-of-hogwarts.txt, "Game Set Up": with one House player the unchosen Houses'
    components leave the game; the page's status lists the Dark Arts player and that House."""
    from lumos.api import new_game
    cg = load_game("defenders-of-hogwarts")
    state = new_game(cg, seed=1, options={"house_players": 1})
    data = side_data(cg, [state], [], 0)
    seated = [cg.sides[s] for s in state.sides_in_play()]
    assert len(seated) == 2 and list(data["steps"][0]["status"]) == seated

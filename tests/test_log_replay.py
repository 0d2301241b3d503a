"""Game logs at the API level: a logged game replays line for line, and any change is caught.

The log is the contract between a game that was played and a game played again:
same seed, same options, same choices -> the same events, labels and final state.
"""
from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from lumos.api import load_game
from lumos.interpreter.agents import GreedyAgent, RandomAgent, evaluate
from lumos.interpreter.log import cards_hash, log_header, read_log, replay, source_hash
from lumos.interpreter.play import play_game, write_game_log


@pytest.fixture(scope="module")
def cg():
    return load_game("snitch-snatcher")


@pytest.fixture(scope="module")
def logged(cg, tmp_path_factory):
    path = tmp_path_factory.mktemp("logs") / "game.jsonl"
    result = write_game_log(cg, path, seed=11, agents=[RandomAgent(1), GreedyAgent(2)])
    return path, result


def lines(path):
    return [json.loads(t) for t in path.read_text(encoding="utf-8").splitlines()]


def rewrite(src, dst, edit):
    recs = lines(src)
    edit(recs)
    dst.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")


def test_log_shape(cg, logged):
    path, result = logged
    recs = lines(path)
    head = recs[0]
    assert set(head) == {"lumos", "game", "source_hash", "seed", "options", "agents", "cards_hash", "card_files",
                         "forced"}
    assert head["cards_hash"] == cards_hash(cg)
    assert sorted(f["file"] for f in head["card_files"]) == [f"{cg.id}/away.yaml", f"{cg.id}/home.yaml"]
    assert all(len(f["hash"]) == 16 and f["path"].endswith(f["file"]) for f in head["card_files"])
    assert head["game"] == cg.id and head["seed"] == 11 and head["source_hash"] == source_hash(cg)
    assert head["agents"] == ["random", "greedy"]
    decisions = [r for r in recs if "choice" in r]
    events = [r for r in recs if "event" in r]
    assert decisions and events
    assert [d["n"] for d in decisions] == list(range(len(decisions)))
    assert {d["side"] for d in decisions} <= set(cg.sides) | {"chance"}
    assert all(isinstance(d["label"], str) for d in decisions)
    # rule positions are relative, so a log replays in another checkout
    assert all(not e["rule"].startswith("/") and ":" in e["rule"] for e in events)
    last = recs[-1]
    assert set(last) >= {"result", "winner", "decisions", "state_hash"}
    assert last["decisions"] == result.decisions == sum(d["side"] != "chance" for d in decisions)
    assert log_header(path) == head


def test_round_trip(cg, logged):
    path, result = logged
    assert result.error is None
    rep = replay(cg, path)
    assert rep.ok, str(rep)
    assert rep.decisions == len([r for r in lines(path) if "choice" in r])
    assert rep.warnings == []


def test_same_seed_same_log(cg, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    write_game_log(cg, a, seed=4)
    write_game_log(cg, b, seed=4)
    assert a.read_bytes() == b.read_bytes()


def _first(recs, key, pred=lambda r: True):
    return next(i for i, r in enumerate(recs) if key in r and pred(r))


def test_changed_choice_is_a_divergence(cg, logged, tmp_path):
    path, _ = logged
    recs = lines(path)
    i = _first(recs, "choice", lambda r: r["side"] != "chance" and r["choice"] > 0)
    bad = tmp_path / "bad.jsonl"
    rewrite(path, bad, lambda rs: rs[i].update(choice=0))
    rep = replay(cg, bad)
    assert not rep.ok
    assert rep.divergence.line == i + 1
    assert rep.divergence.expected["choice"] == 0
    assert rep.divergence.got["label"] != recs[i]["label"]   # the label of option 0 differs


def test_changed_event_and_truncation(cg, logged, tmp_path):
    path, _ = logged
    recs = lines(path)
    i = _first(recs, "event")
    bad = tmp_path / "event.jsonl"
    rewrite(path, bad, lambda rs: rs[i].update(event="something else happened"))
    rep = replay(cg, bad)
    assert (rep.ok, rep.divergence.line) == (False, i + 1)
    assert rep.divergence.got == recs[i]
    cut = tmp_path / "cut.jsonl"
    rewrite(path, cut, lambda rs: rs.pop())
    rep = replay(cg, cut)
    assert not rep.ok and rep.divergence.line == len(recs)
    assert "diverges at line" in str(rep)


def test_changed_dice_and_final_hash(cg, logged, tmp_path):
    path, _ = logged
    recs = lines(path)
    last = len(recs) - 1
    bad = tmp_path / "hash.jsonl"
    rewrite(path, bad, lambda rs: rs[last].update(state_hash="0" * 64))
    rep = replay(cg, bad)
    assert (rep.ok, rep.divergence.line) == (False, len(recs))
    chance = [k for k, r in enumerate(recs) if r.get("side") == "chance"]
    if chance:
        k = chance[0]
        bad2 = tmp_path / "dice.jsonl"
        rewrite(path, bad2, lambda rs: rs[k].update(choice=rs[k]["choice"] + 1))
        rep = replay(cg, bad2)
        assert (rep.ok, rep.divergence.line) == (False, k + 1)   # the replay draws the dice again


def test_not_json_and_wrong_game(cg, logged, tmp_path):
    path, _ = logged
    bad = tmp_path / "garbage.jsonl"
    text = path.read_text(encoding="utf-8").splitlines()
    text[2] = "{not json"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    rep = replay(cg, bad)
    assert (rep.ok, rep.divergence.line) == (False, 3)
    other = tmp_path / "other.jsonl"
    rewrite(path, other, lambda rs: rs[0].update(game="another-game"))
    assert replay(cg, other).divergence.line == 1


def test_play_game_is_deterministic_and_bounded(cg):
    a = play_game(cg, [RandomAgent(5), RandomAgent(6)], seed=9)
    b = play_game(cg, [RandomAgent(5), RandomAgent(6)], seed=9)
    assert (a.winner, a.returns, a.decisions) == (b.winner, b.returns, b.decisions)
    assert a.completed and a.error is None
    short = play_game(cg, [RandomAgent(5), RandomAgent(6)], seed=9, max_decisions=1, log=io.StringIO())
    if a.decisions > 1:
        assert short.error is not None and short.error.code == "R010" and not short.completed


def test_limit_stopped_game_replays(cg, tmp_path):
    path = tmp_path / "short.jsonl"
    r = write_game_log(cg, path, seed=3, max_decisions=2)
    assert replay(cg, path).ok
    if r.error is not None:
        assert read_log(path)[-1][1]["error"]["code"] == "R010"


def test_agents_choose_legal_options(cg):
    from lumos.api import new_game
    state = new_game(cg, seed=2, forced="take")
    greedy, rnd = GreedyAgent(0), RandomAgent(0)
    for _ in range(30):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(state.sample_chance())
            continue
        before = state.to_json()
        g = greedy.choose(state)
        assert state.to_json() == before          # lookahead never touches the real game
        assert g in state.legal_actions() and rnd.choose(state) in state.legal_actions()
        state.apply_action(g)
    assert isinstance(evaluate(state, 0), float)


# ---------------------------------------------------------------- logs of games with --with cards
EXPANSION = Path(__file__).resolve().parents[1] / "examples" / "snitch-snatcher-expansion"


@pytest.fixture(scope="module")
def expansion_log(tmp_path_factory):
    from lumos.cli import main
    folder = tmp_path_factory.mktemp("exp-logs")
    assert main(["simulate", "snitch-snatcher", "-n", "1", "--seed", "5", "--quiet", "--log-dir", str(folder),
                 "--with", str(EXPANSION), "--json"]) == 0
    (path,) = folder.glob("*.jsonl")
    return path


def test_a_log_records_the_expansion_cards(expansion_log):
    head = log_header(expansion_log)
    files = {f["file"] for f in head["card_files"]}
    assert {f"{EXPANSION.name}/home.yaml", f"{EXPANSION.name}/away.yaml"} <= files
    assert head["cards_hash"] != cards_hash(load_game("snitch-snatcher"))


def test_replay_without_the_expansion_names_the_missing_with(expansion_log, capsys):
    from lumos.cli import main
    assert main(["replay", str(expansion_log)]) == 1
    out = capsys.readouterr().out
    assert "played with cards this replay does not have" in out
    assert f"{EXPANSION.name}/home.yaml" in out
    hint = [ln for ln in out.splitlines() if ln.strip().startswith("replay with")]
    assert len(hint) == 1 and hint[0].count("--with") == 1     # one --with for the expansion's two files
    assert hint[0].rstrip().endswith(EXPANSION.name)
    assert main(["replay", str(expansion_log), "--with", str(EXPANSION)]) == 0
    assert "reproduced" in capsys.readouterr().out


def test_replay_with_cards_the_log_lacks_warns(cg, logged, capsys):
    from lumos.cli import main
    path, _ = logged
    main(["replay", str(path), "--with", str(EXPANSION)])
    captured = capsys.readouterr()
    assert f"the log's game had no cards of {EXPANSION.name}/" in captured.err


def test_an_older_log_without_card_hashes_still_replays(cg, logged, tmp_path):
    path, _ = logged
    old = tmp_path / "old.jsonl"
    rewrite(path, old, lambda recs: [recs[0].pop(k) for k in ("cards_hash", "card_files")])
    assert replay(cg, old).ok


def test_a_changed_card_file_is_a_warning(cg, logged, tmp_path):
    path, _ = logged
    edited = tmp_path / "edited.jsonl"

    def edit(recs):
        recs[0]["cards_hash"] = "0" * 16
        recs[0]["card_files"][0]["hash"] = "0" * 16
    rewrite(path, edited, edit)
    rep = replay(cg, edited)
    assert rep.ok and rep.cards is not None and not rep.cards.missing
    assert any("changed since the log was written" in w for w in rep.warnings)

"""`anytime LABEL by SIDE if CONDITION:` — something a side may do at any time: one option,
labelled LABEL, added at the end of every decision that side is asked while CONDITION holds.
Taking it runs the block; then the same decision is asked again, its options computed afresh,
without the anytime option (so declining cannot loop). Chance nodes, choices the single-option
policy takes at once (`forced="take"`) and the decisions inside an anytime block get none.

A tiny game made for the test (no rulebook); Catch the Golden Snitch's Spectators use the
construct (tests/test_cards_ctgs.py).
"""
from __future__ import annotations

from pathlib import Path

from lumos.compiler.game import GameSources, check_game
from lumos.interpreter.engine import GameState

BOARD = """\
name: Dot
spaces:
  - {name: a, pos: [0, 0]}
"""

GAME = """\
game "Anytime"
board "board.yaml"
sides red, blue
die d2 faces 1, 2
var tokens per side = 2
var spent per side = 0

anytime "spend a token" by s if s.tokens > 0 [source: "Tokens"]:
    may choose n from [1, 2] where it <= s.tokens by s label "spend {n}"
    if n is not none:
        subtract n from s.tokens
        add n to s.spent

flow:
    choose x from [1, 2, 3] where it <= red.tokens + 1 by red label "red picks {x}"
    choose y from [1, 2] by blue label "blue picks {y}"
    choose z from [5] by red label "forced {z}"
    roll r with d2 by red
    choose w from [1, 2] by red label "red again {w}"
    end in a draw
"""


def compile_text(tmp_path: Path, text: str = GAME):
    rules = tmp_path / "anytime"
    rules.mkdir(exist_ok=True)
    (rules / "game.lumos").write_text(text)
    (rules / "board.yaml").write_text(BOARD)
    return check_game(GameSources("anytime", rules, None, None))


def new_game(tmp_path, forced: str = "ask") -> GameState:
    cg, diags, _ = compile_text(tmp_path)
    assert cg is not None, [d.headline() for d in diags]
    return GameState.new(cg, seed=1, log=True, forced=forced)


def pick(state: GameState, label: str) -> None:
    labels = state.action_labels()
    assert label in labels, (label, labels)
    state.apply_action(labels.index(label))


def test_one_option_at_the_end_of_the_sides_decision(tmp_path):
    g = new_game(tmp_path)
    assert g.current_player() == 0
    assert g.action_labels() == ["red picks 1", "red picks 2", "red picks 3", "spend a token"]


def test_taking_it_runs_the_block_then_asks_the_decision_again_afresh(tmp_path):
    g = new_game(tmp_path)
    pick(g, "spend a token")
    # inside the block: its own choice, without the anytime option
    assert g.action_labels() == ["spend 1", "spend 2", "do not choose"]
    pick(g, "spend 1")
    assert g.st.sv[g.cg.side_var_names.index("tokens")][0] == 1
    # the same decision again: its options follow the new state, and no second offer
    assert g.action_labels() == ["red picks 1", "red picks 2"]
    assert "red chooses: spend a token" in [e["event"] for e in g.events]


def test_declining_inside_returns_to_the_decision_without_the_option(tmp_path):
    g = new_game(tmp_path)
    pick(g, "spend a token")
    pick(g, "do not choose")
    assert g.action_labels() == ["red picks 1", "red picks 2", "red picks 3"]


def test_every_side_at_each_of_its_decisions_not_chance(tmp_path):
    g = new_game(tmp_path)
    pick(g, "red picks 1")
    assert g.current_player() == 1
    assert g.action_labels() == ["blue picks 1", "blue picks 2", "spend a token"]
    pick(g, "blue picks 2")
    # a choice of one option is still asked (the "ask" policy): the side may act first
    assert g.action_labels() == ["forced 5", "spend a token"]
    pick(g, "forced 5")
    assert g.is_chance_node() and g.action_labels() == ["roll 1", "roll 2"]
    g.apply_action(0)
    assert g.action_labels() == ["red again 1", "red again 2", "spend a token"]


def test_a_forced_choice_taken_at_once_offers_nothing(tmp_path):
    g = new_game(tmp_path, forced="take")
    pick(g, "red picks 1")
    pick(g, "blue picks 2")
    # `choose z from [5]` has one option and the policy takes it: nobody is asked
    assert g.is_chance_node()


def test_not_offered_while_its_condition_is_false(tmp_path):
    g = new_game(tmp_path)
    pick(g, "spend a token")
    pick(g, "spend 2")
    # asked again, red's decision has one option left, and no anytime option
    assert g.action_labels() == ["red picks 1"]
    # red has no token left: its next decisions offer nothing more
    while not g.is_terminal():
        if g.is_chance_node():
            g.apply_action(0)
            continue
        labels = g.action_labels()
        if g.current_player() == 0:
            assert "spend a token" not in labels
        g.apply_action(0)


def test_clone_and_json_continue_identically_inside_and_after_the_block(tmp_path):
    g = new_game(tmp_path)
    pick(g, "spend a token")
    inside = GameState.from_json(g.cg, g.to_json())
    copy = g.clone()
    for state in (g, inside, copy):
        pick(state, "spend 1")
    after = GameState.from_json(g.cg, g.to_json())
    for state in (g, inside, copy, after):
        assert state.action_labels() == ["red picks 1", "red picks 2"]
        pick(state, "red picks 2")
        assert state.action_labels() == ["blue picks 1", "blue picks 2", "spend a token"]


def errors(tmp_path, text):
    _cg, diags, _ = compile_text(tmp_path, text)
    return [(d.code, d.span.line, d.message) for d in diags if d.severity == "error"]


def test_two_anytime_rules_with_one_label(tmp_path):
    text = GAME.replace("flow:", 'anytime "spend a token" by s:\n    pass\n\nflow:')
    assert errors(tmp_path, text) == [
        ("E206", 14, 'an `anytime` rule labelled "spend a token" is already declared on line 8')]


def test_its_condition_must_be_true_or_false(tmp_path):
    text = GAME.replace("if s.tokens > 0 [source", "if s.tokens [source")
    [(code, line, message)] = errors(tmp_path, text)
    assert (code, line) == ("E203", 8)
    assert message == "the condition of `anytime` should be true or false, not a number"


def test_it_names_who_may_take_it(tmp_path):
    text = GAME.replace('anytime "spend a token" by s if', 'anytime "spend a token" if')
    [(code, line, _message)] = errors(tmp_path, text)
    assert (code, line) == ("L100", 8)


def test_random_play_never_loops_and_offers_only_where_allowed(tmp_path):
    """Whatever a side picks (the anytime option, declining inside it, or playing on), the
    game ends, the option never appears inside its own block nor twice in one decision, and
    the decision asked again after it has no anytime option."""
    from hypothesis import given, settings
    from hypothesis import strategies as hs

    cg, _diags, _ = compile_text(tmp_path)

    @settings(max_examples=60, deadline=None)
    @given(hs.lists(hs.integers(min_value=0, max_value=9), min_size=0, max_size=40))
    def play(picks):
        g = GameState.new(cg, seed=3)
        for step in range(200):
            if g.is_terminal():
                return
            labels = g.action_labels()
            inside = any(cg.procs[f[0]].kind == "anytime" for f in g.st.frames)
            here = [len(g.st.frames), g.st.frames[-1][0], g.st.frames[-1][1]]
            assert labels.count("spend a token") <= 1
            if inside or g.st.anytime_at == here:
                assert "spend a token" not in labels
            choice = picks[step] if step < len(picks) else 0
            g.apply_action(choice % len(labels))
        raise AssertionError("the game did not end")
    play()


def test_the_option_is_a_record_with_its_own_id_in_the_action_space(tmp_path):
    """Options are data: the anytime option has kind `anytime`, the rule and section it comes
    from, and one id in the game's fixed action space, the same at every decision."""
    from lumos.interpreter.options import action_space
    g = new_game(tmp_path)
    record = g.options()[-1]
    assert record["kind"] == "anytime" and record["label"] == "spend a token" and record["args"] == {}
    assert record["rule"] == {"name": "anytime spend a token", "section": "Tokens"}
    space = action_space(g.cg)
    assert space.keys[record["id"]] == ("anytime", "spend a token")
    pick(g, "red picks 1")
    assert g.legal_action_ids()[-1] == record["id"]

"""The English of rules and cards reads as prose (issue 13, part 2): `says` phrases written
beside the declarations of the rules, calls rendered through them, and no code in what a
reader sees — no identifier with an underscore, no call, no `{template}`, no operator, no
parenthesis, no Python `True`/`False` — for every rule and card of every bundled game and of
the example expansions. The reference, `lumos explain` and the language server's hover all
use lumos.reference.english, so this one scan covers them.
"""
from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from hypothesis import given, strategies as st

from lumos.api import bundled_games, game_sources
from lumos.compiler.build_ast import Origin, build
from lumos.compiler.parse import parse
from lumos.diagnostics import LumosError
from lumos.reference import GameDoc
from lumos.reference.english import English, Vocabulary, card_english, fill, leaks, plain, to_text
from lumos.reference.model import game_doc
from lumos.toolkit.textcheck import drift

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = sorted(p.parent for p in (ROOT / "examples").glob("*/expansion.yaml"))
EXAMPLE_GAMES = sorted(p.parent for p in (ROOT / "examples").glob("*/game.lumos"))


def _rendered(doc: GameDoc):
    """(where, English) of every declaration and every card of a game."""
    for d in doc.decls:
        yield f"{d.span.file}:{d.span.line}", to_text([doc.english.decl(d)])
    for card in doc.cards:
        for v in card.variants:
            yield card.name, card_english(doc.english, v.effect, v.condition, v.effects)


def _leaky(doc: GameDoc) -> list[str]:
    out = []
    for where, text in _rendered(doc):
        found = leaks(text)
        if found:
            out.append(f"{where}: {sorted(set(found))}\n{text}")
    return out


@pytest.mark.parametrize("game", bundled_games())
def test_every_rule_and_card_of_a_bundled_game_reads_as_prose(game):
    assert _leaky(GameDoc(game_sources(game))) == []


@pytest.mark.parametrize("folder", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_every_card_of_an_example_expansion_reads_as_prose(folder):
    base = yaml.safe_load((folder / "expansion.yaml").read_text(encoding="utf-8"))["extends"]
    doc = game_doc(base, ROOT, [str(folder)])
    assert doc.expansions, "the expansion was not loaded"
    assert _leaky(doc) == []


@pytest.mark.parametrize("folder", EXAMPLE_GAMES, ids=[p.name for p in EXAMPLE_GAMES])
def test_every_rule_of_an_example_game_reads_as_prose(folder):
    assert _leaky(GameDoc(game_sources(folder))) == []


def test_the_leak_scan_finds_code():
    assert leaks("Do boost_action(you, “shoot”, 1).") == ["boost_action(", ")"]
    assert leaks("Announce “{attacker} swings”.") == ["{", "}"]
    assert leaks("If x >= 2 and flag is True:") == [">=", "True"]
    assert leaks("Announce “the Keeper (at home) saves”.") == []   # the designer's words
    assert leaks("Your shoot rolls gain 1 Success.") == []


# ---------------------------------------------------------------- bundled cards read like their text
def _card(game: str, name: str) -> str:
    doc = GameDoc(game_sources(game))
    card = next(c for c in doc.cards if c.name == name)
    v = card.variants[0]
    return card_english(doc.english, v.effect, v.condition, v.effects)


@pytest.mark.parametrize("name, english", [
    # Intrepid Moves: "until the end of this Game Sequence" effects of Tactical cards
    ("Lion's Charge", "1. Until the end of this Game Sequence, every Action roll of your Players gains 1 Success."),
    ("Hoop Hunter", "1. Until the end of this Game Sequence, your shoot rolls gain 1 Success."),
    ("Brave Breakaway", "1. Shift one of your Players to an adjacent Zone."),
    ("Daring Loop", "1. Shift up to 2 of your Players, one after the other, each to an adjacent Zone."),
    ("Cannonball Shot", "1. Give one of your Players an orange Bonus Dice token."),
    ("Tower Roll", "1. If you are the Attacking Team, you gain 1 Tempo Point."),
    ("Heart of the Lion", "Playable when there is at least one of your Stunned Players.\n"
                          "1. Remove one Stunned token from one of your Players."),
    # The Snitch Race > Seeker's Actions: "fixed" Successes or a roll
    ("Golden Glory Dive", "1. Your Seeker accelerates 2: 2 Successes, without rolling."),
    ("Red Streak", "1. Your Seeker rolls its dice to accelerate."),
])
def test_catch_the_golden_snitch_cards_read_like_card_text(name, english):
    assert _card("catch-the-golden-snitch", name) == english


def test_snitch_card_parts_are_named():
    # The Snitch Race > Snitch Cards: a Rushed, a Fast and a Perfect Impulse
    text = _card("catch-the-golden-snitch", "Head Down, Full Speed")
    assert text.splitlines()[0] == "Rushed effect:"
    assert "   1. Your Seeker accelerates 2: 2 Successes, without rolling." in text.splitlines()


# ---------------------------------------------------------------- `says` and its errors
VOCAB = '''
sides red, blue
kinds chaser
says "{s}'s Chasers"
function chasers(s) = pieces of s where it.kind is chaser
says "{s} is ahead", "{s} is behind"
function ahead(s) = s.score > 2
says "{s}'s score"
var score per side = 0
says "{s}'s Chasers are tired", "{s}'s Chasers are rested"
var tired per side = false
says "{s} gains {n} Points"
procedure gain(s, n):
    add n to s.score
says "{s}'s Seeker {a}s with exactly {n} Successes" if mode == "fixed"
says "{s}'s Seeker rolls to {a}"
procedure seek(s, a, mode, n):
    pass
says "give {p} a {colour} token"
procedure token(p, colour):
    pass
'''


def _english(source: str, start: str = "effect") -> str:
    vocab = Vocabulary(build(parse(VOCAB, "v.lumos"), Origin("v.lumos")).decls)
    en = English(vocab, me=True)
    tree = build(parse(source + "\n", "x", start), Origin("x"))
    return plain(en.cond(tree)) if start == "condition" else to_text(en.steps(tree))


@pytest.mark.parametrize("source, english", [
    ("gain(me, 1)", "1. You gain 1 Point."),                          # agreement with "you", a singular
    ("gain(other(me), 3)", "1. The side after you gains 3 Points."),
    ('seek(me, "dodge", "fixed", 2)', "1. Your Seeker dodges with exactly 2 Successes."),   # `says ... if`
    ('seek(me, "dodge", "roll", 0)', "1. Your Seeker rolls to dodge."),
    ('token(first(chasers(me)), "orange")', "1. Give the first of your Chasers an orange token."),
    ("set me.tired = true", "1. Your Chasers are tired."),            # a flag set: its phrase
    ("set me.tired = false", "1. Your Chasers are rested."),
    ("add 2 to me.score", "1. Add 2 to your score."),
    ('log "{me} scores {me.score}"', "1. Announce “you scores your score”."),   # templates filled
])
def test_calls_render_through_their_phrase(source, english):
    assert _english(source) == english


@pytest.mark.parametrize("source, english", [
    ("ahead(me)", "you are ahead"),
    ("not ahead(me)", "you are behind"),
    ("not me.tired", "your Chasers are rested"),
    ("chasers(me) is not empty", "there is at least one of your Chasers"),
])
def test_conditions_render_through_their_phrase(source, english):
    assert _english(source, "condition") == english


def test_fill_keeps_grammar():
    assert fill("{s}'s Players gain {n} Successes", {"s": "you", "n": "1"}) == "your Players gain 1 Success"
    assert fill("{s}'s Players gain {n} Successes", {"s": "the rival", "n": "2"}) == \
        "the rival's Players gain 2 Successes"
    assert fill("a {colour} token", {"colour": "orange"}) == "an orange token"
    assert fill("{n} Opportunities", {"n": "1"}) == "1 Opportunity"


@pytest.mark.parametrize("source, message", [
    ('says "a goal"\nevent goal(side)\n',
     "E240 `says` describes the declaration on the next line, but `event` cannot have one"),
    ('says "a pause"\n', "E240 `says` at the end of the file describes nothing"),
    ('says "one"\nsays "two"\nwindow w\n',
     "E240 two `says` lines in a row, the first without `if`: the second would never be used"),
    ('says "{s} rests"\nprocedure rest(side):\n    pass\n',
     "E241 the phrase names `{s}`, which is not a parameter: the parameters of `rest` are side"),
    ('says "{s} rests"\nprocedure rest():\n    pass\n',
     "E241 the phrase names `{s}`, which is not a parameter: `rest` has no parameters"),
    ('says "{a} and {b}"\nvar score per side = 0\n',
     "E241 the phrase of `score` names 2 owners (a, b); a value per side has one"),
    ('says "the score {x"\nvar score = 0\n', "E241 a `{` or `}` of this phrase is not closed"),
    ('says "twice" if n == 2\nsays "once"\nprocedure rest(turns):\n    pass\n',
     "E242 the condition of this `says` names `n`, which is not a parameter of `rest`"),
    ('says "x" if turns == 2\nwindow w\n',
     "E242 `says ... if` chooses a phrase by the arguments of a call, and `w` takes none"),
])
def test_says_mistakes_are_positioned_errors(source, message):
    with pytest.raises(LumosError) as err:
        build(parse(source, "x.lumos"), Origin("x.lumos"))
    d = err.value.diagnostics[0]
    assert f"{d.code} {d.message}" == message
    assert d.span.file == "x.lumos" and d.span.line >= 1 and d.hint


def test_a_phrase_is_not_part_of_what_the_compiler_compares():
    plain_decl = build(parse("var score = 0\n", "x.lumos"), Origin("x.lumos")).decls[0]
    said = build(parse('says "the score"\nvar score = 0\n', "x.lumos"), Origin("x.lumos")).decls[0]
    assert said.phrase.text == "the score" and said == plain_decl


# ---------------------------------------------------------------- W330: the text drifts from the effect
def test_drift_finds_a_number_and_a_colour_the_text_gets_wrong():
    roles, zones = {"chaser", "seeker"}, {"hand"}
    assert drift("Your Shoot rolls gain 2 Successes.", "1. Your shoot rolls gain 1 Success.", roles, zones) == \
        {"number": {"1"}}
    assert drift("Give a Player a black token.", "1. Give one of your Players an orange token.", roles, zones) == \
        {"colour": {"orange"}}
    assert drift("Your Seeker dodges.", "1. Your Chasers dodge.", roles, zones) == {"role": {"chaser"}}


def test_drift_allows_a_text_that_says_more_or_in_words():
    roles, zones = {"chaser"}, set()
    # the movement value of a card is a field the rules read, not part of its effect
    assert drift("Move a pawn up to 3 spaces. This turn your pawns may cross water.",
                 "1. This turn, the House pawns may cross water.", roles, zones) == {}
    assert drift("You gain two Tempo Points.", "1. You gain 2 Tempo Points.", roles, zones) == {}
    assert drift("Shift one of your Players.", "1. Shift one of your Players.", roles, zones) == {}


def test_bundled_cards_agree_with_their_text():
    from lumos.compiler.analysis import rules_decls
    from lumos.compiler.game import check_game
    from lumos.toolkit.textcheck import card_text_drift
    for game in bundled_games():
        src = game_sources(game)
        cg, _diags, _files = check_game(src)
        decls, texts = rules_decls(src)
        assert [d.message for d in card_text_drift(cg, decls, {**cg.files, **texts})] == [], game


DRIFTING = '''deck: home
cards:
  - name: Wide Step
    type: action
    colour: offense
    threshold: 1
    text: "One of your Chasers flies 3 spaces to the left or to the right."
    effect: |
      choose c from chasers(me) where sideways(it, 2) is not empty label "{c} flies sideways"
      choose to from sideways(c, 2) label "{c} to {to}"
      card_move(c, to)
'''


def test_lumos_check_warns_at_the_text_of_a_card_that_drifted(tmp_path, capsys):
    import shutil

    from lumos.cli import main
    bundled = game_sources("snitch-snatcher")
    rules = tmp_path / "my-snitch"
    shutil.copytree(bundled.rules_dir, rules)
    shutil.copytree(bundled.cards_dir, rules / "cards")
    shutil.copytree(bundled.schema_dir, tmp_path / "schema")
    (rules / "cards" / "wide.yaml").write_text(DRIFTING, encoding="utf-8")
    main(["check", str(rules)])
    out = capsys.readouterr().out
    line = next(ln for ln in out.splitlines() if "W330" in ln)
    assert line.endswith("wide.yaml:7:11: W330 warning: the text of card `Wide Step` does not say the number 2, "
                         "which its effect does"), line
    assert "the effect reads: “1. You choose c from your Chasers on the pitch" in out


# ---------------------------------------------------------------- filling never leaves a template
_WORDS = st.sampled_from(["a", "the", "Players", "gains", "is", "Successes", "token", "of", "'s", "orange", "1"])
_VALUES = st.sampled_from(["you", "the rival", "1", "2", "orange", "one of your Chasers", "it", "this card"])


@given(st.lists(st.one_of(_WORDS, st.sampled_from(["{s}", "{n}", "{colour}", "{s}'s"])), min_size=1, max_size=12),
       _VALUES, _VALUES, _VALUES)
def test_a_filled_phrase_holds_no_template_and_no_code(parts, s, n, colour):
    text = fill(" ".join(parts), {"s": s, "n": n, "colour": colour})
    assert "{" not in text and "}" not in text
    assert leaks(text) == []
    assert "you's" not in text and "it's" not in text

"""English from the checked AST (lumos.reference.english): every construct has a rendering, every rule and
card of every bundled game renders without a placeholder, and typical statements read as
written below (word for word)."""
from __future__ import annotations

import doctest

import pytest

from lumos.reference import english
from lumos.api import bundled_games, game_sources
from lumos.compiler import nodes as N
from lumos.compiler.build_ast import Origin, build
from lumos.compiler.parse import parse
from lumos.reference.english import English, Vocabulary, missing_renderings, placeholder_in, plain, rst, to_rst, to_text
from lumos.reference import GameDoc

# A game that uses every construct of the language once (it is parsed, not compiled).
EVERY_CONSTRUCT = '''
game "Every construct"
rulebook "every.txt"
board "board.yaml"
schema "every.schema.json"
cards "every"
sides red, blue                              [source: "Set Up"]
option target = 3 choices 3, 5               [source: "Winning"]
die d6 faces 1, 2, 3, 4, 5, 6                [source: "Contents"]
die orange faces "hit", "hit", "blank"
die black faces "block", "blank"
kinds runner, guard                          [source: "Pieces"]
pieces of red [source: "Set Up"]:
    runner at a1, b1
    guard off
piece ball                                   [source: "Pieces"]
const home_row per side = 1, 9               [source: "Set Up"]
const limit = 7
var score per side = 0                       [source: "Winning"]
says "{p} is tired", "{p} is rested"
var tired per piece = false
var stunned per piece = 0 max 3
var tempo per side = 0 min 0 max 5
var holder: piece = none
zone deck per side hidden
zone hand per side owner
zone pile per side public
zone row shared public
says "the moment to block"
window block                                 [source: "Cards"]
phase round                                  [source: "Turn"]
event scored(side, number)                   [source: "Winning"]
says "the rival of {s}"
function rival(s) [source: "Turn"] = other(s)
function ready(p) = not p.tired and p.space is not none and (my score >= 2 or score of red < -1)
function odd(n) = if n % 2 == 1 then [n, n * 2 - 1 + n / 2] else []
function near(p) = reach from p.space by step exactly 2 through s where occupant(s) is none onto t where t.row == 1
function far(p) = reach from p.space by step up to 3
function roam(p) = reach from p.space by step exactly 4 without backtracking
function go_on(p) = reach from p.space by step exactly 2 without backtracking coming from p.space
function trail(p, t) = route from p.space to t by step through s where occupant(s) is none
function hands(s) = count(s.hand where it.type is not "spot") + max([1, 2]) + min([3]) + sum([4]) - -2
function lined(s) = any p in pieces of s where all q in pieces where (count r in pieces where r is q) > 0
function test(p, s) = p in pieces and p not in [] and s.hand is empty and s.pile is not empty and first(s.deck) != none and distance(p.space, a1, step) <= 2 and toward(p.space, a1, 1, step) is p.space and closest(pieces, a1, step) is not empty and offset(a1, 1, 0) is not none and playable(first(cards), s) and p.side is not s
action run [source: "Turn"]:
    with p in pieces of current where ready(it)
    label "run {p}"
    place p at a1
says "a rest"
action rest:
    pass
says "take a turn as {s}"
procedure turn(s) [source: "Turn"]:
    let n = 0
    set s.score = 1
    add 2 to s.score
    subtract 1 from s.score
    reset score
    place ball off
    give ball to first(pieces of s)
    drop ball
    remove other(s) from play
    put s.deck into s.pile
    put first(row) at bottom of s.deck
    draw c from s.deck into s.hand
    shuffle s.deck
    roll r with d6 by s
    roll rs with 2 orange and n black by s
    answer ok to c.quiz by s chance 70
    if r == 6:
        win s
    elif r == 1:
        end in a draw
    else:
        pass
    play c by s
    may choose x from s.hand by s label "play {x}"
    choose y from pieces
    do one of run, rest by s
    may do one of run
    log "{s} is done"
    announce scored(s, 2)
    for each p in pieces:
        repeat 2 times:
            while n < 3:
                add 1 to n
    loop:
        stop
    choose by s:
        option "rest" if n > 1:
            pass
        option "go":
            let m = helper()
    return
procedure helper():
    return 1
setup [source: "Set Up"]:
    turn(red)
flow:
    loop:
        during round:
            turn(current)
            until the end of this round:
                pass
            at the end of this round:
                pass
            at the start of the next round:
                pass
            at the start of each round:
                pass
            at the end of each round:
                pass
            once per round:
                pass
when placed(p, s) if p.kind is runner and s is a1 [source: "Winning"]:
    win p.side
when drawn(c, z):
    pass
team [source: "Build a Team"]:
    field colour: text choices "red", "blue"
    field budget = 5
    group runners into pile where it.type == "runner"
    group extras into deck
    require count(runners) == 2 else "a team has 2 runners, not {count(runners)}" at runners
    require sum(runners.cost) <= budget else "too dear"
    require each c in runners: colour in c.colours else "{c} cannot run for {colour}"
when reset(x):
    pass
anytime "take a breath" by s if s.score < 3 [source: "Winning"]:
    add 1 to s.score
score of s [source: "Winning"] = 2 * s.score + 1
statistic "Points" of s [source: "Winning"] = s.score
statistic "Runs" of s counts run
default agents: greedy
'''


def _parse(text: str, start: str = "game"):
    return build(parse(text, "every.lumos", start), Origin("every.lumos"))


def test_every_node_class_has_a_rendering():
    assert missing_renderings() == []


def test_every_construct_renders_plainly():
    tree = _parse(EVERY_CONSTRUCT)
    en = English(Vocabulary(tree.decls))
    step = en.node(tree)
    text = to_text([step])
    assert placeholder_in(text) is None, text
    rendered = en.seen | en.with_me().seen
    classes = {c.__name__ for c in english.node_classes()}
    assert classes - rendered == set(), "constructs missing from EVERY_CONSTRUCT"
    assert rst(step.text) and to_rst(step.body)


def test_a_node_class_without_a_method_is_reported():
    class Mystery(N.Stmt):
        pass
    with pytest.raises(english.MissingRendering, match="Mystery"):
        English().node(Mystery(None))


@pytest.mark.parametrize("game", bundled_games())
def test_every_rule_and_card_of_every_bundled_game_renders(game):
    doc = GameDoc(game_sources(game))
    en = doc.english
    count = 0
    for d in doc.decls:
        text = to_text([en.decl(d)])
        assert text.strip() and placeholder_in(text) is None, f"{game}: {d.span}: {text}"
        assert placeholder_in("\n".join(to_rst([en.decl(d)]))) is None
        count += 1
    me = en.with_me()
    for card in doc.cards:
        for v in card.variants:
            if v.effect is not None:
                text = to_text(me.steps(v.effect))
                assert text.strip() and placeholder_in(text) is None, f"{game}: {card.name}: {text}"
            if v.condition is not None:
                text = plain(me.cond(v.condition))
                assert text.strip() and placeholder_in(text) is None, f"{game}: {card.name}: {text}"
    assert count == len([d for d in doc.decls])
    assert len(doc.cards) > 0


# (statement as written in an effect, the English of it) — `me` is "you" here.
EXAMPLES = [
    ("place p at a1", "1. Place p on a1."),
    ("place p off", "1. Take p off the board."),
    ("give ball to p", "1. Give ball to p to carry."),
    ("drop ball", "1. Drop ball: it lies loose where it was carried."),
    ("remove other(me) from play", "1. The side after you takes no part in this game."),
    ("put card into my pile", "1. Put this card into your pile."),
    ("draw c from my deck into my hand", "1. Draw the top card of your deck into your hand and call it c."),
    ("shuffle my deck", "1. Shuffle your deck."),
    ("roll n with d6 by me", "1. You roll d6, a die with the faces 1, 2 and 3; call the result n."),
    ("roll n with d6 by other(me)", "1. The side after you rolls d6, a die with the faces 1, 2 and 3; call the result n."),
    ("win me", "1. You win the game: the game ends."),
    ("end in a draw", "1. The game ends in a draw: nobody wins."),
    ("play c by me", "1. You play c: the card's effect happens."),
    ('choose c from my hand label "drop {c}"', "1. You choose c from your hand, shown as “drop c”."),
    ("may choose p from pieces where it.tired",
     "1. You may choose p from all pieces for which its tired is true, or nothing."),
    ("do one of run by current", "1. The side whose turn it is takes one action: run."),
    ("may do one of run, rest", "1. You may take one action: run or rest."),
    ('log "done"', "1. Announce “done”."),
    ("set p.tired = not tired of p", "1. Set the tired of p to the tired of p is false."),
    ("add 2 * 3 to me.score", "1. Add 2 times 3 to your score."),
    ("subtract count(my hand) from me.score", "1. Subtract the number of your hand from your score."),
    ("let s = if my score > 3 then 1 else -1",
     "1. Let s be 1 if your score is more than 3, otherwise -1."),
    ("if occupant(a1) is none:\n    pass\nelse:\n    stop",
     "1. If the piece standing on a1 is nothing:\n   1. Do nothing.\n   Otherwise:\n   1. Leave the loop."),
    ("repeat 2 times:\n    return 1", "1. Repeat 2 times:\n   1. Stop here: this rule ends, giving 1."),
    ("for each p in pieces where p.space in home:\n    pass",
     "1. For each p in all pieces for which the space of p is one of home:\n   1. Do nothing."),
]
VOCAB = '''
sides red, blue
die d6 faces 1, 2, 3
var score per side = 0
var tired per piece = false
zone deck per side hidden
zone hand per side owner
zone pile per side public
piece ball
action run:
    pass
action rest:
    pass
'''


@pytest.mark.parametrize("source,expected", EXAMPLES, ids=[e[0].split("\n")[0] for e in EXAMPLES])
def test_statements_read_as_expected(source, expected):
    vocab = Vocabulary(_parse(VOCAB).decls)
    steps = English(vocab, me=True).steps(_parse(source + "\n", "effect"))
    assert to_text(steps) == expected


def test_rst_links_game_names_and_escapes_text():
    vocab = Vocabulary(_parse(VOCAB).decls)
    step = English(vocab, me=True).steps(_parse('do one of run\nlog "a *b* `c`"\n', "effect"))
    text = "\n".join(to_rst(step))
    assert ":lumos:action:`run`" in text
    assert r"\*b\*" in text and r"\`c\`" in text
    # a call reads as the callee's name and its arguments, linked, without parentheses
    fn = _parse("function f(x) = x\nfunction g(y) = f(y)\n").decls[1]
    assert "the :lumos:rule:`f` of *y*" in rst(English(Vocabulary(_parse("function f(x) = x\n").decls)).decl(fn).text)


def test_placeholder_detector():
    assert placeholder_in("the space of None") == "None"
    assert placeholder_in("Let x be Num(value=1).") == "Num("
    assert placeholder_in("Announce “None of them”.") is None
    assert placeholder_in("Set x to 1.") is None


def test_doctests():
    assert doctest.testmod(english).failed == 0

"""`says` phrases -> English sentences: a phrase's `{names}` filled with the English of the
arguments of a call, in good grammar (possessives, agreement with "you", singulars after 1,
"an" before a vowel), and the `says ... if` line a call takes.

Used by lumos.reference.english; knows no game. The English it fills in may hold the
invisible markers of lumos.reference.english (`plain` removes them).
"""
from __future__ import annotations

import re

from lumos.compiler import nodes as N
from lumos.compiler.agreement import NOUN_AFTER, after_one, one_of, singular  # noqa: F401  (re-exported)

# A marker: ESC kind US target US text GS (see lumos.reference.english).
MARK = re.compile("\x1b([a-z]+)\x1f([^\x1f\x1d]*)\x1f([^\x1f\x1d]*)\x1d")


def words(name: str) -> str:
    """An identifier as words: underscores become spaces."""
    return " ".join(name.replace("_", " ").split()) or name


def plain(text: str) -> str:
    """The English without markers."""
    return MARK.sub(lambda m: m.group(3), text)


HOLE = re.compile(r"\{([^{}]*)\}")
_YOU_VERB = {"is": "are", "has": "have", "does": "do", "was": "were", "isn't": "aren't", "doesn't": "don't"}


def pick(phrase: N.Phrase, env: dict) -> N.Phrase:
    """The `says` line for a call: the first whose `if` holds for the arguments written in the
    call (a literal value); an `if` the arguments do not decide passes to the next line."""
    while phrase.cond is not None and phrase.otherwise is not None and static(phrase.cond, env) is not True:
        phrase = phrase.otherwise
    return phrase


_STATIC_OPS = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
               ">": lambda a, b: a > b, "<=": lambda a, b: a <= b, ">=": lambda a, b: a >= b,
               "is": lambda a, b: a == b, "isnot": lambda a, b: a != b}


def static(e, env: dict):
    """The value of a `says ... if` condition with the call's arguments, or None if they do not
    decide it (an argument that is not a literal)."""
    if isinstance(e, (N.Num, N.Str, N.Bool)):
        return e.value
    if isinstance(e, N.Neg) and isinstance(e.operand, N.Num):
        return -e.operand.value
    if isinstance(e, N.Name):
        arg = env.get(e.name)
        return static(arg, {}) if arg is not None else None
    if isinstance(e, N.Not):
        v = static(e.operand, env)
        return None if v is None else not v
    if isinstance(e, N.Compare) and e.op in _STATIC_OPS:
        a, b = static(e.left, env), static(e.right, env)
        try:
            return None if a is None or b is None else _STATIC_OPS[e.op](a, b)
        except TypeError:
            return None
    if isinstance(e, N.BoolOp):
        values = [static(i, env) for i in e.items]
        if e.op == "and":
            return False if False in values else (None if None in values else True)
        return True if True in values else (None if None in values else False)
    return None


def fill(template: str, values: dict[str, str]) -> str:
    """A phrase template with its `{names}` replaced by English, in good grammar: `{s}'s` of
    "you" is "your", "you is" is "you are", "a {colour}" before a vowel is "an", and a
    plural noun right after `{n}` agrees with a number 1.

    >>> print(fill("give {p} a {colour} token", {"p": "one of your Players", "colour": "orange"}))
    give one of your Players an orange token
    >>> print(fill("{s}'s Players gain {n} Successes; {s} is attacking", {"s": "you", "n": "1"}))
    your Players gain 1 Success; you are attacking
    """
    out: list[str] = []
    pos = 0
    for m in HOLE.finditer(template):
        out.append(template[pos:m.start()])
        value = values.get(m.group(1).strip(), words(m.group(1).strip()))
        rest = template[m.end():]
        shown = plain(value)
        if rest.startswith("'s") and shown in POSSESSIVE_OF:
            value, pos = POSSESSIVE_OF[shown], m.end() + 2
        else:
            pos = m.end()
            if shown == "you":
                verb = re.match(r" ([a-z']+)\b", rest)
                if verb and (verb.group(1) in _YOU_VERB or verb.group(1) in _THIRD_PERSON_OK):
                    own = _YOU_VERB.get(verb.group(1)) or _base_verb(verb.group(1))
                    out.append(value + " " + own)
                    pos = m.end() + 1 + len(verb.group(1))
                    continue
            if shown in ("1", "-1", "one"):
                noun = NOUN_AFTER.match(rest)
                if noun:
                    out.append(value + one_of(noun.group(1)))
                    pos = m.end() + len(noun.group(1))
                    continue
        before = "".join(out)
        if re.search(r"(^|\s)[aA]$", before.rstrip(" ")[-2:]) and before.endswith(" ") and \
                shown[:1].lower() in "aeiou" and not shown.lower().startswith(("one", "uni", "use")):
            before = before[:-1] + "n "
            out = [before]
        out.append(value)
    out.append(template[pos:])
    return "".join(out)


# Verbs a phrase may write after its subject ("{s} gains"): after "you" they lose their -s.
_THIRD_PERSON_OK = {"gains", "loses", "draws", "discards", "moves", "places", "shifts", "takes", "rolls",
                    "passes", "stuns", "puts", "gives", "chooses", "plays", "scores", "wins", "skips",
                    "advances", "may", "cannot", "must", "carries", "acquires", "reveals", "shuffles",
                    "performs", "holds", "spends", "returns", "deploys", "flies", "keeps", "knocks"}


def _base_verb(verb: str) -> str:
    if verb in ("may", "cannot", "must"):
        return verb
    if verb.endswith("ies"):
        return verb[:-3] + "y"
    if re.search(r"(ss|sh|ch|x|z)es$", verb):
        return verb[:-2]
    return verb[:-1]


IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+")
POSSESSIVE_OF = {"you": "your", "it": "its", "this card": "this card's", "they": "their"}

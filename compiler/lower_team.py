"""The `team` declaration (checked AST) -> TeamInfo: the fields, groups and rules of a team file.

Why a declaration and not Python: which cards a team may hold, its size and its budget
are rules of one game (so many of each role, a deck of so many cards); the engine only
knows that a team file lists values and cards, and that the game's `require` lines must
hold. A field is also a variable per side (`s.colour` in the rules); a group names the
side's zone its cards are put into before `setup` runs. Checking a team file against
this is `lumos.compiler.teams`.
"""
from __future__ import annotations

from dataclasses import fields as dc_fields

from lumos.compiler import nodes as N
from lumos.compiler.scope import describe, element
from lumos.diagnostics import did_you_mean
from lumos.interpreter.program import TeamFieldInfo, TeamGroupInfo, TeamInfo, TeamRuleInfo

FIELD_TYPES = ("number", "flag", "text")   # a team field is a plain value of the YAML file


def names_in(node):
    """Every `Name` of an expression, in reading order."""
    if isinstance(node, N.Name):
        yield node
    if isinstance(node, N.Node):
        for f in dc_fields(node):
            yield from names_in(getattr(node, f.name))
    elif isinstance(node, tuple):
        for item in node:
            yield from names_in(item)


class TeamLowering:
    """Mixin of Lowerer: `team`. Its fields are declared after the other declarations (each is
    a variable per side the rules may read: the game's own `var NAME per side` if it has one,
    else a new one); the rest is lowered once every name of the game is known."""

    team_decl = None
    team_fields: list = []

    def d_Team(self, d: N.Team) -> None:
        if self.team_decl is not None:
            self.sink.add("E206", f"the game already has a `team` declaration on line {self.team_decl.span.line}",
                          d.span, "write every field, group and rule of a team in one `team:` block")
            return
        self.team_decl, self.team_fields = d, []

    def declare_team_fields(self) -> None:
        if self.team_decl is not None:
            self.team_fields = [self.team_field(f) for f in self.team_decl.fields]

    def team_field(self, f: N.TeamField):
        default = self.literal(f.default) if f.default is not None else None
        typ = f.type or (self.literal_type(f.default) if f.default is not None else None)
        if typ is None:
            self.sink.add("E210", f"say what the field `{f.name}` holds", f.span,
                          f"write `field {f.name}: text` (or number, flag), or give it a starting value: "
                          f"`field {f.name} = 0`")
            typ = "any"
        elif typ not in FIELD_TYPES:
            self.sink.add("E203", f"a team field holds a number, a flag or a text, not {describe(typ)}", f.span,
                          f"write `field {f.name}: text`")
            typ = "any"
        elif f.default is not None and self.literal_type(f.default) not in (typ, "none"):
            self.sink.add("E203", f"the field `{f.name}` holds {describe(typ)}, but starts as "
                          f"{describe(self.literal_type(f.default))}", f.default.span, "")
        choices = tuple(self.literal(c) for c in f.choices)
        for node, value in zip(f.choices, choices):
            if typ in FIELD_TYPES and self.literal_type(node) != typ:
                self.sink.add("E203", f"each choice of `{f.name}` must be {describe(typ)}", node.span, "")
                break
        if choices and f.default is not None and default not in choices:
            self.sink.add("E210", f"the default {default!r} of field `{f.name}` is not one of its choices",
                          f.default.span, f"choices: {', '.join(map(str, choices))}")
        declared = self.settable.get("side", {}).get(f.name)
        if declared is not None and declared[0] == "sv":
            # `var colour: text per side = none` and `field colour: text`: the team file fills the variable
            if declared[2] != typ and "any" not in (typ, declared[2]):
                self.sink.add("E203", f"the field `{f.name}` holds {describe(typ)}, but the variable "
                              f"`{f.name}` per side holds {describe(declared[2])}", f.span,
                              "a field fills the side's variable of its name: give both one kind")
            return f, typ, choices, default, declared[1]
        self.side_vars.append((f.name, tuple(default for _ in self.sides)))
        self.side_attr_decl(f.name, ("sv", len(self.side_vars) - 1, typ), f.span)
        return f, typ, choices, default, len(self.side_vars) - 1

    def lower_team(self):
        """The TeamInfo of the game's `team` declaration, or None without one."""
        d = self.team_decl
        if d is None:
            return None
        params, seen = [], {}
        for node, name, typ in [(f, f.name, t) for f, t, *_ in self.team_fields] + \
                               [(g, g.name, "list:card") for g in d.groups]:
            if name in seen or name in ("game", "team"):
                where = f"on line {seen[name].span.line}" if name in seen else "by every team file"
                self.sink.add("E206", f"the team key `{name}` is already used {where}", node.span,
                              "give it another name")
                continue
            seen[name] = node
            params.append((name, typ))
        saved = self.enter(tuple(params))
        try:
            slots = {name: self.local.names[name][0] for name, _ in params}
            fields = tuple(TeamFieldInfo(f.name, t, choices, default, f.default is None, slots.get(f.name, -1),
                                         sv, f.span, f.shared)
                           for f, t, choices, default, sv in self.team_fields)
            groups = tuple(self.team_group(g, slots.get(g.name, -1)) for g in d.groups)
            rules = tuple(self.team_rule(r, seen) for r in d.rules)
            nslots = len(self.local.slot_names)
        finally:
            self.leave(saved)
        return TeamInfo(fields, groups, rules, nslots, d.span, d.sources)

    def team_group(self, g: N.TeamGroup, slot: int) -> TeamGroupInfo:
        names = [z for z, _ in self.zones]
        zone = names.index(g.zone) if g.zone in names else -1
        if zone < 0:
            self.sink.add("E201", f"unknown zone `{g.zone}`", g.span,
                          did_you_mean(g.zone, names) or f"declare it: `zone {g.zone} per side hidden`")
        elif zone in self.shared_zones:
            self.sink.add("E210", f"the cards of a team go into a zone of its side; `{g.zone}` is shared", g.span,
                          f"declare it `zone {g.zone} per side ...`")
        cond, it_slot = None, -1
        if g.cond is not None:
            it_slot, restore = self.local.scoped("it", "card")
            try:
                cond, _ = self.expect(g.cond, "flag", "the condition of a group")
            finally:
                restore()
        return TeamGroupInfo(g.name, zone, cond, it_slot, g.cond.span if g.cond is not None else None, slot, g.span)

    def team_rule(self, r: N.TeamRequire, keys: dict) -> TeamRuleInfo:
        at = r.at
        if at is not None and at not in keys:
            self.sink.add("E201", f"the team has no field or group `{at}`", r.span,
                          did_you_mean(at, list(keys)) or f"fields and groups: {', '.join(keys)}")
            at = None
        if at is None:   # where a designer looks for the problem: the first field or group it names
            at = next((n.name for n in names_in(r.domain if r.var else r.cond) if n.name in keys), None)
        if r.var is None:
            cond, _ = self.expect(r.cond, "flag", "a team rule")
            return TeamRuleInfo(cond, self.template(r.message), -1, None, at, r.span)
        domain, dtype = self.listed(r.domain)
        el = element(dtype)
        if el is None:
            self.sink.add("E203", f"`require each` goes through a list, not {describe(dtype)}", r.domain.span, "")
            el = "any"
        slot, restore = self.local.scoped(r.var, el)
        try:
            cond, _ = self.expect(r.cond, "flag", "a team rule")
            message = self.template(r.message)
        finally:
            restore()
        return TeamRuleInfo(cond, message, slot, domain, at, r.span)

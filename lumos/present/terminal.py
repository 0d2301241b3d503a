"""A person's decision at the terminal -> the option they chose (or None to quit).

Shows the board (board_text), the sides' status lines and the person's own cards, then the
options: all of them when they are few, else grouped by their piece or action (status'
sibling `options.group_options`), a group opening to say where. Typed words that are not
a command filter the options. Each option says its consequences (`options.consequences`),
a card option its card's text. Commands: `help`, `card NAME`, `hand`, `board`, `all`,
`back`, `q`. Reads with `input()`, so a script can drive it through a pipe or a pty.
"""
from __future__ import annotations

import sys

from rich.console import Console
from rich.text import Text

from lumos.present.board_text import draw_board, region_lines
from lumos.present.cards import card_text, find_card, hand_zones, unplayable_cards
from lumos.present.options import consequences, group_options, matches
from lumos.present.status import status_lines

FLAT_MAX = 12          # up to this many options are listed without groups
HELP = """commands:
  NUMBER      take that option, or open that group
  WORDS       show only the options whose label has all these words (e.g. `chaser 2 d4`)
  all         list every option
  back        back to the groups
  hand        your cards, and why those that are not options cannot be played now
  card NAME   a card's text, its rules in English, and whether you can play it now
  board       draw the board again, with its named areas
  help        this list
  q           quit the game"""


class Quit(Exception):
    """The person typed q (or the input ended)."""


def read(prompt: str) -> str:
    try:
        text = input(prompt)
    except EOFError:
        print()
        raise Quit from None
    if not sys.stdin.isatty():
        print(text.rstrip("\n"))   # echo piped input so a transcript reads like a session
    return text.strip()


class Decision:
    """One decision of the person: what is listed now, and what each number means."""

    def __init__(self, console: Console, state, src, side: int):
        self.console, self.state, self.src, self.side = console, state, src, side
        self.cg = state.cg
        self.options = state.options()
        self.pieces = {p.name for p in self.cg.pieces}
        self.items: list[tuple[str, object]] = []

    # -- what is shown
    def show_situation(self) -> None:
        c = self.console
        c.print()
        for line in draw_board(self.state, min(100, c.width)):
            c.print(line)
        for line in status_lines(self.state, self.side):
            c.print(Text("  " + line, style="cyan"))
        self.show_cards(brief=True)
        if any(o["kind"] == "card" for o in self.options):   # cards are being played: say which cannot be
            for name, zone, reason in unplayable_cards(self.state, self.side, played_from_only=True):
                c.print(Text(f"  not now: {name} ({zone}): {reason}", style="dim"))

    def show_cards(self, brief: bool = False) -> None:
        cg, st = self.cg, self.state.st
        for z in hand_zones(cg, self.side):
            names = [cg.cards[c].name for c in st.zones[z]]
            if names:
                self.console.print(f"  your {cg.zones[z // cg.nsides][0].replace('_', ' ')}: {', '.join(names)}")
        if brief:
            return
        why = unplayable_cards(self.state, self.side)
        if not why:
            self.console.print("  every card you hold can be played now, or you hold none")
        for name, zone, reason in why:
            self.console.print(f"  {name} ({zone}): {reason}")

    def list_top(self) -> None:
        groups = group_options(self.options, self.pieces)
        if len(self.options) <= FLAT_MAX or len(groups) == 1:
            self.list_options(list(range(len(self.options))))
            return
        self.items = [("group", (name, idx)) if len(idx) > 1 else ("option", idx[0]) for name, idx in groups]
        self._header()
        for n, (kind, what) in enumerate(self.items, 1):
            if kind == "group":
                name, idx = what
                self.console.print(f"  {n:>2}. {name} ... ({len(idx)} options)")
            else:
                self._print_option(n, what)

    def list_options(self, indices: list[int], group: str = "") -> None:
        self.items = [("option", i) for i in indices]
        self._header()
        if group:
            self.console.print(Text(f"  {group} ...", style="bold"))
        for n, i in enumerate(indices, 1):
            self._print_option(n, i, group)

    def _header(self) -> None:
        names = list(dict.fromkeys(o["rule"]["name"].replace("_", " ") for o in self.options))
        sections = list(dict.fromkeys(o["rule"]["section"] for o in self.options if o["rule"]["section"]))
        why = ", ".join(names[:3]) + (" ..." if len(names) > 3 else "") + \
            (f" ({'; '.join(sections[:2])})" if sections else "")
        self.console.print(Text(f"{self.cg.sides[self.side]} to choose ({len(self.options)} options: {why}):",
                                style="bold"))

    def _print_option(self, n: int, i: int, group: str = "") -> None:
        o = self.options[i]
        label = o["label"]
        if group and label.startswith(group + " "):   # inside a group, only where: `from b5 to b3`
            label = "... " + label[len(group) + 1:]
        line = Text(f"  {n:>2}. {label}")
        extra = consequences(self.state, i)
        if extra:
            line.append(" -> " + "; ".join(extra), style="yellow")
        self.console.print(line)
        text = self._card_line(o)
        if text:
            self.console.print(Text(f"        {text}", style="dim"))

    def _card_line(self, option: dict) -> str:
        if option["kind"] != "card":
            return ""
        for value in option["args"].values():
            name = find_card(self.cg, str(value)) if isinstance(value, str) else None
            if name:
                d = next(d for d in self.cg.card_defs if d.name == name)
                text = " ".join(str(d.fields.get("text", "")).split())
                return text if len(text) <= 110 else text[:107] + "..."
        return ""

    # -- what is typed
    def run(self) -> int:
        self.show_situation()
        self.list_top()
        while True:
            text = read(f"choice [1-{len(self.items)}, words to filter, help, q]: ")
            low = text.lower()
            if low in ("q", "quit", "exit"):
                raise Quit
            if low in ("help", "?", "h"):
                self.console.print(HELP)
            elif low == "all":
                self.list_options(list(range(len(self.options))))
            elif low in ("back", "0", ""):
                self.list_top()
            elif low in ("hand", "cards"):
                self.show_cards()
            elif low == "board":
                self.show_situation()
                for line in region_lines(self.cg):
                    self.console.print(line)
            elif low == "card" or low.startswith("card "):
                self.card(text[4:].strip())
            elif low.isdigit():
                chosen = self.pick(int(low))
                if chosen is not None:
                    return chosen
            else:
                found = [i for i, o in enumerate(self.options) if matches(o["label"], text)]
                if not found:
                    self.console.print(f"  no option has all of: {text} (type help for the commands)")
                elif len(found) == 1 and len(self.options) == 1:
                    return found[0]
                else:
                    self.list_options(found)

    def pick(self, n: int) -> int | None:
        if not 1 <= n <= len(self.items):
            self.console.print(f"  please type a number from 1 to {len(self.items)}, or help")
            return None
        kind, what = self.items[n - 1]
        if kind == "option":
            return what
        name, idx = what
        self.list_options(idx, name)
        return None

    def card(self, text: str) -> None:
        if not text:
            self.console.print("  card NAME: which card? (e.g. card " +
                               (self.cg.cards[0].name if self.cg.cards else "NAME") + ")")
            return
        name = find_card(self.cg, text)
        if name is None:
            from lumos.diagnostics import did_you_mean
            hint = did_you_mean(text, sorted({d.name for d in self.cg.card_defs}))
            self.console.print(f"  no card `{text}` in {self.cg.title}" + (f"; {hint}" if hint else ""))
            return
        self.console.print(card_text(self.cg, self.src, name), markup=False, highlight=False)
        offered = [n for n, (kind, i) in enumerate(self.items, 1)
                   if kind == "option" and name in self.options[i]["label"]]
        why = [r for n, _z, r in unplayable_cards(self.state, self.side) if n == name]
        if offered:
            self.console.print(f"  you can play it now: option {offered[0]}")
        elif why:
            self.console.print(f"  you hold it, but cannot play it now: {why[0]}")

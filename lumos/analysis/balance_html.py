"""A balance report -> one self-contained HTML page (tables, and plots when matplotlib is there),
which the rules reference can include.

Why self-contained: the page is copied next to a reference build or opened from disk; plots are
inline SVG, so there is nothing else to ship. Without matplotlib (the `plots` extra) the page
has the tables only, and says so.
"""
from __future__ import annotations

import html
import io
from pathlib import Path


FLAG_CLASS = ' class="flag"'


def _pct(r: dict) -> str:
    return "-" if r["rate"] is None else f"{r['rate']:.0%} [{r['low']:.0%}, {r['high']:.0%}]"


def _plots(rep: dict) -> str:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return "<p><em>Plots need matplotlib (pip install 'lumos-games[plots]').</em></p>"
    matplotlib.rcParams["svg.hashsalt"] = "lumos"   # the same report gives the same page
    out = []
    cards = [(n, c) for n, c in rep["cards"].items() if c["win_when_played"]["rate"] is not None]
    if cards:
        fig, ax = plt.subplots(figsize=(7, max(2.5, 0.28 * len(cards))))
        ys = range(len(cards))
        for y, (_n, c) in zip(ys, cards):
            p, h = c["win_when_played"], c["win_when_held"]
            ax.plot([p["low"], p["high"]], [y + 0.15] * 2, color="tab:red")
            ax.plot(p["rate"], y + 0.15, "o", color="tab:red")
            if h["rate"] is not None:
                ax.plot([h["low"], h["high"]], [y - 0.15] * 2, color="tab:blue")
                ax.plot(h["rate"], y - 0.15, "s", color="tab:blue")
        ax.set_yticks(list(ys), [n for n, _ in cards], fontsize=7)
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate of the side holding the card (red: played, blue: held, not played)")
        fig.tight_layout()
        out.append(_svg(fig, plt))
    sides = rep["sides"]
    fig, ax = plt.subplots(figsize=(5, 2.5))
    names = list(sides)
    ax.bar(names, [sides[s]["rate"] or 0 for s in names],
           yerr=[[(sides[s]["rate"] or 0) - sides[s]["low"] for s in names],
                 [sides[s]["high"] - (sides[s]["rate"] or 0) for s in names]], capsize=4)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate")
    fig.tight_layout()
    out.append(_svg(fig, plt))
    return "\n".join(out)


def _svg(fig, plt) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def render(rep: dict) -> str:
    e = html.escape
    rows = "".join(f"<tr><td>{e(s)}</td><td>{_pct(r)}</td></tr>" for s, r in rep["sides"].items())
    fp, ln = rep["first_player"], rep["length"]
    cards = "".join(
        f"<tr{FLAG_CLASS if c['flag'] else ''}><td>{e(n)}</td><td>{c['drawn_per_game']:.2f}</td>"
        f"<td>{c['played']} ({c['play_rate']:.0%})</td><td>{_pct(c['win_when_played'])}</td>"
        f"<td>{_pct(c['win_when_held'])}</td><td>{e(' '.join(x for x in (c['flag'], c['note']) if x))}</td></tr>"
        for n, c in rep["cards"].items())
    title = e(rep["game"] + (" + " + ", ".join(rep["with"]) if rep.get("with") else ""))
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Balance: {title}</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:auto}}table{{border-collapse:collapse}}
td,th{{border:1px solid #ccc;padding:2px 6px}}tr.flag{{background:#fdd}}</style></head><body>
<h1>Balance: {title}</h1>
<p>{rep['completed']} completed games of {rep['games']}, first seed {rep['seed']}, agents
{e(', '.join(f'{k}: {v}' for k, v in rep['agents'].items()))}. Intervals are 95% Wilson intervals.</p>
<h2>Sides</h2><table><tr><th>side</th><th>win rate</th></tr>{rows}</table>
<p>First player wins {_pct(fp)} (fair: {fp['fair']:.0%}). Decisions per game: mean {ln['mean']:.1f},
median {ln['median']}, min {ln['min']}, max {ln['max']}.</p>
<h2>Cards</h2><table><tr><th>card</th><th>drawn per game</th><th>played</th><th>win when played</th>
<th>win when held, not played</th><th>note</th></tr>{cards}</table>
{_plots(rep)}
</body></html>
"""


def write_page(rep: dict, path: Path) -> None:
    path.write_text(render(rep), encoding="utf-8")

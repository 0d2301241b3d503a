"""The rules reference (lumos.reference): every bundled game has its pages and its section list;
the generated reference shows every rule and card; the built HTML holds every card, rule, board
picture and a designer's expansion; cross-references are checked; `sphinx-build -W` passes."""
from __future__ import annotations

import doctest
import html
import re
import subprocess
import sys
from pathlib import Path

import pytest
from docutils.nodes import make_id

from lumos import reference
from lumos.api import bundled_games, game_sources
from lumos.compiler import nodes as N
from lumos.reference import GameDoc, build_docs, coverage_rst, game_rst, load_sections, match_section, toc_sections

ROOT = Path(__file__).resolve().parents[1]
RULEBOOKS = Path("/work/shared/rulebooks")   # the rulebooks, when at hand (not shipped)
EXPANSION = ROOT / "examples" / "snitch-snatcher-expansion"
GAMES = bundled_games()
RULE_DECLS = (N.Procedure, N.Function, N.Action, N.Trigger, N.Window)


@pytest.fixture(scope="module")
def docs() -> dict[str, GameDoc]:
    return {g: GameDoc(game_sources(g)) for g in GAMES}


def _python(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def _text(path: Path) -> str:
    """An HTML page's text, unescaped, with typographic quotes made plain."""
    raw = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
    return re.sub(r"\s+", " ", html.unescape(raw).replace("’", "'").replace("‘", "'"))


# ------------------------------------------------------------------ every game is documented
@pytest.mark.parametrize("game", GAMES)
def test_every_bundled_game_has_reference_pages_and_a_section_list(game):
    assert (ROOT / "docs" / "reference" / f"{game}.rst").read_text().strip() == f".. lumos:game:: {game}"
    assert (ROOT / "docs" / "reference" / f"{game}-coverage.rst").read_text().strip() == \
        f".. lumos:coverage:: {game}"
    assert load_sections(game_sources(game).rules_dir), f"rules/{game}/sections.yaml is missing or empty"


@pytest.mark.parametrize("game", GAMES)
def test_section_list_matches_the_rulebooks_table_of_contents(game, docs):
    book = RULEBOOKS / (docs[game].cg.rulebook or f"{game}.txt")
    if not book.is_file():
        pytest.skip(f"rulebook {book} not at hand")
    assert load_sections(game_sources(game).rules_dir) == toc_sections(book.read_text(encoding="utf-8"))


@pytest.mark.parametrize("game", GAMES)
def test_every_citation_names_a_section_of_the_rulebook(game, docs):
    doc = docs[game]
    bad = {(r.target, s) for r in doc.rules for s in r.decl.sources if match_section(s, doc.sections) is None}
    assert not bad, f"citations that name no section of rules/{game}/sections.yaml: {sorted(bad)}"


def test_toc_sections_and_matching():
    text = "Title\n\nTable of Contents\n\n• Setup\n• Play\n  • Turn\n    • Dice\n  • End\n\nSetup\n\n• not a section\n"
    assert toc_sections(text) == ["Setup", "Play", "Play > Turn", "Play > Turn > Dice", "Play > End"]
    sections = toc_sections(text)
    assert match_section("Play > Turn", sections) == "Play > Turn"
    assert match_section("Dice", sections) == "Play > Turn > Dice"    # a unique tail names the section
    assert match_section("Turn > Dice", sections) == "Play > Turn > Dice"
    assert match_section("Scoring", sections) is None


def test_doctests():
    assert doctest.testmod(reference).failed == 0


# ------------------------------------------------------------------ the generated text
@pytest.mark.parametrize("game", GAMES)
def test_generated_reference_shows_every_rule_and_card(game, docs):
    doc = docs[game]
    text = "\n".join(game_rst(doc, game))
    for r in doc.rules:
        role = "action" if isinstance(r.decl, N.Action) else "rule"
        assert f".. lumos:{role}:: {r.target}\n" in text, r.target
    for card in doc.cards:
        assert f".. lumos:card:: {card.name}\n" in text, card.name
    assert f".. lumos:board:: {game}" in text
    for section in ("Components", "The board", "Set-up", "Sequence of play", "Actions", "Interrupt windows",
                    "Triggered effects", "Functions", "Cards"):
        assert f"\n{section}\n---" in text, section


def test_coverage_makes_uncited_sections_and_unknown_citations_stand_out():
    doc = GameDoc(game_sources(GAMES[0]))
    cited = [s for s in doc.sections if any(match_section(c, [s]) for r in doc.rules for c in r.decl.sources)]
    doc.sections = doc.sections + ["Appendix", "Appendix > Variants"]
    text = "\n".join(coverage_rst(doc))
    warning = text.split(".. warning:: No rule cites these sections:")[1].split("\n\n")[1]
    assert "Appendix > Variants" in warning and "<Appendix>" in warning
    assert "**No rule cites this section.**" in text
    # a citation that names no listed section is listed with the rules citing it
    dropped = cited[0]
    doc.sections = [s for s in doc.sections if s != dropped and not s.endswith(" > " + dropped)]
    text = "\n".join(coverage_rst(doc))
    assert ".. warning:: These citations name no section of the table of contents:" in text
    assert f"“{dropped}”" in text


# ------------------------------------------------------------------ built HTML
def test_lumos_docs_builds_every_game_with_an_expansion(tmp_path, docs):
    out = tmp_path / "html"
    run = _python("-m", "lumos", "docs", "-o", str(out), "--with", str(EXPANSION), cwd=tmp_path)
    assert run.returncode == 0, run.stderr + run.stdout
    assert "wrote" in run.stdout
    index = _text(out / "index.html")
    for game, doc in docs.items():
        page = out / f"{make_id(game)}.html"
        text = _text(page)
        raw = page.read_text(encoding="utf-8")
        assert doc.cg.title in index
        for cd in doc.cg.card_defs:
            assert cd.name.replace("’", "'") in text, cd.name
            assert f'id="{make_id(f"lumos-{game}-card-{cd.name}")}"' in raw, cd.name
        for r in doc.rules:
            if isinstance(r.decl, RULE_DECLS):
                assert r.signature.split("(")[0] in text, r.target
                role = "action" if isinstance(r.decl, N.Action) else "rule"
                assert f'id="{make_id(f"lumos-{game}-{role}-{r.target}")}"' in raw, r.target
        svg = out / "_images" / f"lumos-board-{make_id(game)}.svg"
        assert svg.read_text().startswith("<svg") and f'src="_images/{svg.name}"' in raw
        assert raw.count('class="reference internal" href="#lumos-') > 50     # cross-references resolved
        coverage = _text(out / f"{make_id(game)}-coverage.html")
        for s in doc.sections:
            assert s.split(" > ")[-1] in coverage
    # the designer's expansion is in its game's reference, marked as such
    text = _text(out / "snitch-snatcher.html")
    for card in ("Hawkshead Attack", "Sloth Grip Roll"):
        assert card in text
    assert "It includes the expansion Hawkshead Tricks" in text and "from the expansion" in text


def test_lumos_docs_refuses_a_missing_expansion(tmp_path, capsys):
    assert build_docs(tmp_path / "out", [str(tmp_path / "nowhere")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_lumos_docs_reports_an_expansion_that_does_not_compile(tmp_path, capsys):
    broken = tmp_path / "broken"
    broken.mkdir()
    for f in EXPANSION.iterdir():
        if f.is_file():      # the expansion's files (its tests/ folder holds card tests)
            (broken / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    card = next(p for p in broken.glob("*.yaml") if p.name != "expansion.yaml")
    text = card.read_text(encoding="utf-8")
    line = re.search(r"^ +(card_\w+)\(.*$", text, re.M)      # a statement of an effect
    call = line.group(1)
    card.write_text(text.replace(line.group(0), line.group(0).replace(call, call + "x", 1), 1), encoding="utf-8")
    assert build_docs(tmp_path / "out", [str(broken)]) == 1
    err = capsys.readouterr().err
    assert f"E205 unknown procedure `{call}x`" in err and "no reference was written" in err
    assert not (tmp_path / "out").exists()


def test_cross_references_are_checked(tmp_path):
    game = GAMES[0]
    doc = GameDoc(game_sources(game))
    card = doc.cards[0].name
    action = doc.rules_of(N.Action)[0].target
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text('extensions = ["lumos.reference"]\n')
    (src / "index.rst").write_text("Test\n====\n\n.. toctree::\n\n   game\n   refs\n   bad\n")
    (src / "game.rst").write_text(f".. lumos:game:: {game}\n")
    (src / "bad.rst").write_text("Bad\n===\n\n.. lumos:game:: no-such-game\n")
    (src / "refs.rst").write_text(
        "Refs\n====\n\n"
        f"Good: :lumos:card:`{card}`, :lumos:action:`{action}`, :lumos:rule:`{game}:{action}`, "
        f":lumos:game:`{game}`.\n\n"
        "Bad: :lumos:card:`No Such Card`, :lumos:rule:`no_such_rule`, :lumos:action:`no_such_action`.\n")
    run = _python("-m", "sphinx", "-q", "-b", "html", str(src), str(tmp_path / "out"))
    assert run.returncode == 0, run.stderr
    warnings = [w for w in run.stderr.splitlines() if "WARNING" in w]
    assert len(warnings) == 3, run.stderr
    assert "unknown Lumos card: No Such Card" in run.stderr
    assert "unknown Lumos rule: no_such_rule" in run.stderr
    assert "unknown Lumos action: no_such_action" in run.stderr
    assert "ERROR: lumos: cannot document `no-such-game`" in run.stderr
    refs = (tmp_path / "out" / "refs.html").read_text()
    assert f'href="game.html#{make_id(f"lumos-{game}-card-{card}")}"' in refs
    assert f'href="game.html#{make_id(f"lumos-{game}-action-{action}")}"' in refs


def test_the_whole_documentation_builds_with_warnings_as_errors(tmp_path):
    pytest.importorskip("myst_parser")
    run = _python("-m", "sphinx", "-W", "-q", "-b", "html", str(ROOT / "docs"), str(tmp_path / "html"))
    assert run.returncode == 0, run.stderr
    assert (tmp_path / "html" / "reference" / f"{GAMES[0]}.html").is_file()

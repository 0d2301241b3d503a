"""The board pictures measured in a real browser (headless Chromium): every label's rendered
glyphs lie inside its space, legend entries do not run into each other, and a screenshot is
taken. Skipped when no Chromium is installed (Debian: `apt-get install chromium`)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess

import pytest

from lumos.api import bundled_games, load_game, new_game
from lumos.reference.boards import render_svg

pytestmark = pytest.mark.browser


def _chromium() -> str | None:
    for name in (os.environ.get("LUMOS_CHROMIUM"), "chromium", "chromium-browser", "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


BROWSER = _chromium()
needs_browser = pytest.mark.skipif(BROWSER is None, reason="no headless Chromium installed")

# Runs in the page: for each label of a space, the corners of its rendered box (getBBox, real
# font metrics) must be inside the space's own shape (isPointInFill); legend entries must not
# overlap. The result is written into the page, which --dump-dom prints.
CHECK = """
<script>
const out = [];
for (const svg of document.querySelectorAll('svg.lumos-board')) {
  const game = svg.dataset.game;
  for (const t of svg.querySelectorAll('text.space-label:not(.outside)')) {
    const g = svg.querySelector(`g.space[data-space="${CSS.escape(t.dataset.space)}"]`);
    const shape = g.querySelector('polygon, circle, rect');
    const b = t.getBBox();
    const inset = 0.5;
    const corners = [[b.x + inset, b.y + inset], [b.x + b.width - inset, b.y + inset],
                     [b.x + inset, b.y + b.height - inset], [b.x + b.width - inset, b.y + b.height - inset]];
    for (const [x, y] of corners) {
      if (!shape.isPointInFill(new DOMPoint(x, y))) {
        out.push(`${game}: the label of ${t.dataset.space} (${t.textContent}) leaves its space at ${x.toFixed(1)},${y.toFixed(1)}`);
        break;
      }
    }
  }
  const boxes = [...svg.querySelectorAll('g.legend')].map(g => g.getBBox());
  boxes.forEach((a, i) => boxes.slice(i + 1).forEach(b => {
    if (a.x < b.x + b.width - 1 && b.x < a.x + a.width - 1 && a.y < b.y + b.height - 1 && b.y < a.y + a.height - 1)
      out.push(`${game}: two legend entries overlap`);
  }));
}
document.getElementById('result').textContent = JSON.stringify(out);
</script>
"""


def _run(*args: str, timeout: int = 90) -> subprocess.CompletedProcess:
    return subprocess.run([BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           *args], capture_output=True, text=True, timeout=timeout)


def _page(tmp_path, with_pieces: bool) -> str:
    parts = []
    for game in sorted(bundled_games()):
        cg = load_game(game)
        svg = render_svg(cg, new_game(cg, seed=1) if with_pieces else None)
        parts.append(svg.replace('<svg ', f'<svg data-game="{game}" ', 1))
    html = ("<!doctype html><html><body style='margin:0'>" + "".join(parts) +
            "<pre id='result'>not run</pre>" + CHECK + "</body></html>")
    path = tmp_path / "boards.html"
    path.write_text(html, encoding="utf-8")
    return path.as_uri()


@needs_browser
@pytest.mark.parametrize("with_pieces", [False, True], ids=["empty", "with pieces"])
def test_labels_stay_inside_their_spaces_in_a_browser(tmp_path, with_pieces):
    """The issue's defect: zone names spilled out of their circles and were cut. Measured with
    the browser's own fonts, every label of every bundled board is inside its space."""
    done = _run(f"--user-data-dir={tmp_path / 'profile'}", "--dump-dom", _page(tmp_path, with_pieces))
    found = re.search(r"<pre id=\"result\">(.*?)</pre>", done.stdout, re.S)
    assert found, done.stderr[-2000:]
    assert json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&")) == []


@needs_browser
def test_a_board_screenshot_is_taken(tmp_path):
    shot = tmp_path / "board.png"
    page = tmp_path / "one.html"
    page.write_text("<!doctype html><body style='margin:0'>" + render_svg(load_game("catch-the-golden-snitch"))
                    + "</body>", encoding="utf-8")
    _run(f"--user-data-dir={tmp_path / 'profile'}", f"--screenshot={shot}", "--window-size=1280,900", page.as_uri())
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---------------------------------------------------------------- the rules reference pages

PAGE_CHECK = """
<script>
window.addEventListener('load', () => {
  const out = [];
  const pres = [...document.querySelectorAll('div.highlight pre')];
  if (!pres.length) out.push('no source blocks');
  for (const pre of pres) {
    const box = pre.getBoundingClientRect();
    const body = document.querySelector('div.body').getBoundingClientRect();
    if (pre.scrollWidth > pre.clientWidth + 1)   // a line hidden past the box's edge, even a scrolling one
      out.push('a source block hides part of a line: ' + pre.textContent.slice(0, 60));
    if (box.right > body.right + 1) out.push('a source block runs out of the page: ' + pre.textContent.slice(0, 60));
  }
  for (const dt of document.querySelectorAll('dl.field-list > dt')) {
    if (dt.textContent.includes('_')) out.push('a raw field key: ' + dt.textContent);
    const range = document.createRange();
    range.selectNodeContents(dt);
    const lines = new Set([...range.getClientRects()].map(r => Math.round(r.bottom)));
    if (lines.size > 1) out.push('a field label breaks over lines: ' + dt.textContent);
  }
  const fig = document.querySelector('figure.lumos-board img');
  if (!fig || !fig.complete || fig.naturalWidth === 0) out.push('the board picture is not shown');
  const firstSection = document.querySelector('div.body section section');
  if (fig && firstSection && (fig.compareDocumentPosition(firstSection) & Node.DOCUMENT_POSITION_FOLLOWING) === 0)
    out.push('the board is not at the top of the page');
  document.body.insertAdjacentHTML('beforeend', '<pre id="result">' + JSON.stringify(out) + '</pre>');
});
</script>
"""


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """The stand-alone reference as `lumos docs` writes it."""
    from lumos.reference import build_docs
    out = tmp_path_factory.mktemp("reference")
    assert build_docs(out / "html") == 0
    return out / "html"


def test_reference_pages_open_with_summary_and_board_and_read_well(reference):
    """Issue 16, item 4: each game's page opens with a short summary and the board; card field
    labels are words; the footer claims no copyright it does not have ("©.")."""
    for game in sorted(bundled_games()):
        raw = (reference / f"{game}.html").read_text(encoding="utf-8")
        body = raw[raw.index('<div class="body"'):]
        assert body.index("lumos-summary") < body.index('<figure class="lumos-board">') < body.index("<h2")
        assert "©" not in raw[raw.index('class="footer"'):]
        assert not re.search(r'<dt class="field-(?:odd|even)">\w+_\w+', raw), "a raw field key is shown"


@needs_browser
@pytest.mark.parametrize("game", ["catch-the-golden-snitch", "snitch-snatcher"])
def test_reference_page_at_1280_px(reference, tmp_path, game):
    """Measured in a 1280 px window: no source block is cut or runs off the page, field labels do
    not break, and the board picture is shown before the first section."""
    page = reference / f"{game}.html"
    probe = reference / f"{game}-probe.html"
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", PAGE_CHECK + "</body>"), encoding="utf-8")
    done = _run(f"--user-data-dir={tmp_path / 'profile'}", "--window-size=1280,1000", "--virtual-time-budget=5000",
                "--dump-dom", probe.as_uri(), timeout=180)
    found = re.findall(r'<pre id="result">(\[.*?\])</pre>', done.stdout, re.S)   # the page's, not the script's
    assert found, done.stderr[-2000:]
    assert json.loads(found[-1].replace("&quot;", '"').replace("&amp;", "&")) == []

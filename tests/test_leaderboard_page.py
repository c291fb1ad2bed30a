"""A leaderboard page as a person sees it: the committed docs' ``leaderboards/`` built by Sphinx with the docs'
own configuration, theme and CSS, then opened in headless Chromium at a 1,280 px window. The table holds a row
for every reference ranker and filed entry, the critical-difference figure loads, and nothing is cut off.

Two pages: the committed ``fair_random`` page (its reference, and whatever entries are filed), and a page written
beside it by the library for the toy benchmark (tests/_benchmark.py) with three entries filed by ``submit``, so that
the entries' columns (record, features, tuning) are seen too, and a long name with no break opportunity.
"""

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import test_benchmark
import test_benchmark_entries
import yaml
from _waits import GUARD_S
from test_benchmark_entries import FIELDS, _evaluated

from crocbench.benchmark import SPECS, committed_specs, read_spec
from crocbench.benchmark._entries import entries
from crocbench.pages._leaderboard import leaderboard_figure, leaderboard_markdown

world = test_benchmark.world  # the toy export: a fixture

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
BENCHMARK = "fair_random"

#: Run in the page once it has loaded: what the test asserts, written into the body's data-checked attribute.
PROBE = """
<script>
window.addEventListener('load', () => {
  const width = window.innerWidth;
  const tables = [...document.querySelectorAll('article table')];
  const report = {
    width: width,
    page_overflow: document.documentElement.scrollWidth - width,
    rows: tables.length ? tables[0].tBodies[0].rows.length : -1,
    first_column: tables.length ? [...tables[0].tBodies[0].rows].map(r => r.cells[1].textContent.trim()) : [],
    tables: tables.map(t => ({
      right: Math.round(t.getBoundingClientRect().right),
      hidden: t.parentElement.scrollWidth - t.parentElement.clientWidth,
    })),
    images: [...document.querySelectorAll('article img')].map(i => ({
      src: i.getAttribute('src'), loaded: i.complete && i.naturalWidth > 0,
      right: Math.round(i.getBoundingClientRect().right), width: Math.round(i.getBoundingClientRect().width),
    })),
  };
  document.body.setAttribute('data-checked', JSON.stringify(report));
});
</script>
"""


def _browser():
    browser = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
    if browser is None:
        if os.environ.get("CI") == "true":
            pytest.fail("no Chromium to open the leaderboard page in (apt-get install chromium)")
        pytest.skip("no Chromium")
    return browser


def _toy_page(world, tmp: Path, folder: Path) -> list:
    """``folder/toy.md`` and its figure: the toy benchmark's leaderboard with three entries; their names."""
    project = tmp / "project"
    long = {**FIELDS, "features": "Morgan bits (radius 2, 2,048 bits) and RDKit's 200 descriptors, scaled"}
    long["tuning"] = {"budget": 16, "tuned_on": "the development panel's three screens, nested folds"}
    # a long name, one long name with no break opportunity (underscores: a browser breaks no line there), a short one
    unbreakable = "logreg_morgan_bits_2048_radius_2_balanced_class_weights_long_name"
    for name, ranker in (("toy-forest-with-a-long-name", "A"), (unbreakable, "A"), ("mine", "B")):
        evaluation = _evaluated(world, tmp / name, name=name, ranker=ranker, fields=long)
        done = test_benchmark_entries._cli("benchmark", "submit", evaluation, "--entry", name, "--root", project)
        assert done.returncode == 0, done.stderr
    spec, filed = read_spec(world["export"] / "benchmark.json"), entries(project, "toy")
    block = leaderboard_markdown(spec, world["reference"], filed, figure="toy_cd.png")
    (folder / "toy.md").write_text(f"# Leaderboard: toy\n\n{block}\n")
    leaderboard_figure(spec, world["reference"], filed, folder / "toy_cd.png")
    assert yaml.safe_load((filed[0].folder / "entry.yaml").read_text())["features"] == long["features"]
    return [*spec.rankers, *(e.name for e in filed)]


def _build(tmp: Path, world) -> tuple:
    """The docs' leaderboards and the toy's page built as HTML by Sphinx, with ``docs/conf.py`` (its theme,
    extensions, CSS): (the output folder, the toy page's models)."""
    source = tmp / "source"
    shutil.copytree(DOCS / "leaderboards", source / "leaderboards")
    toy = _toy_page(world, tmp, source / "leaderboards")
    shutil.copytree(DOCS / "_static", source / "_static")
    conf = DOCS / "conf.py"
    (source / "conf.py").write_text(
        f"__file__ = {str(conf)!r}\nexec(compile(open(__file__).read(), __file__, 'exec'))\n"
    )
    (source / "index.md").write_text("# crocbench\n\n```{toctree}\nleaderboards/index\nleaderboards/toy\n```\n")
    out = tmp / "html"
    done = subprocess.run(
        [sys.executable, "-m", "sphinx", "-q", "-b", "html", str(source), str(out)],
        capture_output=True,
        text=True,
        timeout=GUARD_S,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return out, toy


def _seen(browser, html: Path) -> dict:
    """What :data:`PROBE` reports of the page in Chromium at 1,280 x 900 px."""
    page = html.read_text()
    html.write_text(page.replace("</body>", PROBE + "</body>"))
    dom = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--hide-scrollbars",
            "--window-size=1280,900",
            "--virtual-time-budget=10000",
            "--dump-dom",
            html.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=GUARD_S,
    ).stdout
    found = re.search(r"data-checked=\"([^\"]*)\"", dom)
    assert found, dom[-1000:]
    return json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))


def _uncut(report: dict, expected: set, figure: str) -> None:
    assert report["width"] == 1280
    assert report["rows"] == len(expected)
    assert {m.split(" (")[0] for m in report["first_column"]} == expected, report["first_column"]
    assert report["page_overflow"] <= 0, report  # no horizontal scrolling of the page
    assert report["tables"] and all(t["hidden"] <= 0 and t["right"] <= 1280 for t in report["tables"]), report
    figures = [i for i in report["images"] if i["src"].endswith(figure)]
    assert len(figures) == 1, report["images"]
    assert figures[0]["loaded"] and figures[0]["right"] <= 1280 and figures[0]["width"] > 300, figures


@pytest.mark.docs
def test_a_leaderboard_page_shows_every_row_and_its_figure_uncut_at_1280_px(tmp_path, world):
    browser = _browser()
    out, toy = _build(tmp_path, world)
    spec = committed_specs(SPECS)[BENCHMARK]
    expected = {*spec.rankers, *(e.name for e in entries(ROOT, BENCHMARK))}
    _uncut(_seen(browser, out / "leaderboards" / f"{BENCHMARK}.html"), expected, f"{BENCHMARK}_cd.png")
    _uncut(_seen(browser, out / "leaderboards" / "toy.html"), set(toy), "toy_cd.png")

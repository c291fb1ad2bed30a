"""The Snakemake report's templates (workflow/report/*.rst), rendered as Snakemake's report renders them."""

import re

import pytest


@pytest.mark.filterwarnings('ignore:Argument "writer_name":PendingDeprecationWarning')  # as snakemake.report calls it
def test_captions_name_the_paper_only_for_a_dataset_that_reproduces_it():
    """The report's captions are Jinja2 templates rendered (as Snakemake's report does) with the job's params."""
    from pathlib import Path
    from types import SimpleNamespace

    jinja2 = pytest.importorskip("jinja2")
    core = pytest.importorskip("docutils.core")
    env = jinja2.Environment(trim_blocks=True, lstrip_blocks=True)  # snakemake.report's settings
    folder = Path(__file__).parents[1] / "workflow" / "report"

    def render(name, **params):
        snakemake = SimpleNamespace(params=SimpleNamespace(**params))
        text = env.from_string((folder / name).read_text()).render(snakemake=snakemake)
        # valid reStructuredText: a warning (level 2) halts
        core.publish_parts(text, writer_name="html", settings_overrides={"halt_level": 2, "report_level": 5})
        return " ".join(text.split())

    mine = render("irv_training_table.rst", reproduces=None)
    paper = render("irv_training_table.rst", reproduces="swamidass2010")
    assert "paper's claims" not in mine and "paper_epochs" not in mine and mine.endswith("training time.")
    assert "the paper's claims checked on this run." in paper and "paper_epochs" in paper
    areas = render("areas.rst", n_folds=5)
    assert "pooled 5-fold ranking" in areas and "n/a when a fold has too few" in areas


@pytest.mark.filterwarnings('ignore:Argument "writer_name":PendingDeprecationWarning')
def test_the_reports_introduction_names_every_screen_of_a_list():
    """workflow/report/workflow.rst, rendered as Snakemake's report does with the config: one dataset or a list
    (a list made `snakemake --report` fail with "dict object has no element [...]")."""
    from pathlib import Path
    from types import SimpleNamespace

    import yaml

    jinja2 = pytest.importorskip("jinja2")
    core = pytest.importorskip("docutils.core")
    root = Path(__file__).parents[1]
    template = jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(
        (root / "workflow" / "report" / "workflow.rst").read_text()
    )
    config = yaml.safe_load((root / "config.yaml").read_text())
    for chosen in ("dtp_aids_ca", ["dtp_aids_ca", "dtp_aids"]):
        text = template.render(snakemake=SimpleNamespace(config={**config, "dataset": chosen}))
        core.publish_parts(text, writer_name="html", settings_overrides={"halt_level": 2, "report_level": 5})
        names = [chosen] if isinstance(chosen, str) else chosen
        for name in names:
            assert f"- **{name}**: {config['datasets'][name]['description'][:40]}" in text
        assert ("published vs reproduced" in text) == ("dtp_aids" in names)  # dtp_aids reproduces the paper
        assert ("cross-dataset summary" in text) == (len(names) > 1)


@pytest.mark.filterwarnings('ignore:Argument "writer_name":PendingDeprecationWarning')
def test_the_reports_landing_page_leads_with_the_published_vs_reproduced_summary(tmp_path):
    """workflow/report/workflow.rst rendered as Snakemake's report renders it (Jinja2 with the config and the
    report's files, then docutils to HTML), for a run whose published_table step wrote its files from the committed
    reference's published.tsv: the page shows, before the run's description, every anchor in a table row with its
    model, published and reproduced value and status (five columns, to fit the text column beside the workflow's
    graph: tests/test_regression.py opens the real report), and the count of each status (counted here from the
    TSV). A run without the paper's table shows none."""
    from pathlib import Path
    from types import SimpleNamespace

    import pandas as pd
    import yaml

    from crocbench.report import landing_rst

    jinja2 = pytest.importorskip("jinja2")
    core = pytest.importorskip("docutils.core")
    root = Path(__file__).parents[1]
    template = jinja2.Environment(trim_blocks=True, lstrip_blocks=True).from_string(
        (root / "workflow" / "report" / "workflow.rst").read_text()
    )
    config = {**yaml.safe_load((root / "config.yaml").read_text()), "dataset": "dtp_aids"}
    published = pd.read_csv(root / "results" / "reference" / "published.tsv", sep="\t")
    tables = tmp_path / "results" / "dtp_aids" / "tables"
    tables.mkdir(parents=True)
    (tables / "published.html").write_text("<html></html>")
    (tables / "published_landing.rst").write_text(landing_rst(published, "dtp_aids"))
    files = [SimpleNamespace(path=tables / "areas.html"), SimpleNamespace(path=tables / "published.html")]

    def page(files):
        text = template.render(snakemake=SimpleNamespace(config=config), files=files, categories={})
        settings = {"halt_level": 2, "report_level": 5}
        return core.publish_parts(text, writer_name="html", settings_overrides=settings)["html_body"]

    html = page(files)
    assert html.index("Published vs reproduced") < html.index("Five classifiers")
    rows = re.findall(r"<tr>(.*?)</tr>", html, flags=re.S)
    assert len(rows) == len(published) + 1
    for row, r in zip(rows[1:], published.itertuples()):
        cells = [re.sub(r"<[^>]+>|&nbsp;", "", c).strip() for c in re.findall(r"<td>(.*?)</td>", row, flags=re.S)]
        assert cells[0] == r.model and cells[-1] == r.status and len(cells) == 5
        assert cells[2] == ("" if pd.isna(r.published) else f"{r.published:g}")
        assert float(cells[3].replace(",", "")) == pytest.approx(r.reproduced, rel=1e-3)
    statuses = {}
    for status in published["status"]:
        statuses[status] = statuses.get(status, 0) + 1
    for status, count in statuses.items():
        assert f"{status}: {count}" in html
    assert f"{len(published)} numbers checked" in html
    bare = page([SimpleNamespace(path=tables / "areas.html")])
    assert "Published vs reproduced" not in bare and "<table" not in bare

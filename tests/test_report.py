"""The Snakemake report's templates (workflow/report/*.rst), rendered as Snakemake's report renders them."""

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

"""The config's cross-field checks: what the JSON schema cannot say, checked before any job runs.

The schema (``workflow/schemas/config.schema.yaml``) checks each key alone; these check keys against each other
(the datasets chosen against those declared, the summary's models against the models, imports with folds against
repeats, an archive declared twice) and each model against each dataset's size. The workflow's ``common.smk``
calls :func:`check_config` once and wires; every message is one line that names the key.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ._extras import needs

#: The size a job is planned for before anything says how many compounds its screen has (no compounds file yet
#: and no ``expected`` count declared): the DTP AIDS screen's, the size crocbench was built around. Snakemake
#: evaluates a job's threads before its inputs exist; its memory is evaluated again, from the fingerprints, when
#: the job runs.
SIZE_UNKNOWN = 42_000


def update_config(config: dict, part: dict) -> dict:
    """``config`` updated by ``part`` in place, as ``snakemake --configfile`` updates it: a mapping merges key by
    key, any other value replaces.

    Examples
    --------
    >>> update_config({"cv": {"folds": 10, "seed": 0}, "dataset": "a"}, {"cv": {"seed": 3}, "dataset": ["b"]})
    {'cv': {'folds': 10, 'seed': 3}, 'dataset': ['b']}
    """
    for key, value in part.items():
        if isinstance(value, dict) and isinstance(config.get(key), dict):
            update_config(config[key], value)
        else:
            config[key] = value
    return config


def load_config(files=(), root=".") -> dict:
    """The config a workflow run of ``snakemake --configfile FILES...`` reads: ``config.yaml`` of the project
    ``root`` updated by each file in turn (:func:`update_config`), checked against the JSON schema, and the
    schema's defaults filled in.

    Parameters
    ----------
    files : sequence of path or dict
        The config files after ``config.yaml`` (relative to ``root``), or mappings already read.
    root : str or Path, default="."
        The project folder (``config.yaml`` and ``workflow/schemas/config.schema.yaml``).

    Returns
    -------
    dict

    Raises
    ------
    ValueError
        A file is missing, or the merged config fails the schema (one line naming the key).
    """
    import copy

    with needs("crocbench.config"):
        import yaml
        from snakemake.exceptions import WorkflowError
        from snakemake.utils import validate

    root = Path(root)
    paths = [root / "config.yaml", *files]
    config: dict = {}
    for part in paths:
        if not isinstance(part, dict):
            path = part if Path(part).is_absolute() or Path(part).is_file() else root / part
            if not Path(path).is_file():
                raise ValueError(f"{part}: no such config file")
            part = yaml.safe_load(Path(path).read_text()) or {}
        update_config(config, copy.deepcopy(part))
    schema = root / "workflow" / "schemas" / "config.schema.yaml"
    try:  # as the Snakefile validates: the schema's defaults filled in, a break of it said in one line
        validate(config, str(schema), set_default=True)
    except WorkflowError:
        from ._workflow import config_error_line

        raise ValueError(config_error_line(config, schema)) from None
    return config


def chosen_datasets(config: dict) -> list[str]:
    """The datasets a run builds: ``dataset:`` names one or a list, each declared under ``datasets:``.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of str
        The names, in the order given.

    Raises
    ------
    ValueError
        A name is not declared, or is given twice.

    Examples
    --------
    >>> chosen_datasets({"dataset": "a", "datasets": {"a": {}, "b": {}}})
    ['a']
    >>> chosen_datasets({"dataset": ["b", "c"], "datasets": {"a": {}, "b": {}}})
    Traceback (most recent call last):
    ...
    ValueError: config.yaml: dataset 'c' is not declared under 'datasets' (declared: a, b)
    """
    names = [config["dataset"]] if isinstance(config["dataset"], str) else list(config["dataset"])
    undeclared = [d for d in names if d not in config["datasets"]]
    if undeclared:
        raise ValueError(
            f"config.yaml: dataset {', '.join(map(repr, undeclared))} is not declared under 'datasets' "
            f"(declared: {', '.join(config['datasets'])})"
        )
    if len(set(names)) != len(names):
        raise ValueError(f"config.yaml: dataset lists a name twice: {names}")
    return names


def tuning_settings(config: dict) -> dict:
    """The study's ``tuning:`` with its metric resolved: the one given, else ``summary: questions``'
    ``metric_of_record``, else ``croc_exp_80``.

    Examples
    --------
    >>> tuning_settings({"tuning": {"budget": 4}})
    {'budget': 4, 'metric': 'croc_exp_80', 'share': 0.2, 'seed': 0, 'design': 'nested', 'folds': None, 'cost_margin': None, 'chosen_on': None, 'chosen_by': None}
    >>> tuning_settings({"summary": {"questions": {"metric_of_record": "ef_1pct"}}})["metric"]
    'ef_1pct'
    """
    spec = dict(config.get("tuning") or {})
    record = ((config.get("summary") or {}).get("questions") or {}).get("metric_of_record")
    return {
        "budget": int(spec.get("budget", 8)),
        "metric": spec.get("metric") or record or "croc_exp_80",
        "share": float(spec.get("share", 0.2)),
        "seed": int(spec.get("seed", 0)),
        "design": spec.get("design", "nested"),
        "folds": None if spec.get("folds") is None else int(spec["folds"]),
        "cost_margin": None if spec.get("cost_margin") is None else float(spec["cost_margin"]),
        "chosen_on": None if spec.get("chosen_on") is None else [str(d) for d in spec["chosen_on"]],
        "chosen_by": spec.get("chosen_by"),
    }


def study_runs(config: dict, search=()) -> dict:
    """``{name: crocbench.models.Run}``: the config's ``models:``, with the IRV's reweighting runs
    (``irv_training``) and each ``tune:`` resolved to the study's :func:`tuning_settings`, each checked.

    The workflow (``common.smk``) and the fold-job accounting both build their runs here.
    """
    from .models import declared_runs, expand_runs

    entries = expand_runs(config["models"], config.get("irv_training"), tuning_settings(config), search)
    return declared_runs(entries, search=search)


def summary_models(config: dict) -> list[str]:
    """The models the summary's ranks and tests compare: ``summary: models``, else every model.

    Parameters
    ----------
    config : dict
        The validated config.

    Returns
    -------
    list of str

    Raises
    ------
    ValueError
        ``summary: models`` names a model that is not under ``models``.
    """
    declared = list(config["models"])
    chosen = config["summary"]["models"] or declared
    unknown = [m for m in chosen if m not in declared]
    if unknown:
        raise ValueError(
            f"config.yaml: summary: models names {', '.join(map(repr, unknown))}, not under models "
            f"(declared: {', '.join(declared)})"
        )
    runs = _compared(config)
    return [run for m in chosen for run in runs[m]]


def _compared(config: dict, search=()) -> dict:
    """``{model entry: [its compared runs]}``: the entry itself, or under ``tuning: design: development`` a tuned
    entry's candidates."""
    tuning = tuning_settings(config)
    out = {}
    for name, entry in config["models"].items():
        if tuning["design"] == "development" and (entry or {}).get("tune") is not None:
            from .models import expand_runs

            out[name] = list(expand_runs({name: entry}, None, tuning, search))
        else:
            out[name] = [name]
    return out


def compared_models(config: dict, search=()) -> list[str]:
    """The runs the study compares, in config order: its ``models:``, each tuned entry of a development design
    (``tuning: design: development``) replaced by its candidates (``name.c1``, ...).

    Examples
    --------
    >>> compared_models({"models": {"random": {}, "knn": {"tune": {"k": [1, 5]}}},
    ...                  "tuning": {"budget": 2, "design": "development"}})
    ['random', 'knn.c1', 'knn.c2']
    """
    return [run for runs in _compared(config, search).values() for run in runs]


def check_repeats(config: dict, runs: dict) -> None:
    """Scores imported with their folds were computed on one split: repeats' other folds would not match them.

    Parameters
    ----------
    config : dict
        The validated config (``cv: repeats``).
    runs : dict
        ``{name: crocbench.models.Run}``.

    Returns
    -------
    None

    Raises
    ------
    ValueError
        ``cv: repeats`` above 1 with an import that has a ``fold`` column.
    """
    repeats = config["cv"]["repeats"]
    on_one_split = [name for name, run in runs.items() if run.imported and run.params.get("fold")]
    if repeats > 1 and on_one_split:
        raise ValueError(
            f"models: {', '.join(on_one_split)} import scores with their folds (fold: column), computed on one "
            f"split; cv: repeats {repeats} needs scores without folds (a fixed score) or repeats: 1"
        )


def check_archives(config: dict) -> None:
    """One archive name must mean one archive: every archive is kept as ``data/archives/{name}``, whichever
    datasets read members of it.

    Parameters
    ----------
    config : dict
        The validated config (``datasets: ... files: ... archive``).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        Two datasets declare the same archive name differently.
    """
    found = {}
    for name, entry in config["datasets"].items():
        for f in entry.get("files", ()):
            archive = f.get("archive")
            if archive is None:
                continue
            if archive["name"] in found and found[archive["name"]] != archive:
                raise ValueError(
                    f"dataset {name}: archive {archive['name']!r} is declared twice, differently: "
                    f"{found[archive['name']]} and {archive}"
                )
            found[archive["name"]] = archive


def expected_compounds(name: str, config: dict, root=".") -> int | None:
    """A dataset's number of compounds before any job runs.

    Parameters
    ----------
    name : str
        The dataset.
    config : dict
        The validated config.
    root : str or Path, default="."
        The project folder (where ``results/`` is).

    Returns
    -------
    int or None
        From its compounds file if built, else its declared ``expected`` count (``kept``, else ``rows_in``);
        None if neither says.
    """
    compounds = Path(root) / "results" / name / "compounds.parquet"
    if compounds.exists():
        with needs("crocbench.config"):
            import pyarrow.parquet as pq

        return pq.ParquetFile(compounds).metadata.num_rows
    expected = config["datasets"].get(name, {}).get("expected", {})
    for key in ("kept", "rows_in"):
        if isinstance(expected.get(key), int):
            return expected[key]
    return None


def check_sizes(datasets, config: dict, runs: dict, expected: Callable[[str], int | None]) -> None:
    """Every dataset can be split into the folds, and every trained model can run at its size.

    Parameters
    ----------
    datasets : list of str
        The datasets chosen.
    config : dict
        The validated config.
    runs : dict
        ``{name: crocbench.models.Run}``.
    expected : callable
        ``expected(name)``: the dataset's number of compounds, or None when unknown (nothing is checked).

    Returns
    -------
    None

    Raises
    ------
    ValueError
        A dataset has fewer positives than folds, or a model's ``resources`` refuses the size (e.g. an SVM
        kernel above ``max_kernel_gb`` with ``large: error``): its message, naming the dataset.
    """
    from .data import Dataset

    folds = config["cv"]["folds"]
    for name in datasets:
        Dataset.from_config(name, config["datasets"][name]).check_folds(folds)
        n = expected(name)
        if n is None:
            continue
        for run in runs.values():
            if not run.imported:
                try:
                    run.resources(n, folds)
                except ValueError as exc:
                    raise ValueError(f"dataset {name}: {exc}") from None


def check_questions(config: dict, runs: dict) -> None:
    """``summary: questions``, where declared: well formed (:meth:`crocbench.report.findings.Questions.from_dict`),
    each pair's rankers among the compared models' labels, each metric one the summary computes.

    Examples
    --------
    >>> from crocbench.models import declared_runs
    >>> q = {"declared": "before the run", "metric_of_record": "roc", "pairs": [["IRV", "kNN"]], "metrics": ["roc"],
    ...      "thresholds": {"roc": 0.01}}
    >>> runs = declared_runs({"irv": {}, "svm": {}})
    >>> check_questions({"summary": {"questions": q}}, runs)
    Traceback (most recent call last):
    ...
    ValueError: summary: questions: 'kNN' is not a compared model's label (IRV, SVM)
    """
    spec = (config.get("summary") or {}).get("questions")
    if spec is None:
        return
    from .report import SUMMARY_RANK_METRICS
    from .report.findings import Questions

    questions = Questions.from_dict(spec)
    compared = (config.get("summary") or {}).get("models") or list(runs)
    labels = [runs[m].label for m in compared if m in runs]
    for pair in questions.pairs:
        for label in pair:
            if label not in labels:
                raise ValueError(f"summary: questions: {label!r} is not a compared model's label ({', '.join(labels)})")
    for metric in questions.metrics:
        if metric not in SUMMARY_RANK_METRICS:
            raise ValueError(
                f"summary: questions: {metric!r} is not a metric of the summary ({', '.join(SUMMARY_RANK_METRICS)})"
            )


def check_tuning(config: dict) -> None:
    """``tuning: folds`` and ``cost_margin`` only under the development design, ``folds`` no more than the split's;
    ``tuning: chosen_on`` (the development panel the models were chosen on) shares no campaign with the run's datasets.

    Examples
    --------
    >>> check_tuning({"tuning": {"folds": 1}, "cv": {"folds": 5}})
    Traceback (most recent call last):
    ...
    ValueError: tuning: folds is for a development panel's candidates; design: nested tunes in every fold
    >>> check_tuning({"tuning": {"folds": 6, "design": "development"}, "cv": {"folds": 5}})
    Traceback (most recent call last):
    ...
    ValueError: tuning: folds is 6, more than the split's 5 (cv: folds)
    >>> check_tuning({"tuning": {"chosen_on": ["hsf1_primary"]}, "cv": {"folds": 5}, "dataset": "hsf1_confirmed",
    ...               "datasets": {"hsf1_confirmed": {}}})
    Traceback (most recent call last):
    ...
    ValueError: tuning: chosen_on: the models were chosen on hsf1_primary, a campaign this run tests (hsf1)
    """
    tuning = tuning_settings(config)
    for key in ("folds", "cost_margin"):
        if tuning[key] is not None and tuning["design"] != "development":
            raise ValueError(
                f"tuning: {key} is for a development panel's candidates; design: nested tunes in every fold"
            )
    if tuning["folds"] is not None and tuning["folds"] > config["cv"]["folds"]:
        raise ValueError(
            f"tuning: folds is {tuning['folds']}, more than the split's {config['cv']['folds']} (cv: folds)"
        )
    if tuning["chosen_on"]:
        from .data.pubchem import campaign_of

        tested = {campaign_of(d) for d in chosen_datasets(config)}
        for screen in tuning["chosen_on"]:
            if campaign_of(screen) in tested:
                raise ValueError(
                    f"tuning: chosen_on: the models were chosen on {screen}, a campaign this run tests "
                    f"({campaign_of(screen)})"
                )


def study_design(config: dict, runs: dict, ranked=None) -> dict:
    """What a run's results rest on, for its reference's manifest: the split (``cv``), the tuning (``tuning``:
    :func:`tuning_settings`), every compared run's class and parameters by label (``models``) and, for a panel, the
    labels of the runs its ranks and tests compare (``ranked``: ``summary: models``).

    Parameters
    ----------
    config : dict
        The validated config.
    runs : dict
        ``{name: crocbench.models.Run}`` of the compared runs.
    ranked : sequence of str, optional
        The labels of the runs the panel's ranks and tests compare.

    Returns
    -------
    dict
        Plain YAML-ready values.
    """
    import json

    cv = {k: config["cv"][k] for k in ("split", "folds", "repeats", "seed") if k in config["cv"]}
    models = {run.label: json.loads(json.dumps(run.params, default=str)) for run in runs.values()}
    design = {"cv": cv, "tuning": tuning_settings(config), "models": models}
    return design if ranked is None else {**design, "ranked": list(ranked)}


def check_memorization(config: dict) -> None:
    """``memorization``: ``novel <= analog``, and each of its metrics a key of table 1 or of the benchmark metrics.

    Examples
    --------
    >>> check_memorization({"memorization": {"novel": 0.4, "analog": 0.7, "metrics": ["croc_exp_80", "ef_2pct"]}})
    Traceback (most recent call last):
    ...
    ValueError: memorization: metrics: 'ef_2pct' is not a key of table 1 or of the benchmark metrics (croc_exp_80, ef_1pct, ...)
    """
    spec = config.get("memorization") or {}
    from .cv import check_strata_thresholds
    from .metrics import benchmark_metrics, paper_metrics

    try:
        check_strata_thresholds(spec.get("novel", 0.4), spec.get("analog", 0.7))
    except ValueError as exc:
        raise ValueError(f"memorization: {exc}") from None
    keys = [c.key for c in paper_metrics() + benchmark_metrics()]
    for key in spec.get("metrics", ()):
        if key not in keys:
            raise ValueError(
                f"memorization: metrics: {key!r} is not a key of table 1 or of the benchmark metrics "
                "(croc_exp_80, ef_1pct, ...)"
            )


def check_config(config: dict, runs: dict, root=".") -> list[str]:
    """Every cross-field check, in the order a user would fix them; returns the chosen datasets.

    Parameters
    ----------
    config : dict
        The validated config.
    runs : dict
        ``{name: crocbench.models.Run}`` (:func:`crocbench.models.declared_runs`: each entry already checked).
    root : str or Path, default="."
        The project folder.

    Returns
    -------
    list of str
        The datasets the run builds.

    Raises
    ------
    ValueError
        The first check that fails, in one line.
    """
    datasets = chosen_datasets(config)
    summary_models(config)
    check_questions(config, runs)
    check_memorization(config)
    check_tuning(config)
    check_repeats(config, runs)
    check_archives(config)
    check_sizes(datasets, config, runs, lambda name: expected_compounds(name, config, root))
    return datasets

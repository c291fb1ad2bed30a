"""A workflow run's config: the files merged as ``snakemake --configfile`` merges them and checked against the JSON
schema (:func:`load_config`), and what the rest of crocbench reads from it: the datasets chosen, the runs and their
tuning, the runs compared, a dataset's size before any job runs, and the design a reference's manifest keeps.
"""

from __future__ import annotations

from pathlib import Path

from .._extras import needs

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
        from .._workflow import config_error_line

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
    from ..models import declared_runs, expand_runs

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
            from ..models import expand_runs

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


def _design_tuning(config: dict) -> dict | None:
    """The tuning a run's results rest on: :func:`tuning_settings` where a model entry is tuned (``tune:``); else
    only where its configurations were chosen (``chosen_on``, ``chosen_by``), or None: no setting that did not
    act is recorded.

    Examples
    --------
    >>> _design_tuning({"models": {"knn": {"k": 10}}, "tuning": {"chosen_on": ["a"], "chosen_by": {"budget": 8}}})
    {'chosen_on': ['a'], 'chosen_by': {'budget': 8}}
    >>> _design_tuning({"models": {"knn": {"k": 10}}}) is None
    True
    >>> _design_tuning({"models": {"knn": {"tune": "declared"}}, "tuning": {"budget": 4}})["budget"]
    4
    """
    settings = tuning_settings(config)
    if any(isinstance(entry, dict) and "tune" in entry for entry in (config.get("models") or {}).values()):
        return settings
    chosen = {k: settings[k] for k in ("chosen_on", "chosen_by") if settings[k] is not None}
    return chosen or None


def study_design(config: dict, runs: dict, ranked=None, arms=None) -> dict:
    """What a run's results rest on, for its reference's manifest: the split (``cv``), the tuning (``tuning``:
    :func:`_design_tuning`), every compared run's class and parameters by label (``models``) and, for a panel, the
    labels of the runs its ranks and tests compare (``ranked``: ``summary: models``).

    Parameters
    ----------
    config : dict
        The validated config.
    runs : dict
        ``{name: crocbench.models.Run}`` of the compared runs.
    ranked : sequence of str, optional
        The labels of the runs the panel's ranks and tests compare.
    arms : dict, optional
        A verdict study's arms (``crocbench.report.findings.declared_arms``): with them, the design holds the
        ``verdict:`` declared and each arm's ``model`` label, ``ranker`` and ``fingerprint`` (``arms``), which
        the study's words are computed from.

    Returns
    -------
    dict
        Plain YAML-ready values.
    """
    import json

    cv = {k: config["cv"][k] for k in ("split", "folds", "repeats", "seed") if k in config["cv"]}
    models = {run.label: json.loads(json.dumps(run.params, default=str)) for run in runs.values()}
    design = {"cv": cv, "tuning": _design_tuning(config), "models": models}
    if ranked is not None:
        design["ranked"] = list(ranked)
    if arms:
        design["verdict"] = json.loads(json.dumps(config["verdict"]))
        design["arms"] = {label: dict(arm._asdict()) for label, arm in arms.items()}
    return design

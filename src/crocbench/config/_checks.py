"""The config's cross-field checks: what the JSON schema cannot say, checked before any job runs.

The schema (``workflow/schemas/config.schema.yaml``) checks each key alone; these check keys against each other
(the datasets chosen against those declared, the summary's models against the models, imports with folds against
repeats, an archive declared twice) and each model against each dataset's size. The workflow's ``common.smk``
calls :func:`check_config` once and wires; every message is one line that names the key.
"""

from __future__ import annotations

from collections.abc import Callable

from ._load import chosen_datasets, expected_compounds, summary_models, tuning_settings


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
    from ..data import Dataset

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
    from ..report import SUMMARY_RANK_METRICS
    from ..report.findings import Questions

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


def check_verdict(config: dict, runs: dict) -> None:
    """``verdict:``, where declared: each arm a declared model whose entry reads the arm's features; each family's pairs
    two known arms on the same features (rankers compared at equal features), none twice, on 3 screens or more (the
    leave-one-screen-out panels need 2 each), its metrics the summary's
    and the metric of record among the families'; each decomposition's pair two arms differing in ranker and in
    features; the stages' priorities 1, 2, ... and the planned stages the longest run of them within the budget.

    Examples
    --------
    >>> from crocbench.models import declared_runs
    >>> v = {"metric_of_record": "roc", "fingerprints": {"paper": {}, "ECFP4": {}},
    ...      "arms": {"IRV/paper": {"ranker": "irv", "fingerprint": "paper"},
    ...               "SVM/ECFP4": {"ranker": "svm_ecfp4", "fingerprint": "ECFP4"}},
    ...      "families": [{"name": "f", "pairs": [["IRV/paper", "SVM/ECFP4"]], "metrics": ["roc"]}],
    ...      "decomposition": {"pairs": []}, "cost": {"budget_hours": 1, "stages": []}}
    >>> check_verdict({"verdict": v, "dataset": ["a", "b", "c"], "datasets": dict.fromkeys("abc", {})}, declared_runs({"irv": {}, "svm_ecfp4": {"class": "svm", "features": "ecfp4"}}))
    Traceback (most recent call last):
    ...
    ValueError: verdict: families: f: IRV/paper and SVM/ECFP4 read different features (paper, ECFP4)
    """
    verdict = config.get("verdict")
    if verdict is None:
        return
    from ..models import FEATURE_LABELS
    from ..report import SUMMARY_RANK_METRICS

    screens = chosen_datasets(config)
    if len(screens) < 3:
        raise ValueError(
            f"verdict: a verdict's leave-one-screen-out panels need 3 screens or more; dataset: names {len(screens)}"
        )
    arms = verdict["arms"]
    for label, arm in arms.items():
        if arm["ranker"] not in runs:
            raise ValueError(f"verdict: arms: {label}: {arm['ranker']!r} is not a model ({', '.join(runs)})")
        if arm["fingerprint"] not in verdict["fingerprints"]:
            raise ValueError(
                f"verdict: arms: {label}: {arm['fingerprint']!r} is not one of verdict: fingerprints "
                f"({', '.join(verdict['fingerprints'])})"
            )
        reads = FEATURE_LABELS.get(runs[arm["ranker"]].features, runs[arm["ranker"]].features)
        if reads != arm["fingerprint"]:
            raise ValueError(
                f"verdict: arms: {label}: model {arm['ranker']} reads {reads}, not {arm['fingerprint']} "
                "(its models: entry's features:)"
            )

    def known(where: str, pair) -> tuple[dict, dict]:
        for label in pair:
            if label not in arms:
                raise ValueError(f"verdict: {where}: {label!r} is not an arm ({', '.join(arms)})")
        return arms[pair[0]], arms[pair[1]]

    for family in verdict["families"]:
        where = f"families: {family['name']}"
        if len({frozenset(p) for p in map(tuple, family["pairs"])}) != len(family["pairs"]):
            raise ValueError(f"verdict: {where}: a pair is declared twice")
        for pair in family["pairs"]:
            a, b = known(where, pair)
            if a["fingerprint"] != b["fingerprint"]:
                raise ValueError(
                    f"verdict: {where}: {pair[0]} and {pair[1]} read different features "
                    f"({a['fingerprint']}, {b['fingerprint']})"
                )
        for metric in family["metrics"]:
            if metric not in SUMMARY_RANK_METRICS:
                raise ValueError(f"verdict: {where}: {metric!r} is not a metric of the summary")
    if not any(verdict["metric_of_record"] in f["metrics"] for f in verdict["families"]):
        raise ValueError(f"verdict: the metric of record {verdict['metric_of_record']!r} is in no family's metrics")
    for pair in verdict["decomposition"]["pairs"]:
        a, b = known("decomposition", pair)
        if runs[a["ranker"]].model is runs[b["ranker"]].model or a["fingerprint"] == b["fingerprint"]:
            raise ValueError(f"verdict: decomposition: {pair[0]} and {pair[1]} must differ in ranker and in features")
    stages = sorted(verdict["cost"]["stages"], key=lambda s: s["priority"])
    if [s["priority"] for s in stages] != list(range(1, len(stages) + 1)):
        raise ValueError("verdict: cost: stages: the priorities must be 1, 2, ... each once")
    total, fits = 0.0, True
    for s in stages:
        total += s["planned_hours"]
        fits = fits and total <= verdict["cost"]["budget_hours"]
        if s["planned"] != fits:
            raise ValueError(
                f"verdict: cost: stage {s['stage']}: planned must be {str(fits).lower()} (the planned stages are the "
                f"longest run of priorities within {verdict['cost']['budget_hours']} h; with it {total:.2f} h)"
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
        from ..data.pubchem import campaign_of

        tested = {campaign_of(d) for d in chosen_datasets(config)}
        for screen in tuning["chosen_on"]:
            if campaign_of(screen) in tested:
                raise ValueError(
                    f"tuning: chosen_on: the models were chosen on {screen}, a campaign this run tests "
                    f"({campaign_of(screen)})"
                )


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
    from ..cv import check_strata_thresholds
    from ..metrics import benchmark_metrics, paper_metrics

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


def check_features(config: dict, runs: dict) -> None:
    """A similarity ranker on ``features: ecfp4`` reads the ECFP4 bits of ``ecfp.npz``: ``ecfp:`` must then be
    ECFP4's, radius 2 on 2,048 bits (:func:`crocbench.chem.graph.ecfp4_fingerprints`).

    Examples
    --------
    >>> from crocbench.models import declared_runs
    >>> runs = declared_runs({"knn_ecfp4": {"class": "knn", "features": "ecfp4"}})
    >>> check_features({"ecfp": {"radius": 2, "n_bits": 1024}}, runs)
    Traceback (most recent call last):
    ...
    ValueError: models: knn_ecfp4 reads ECFP4 (radius 2 on 2048 bits); ecfp: is radius 2 on 1024 bits
    """
    from ..chem.ecfp import N_BITS, RADIUS

    ecfp = config["ecfp"]
    if (int(ecfp["radius"]), int(ecfp["n_bits"])) == (RADIUS, N_BITS):
        return
    for run in runs.values():
        if run.features == "ecfp4" and not run.uses_ecfp:
            raise ValueError(
                f"models: {run.name} reads ECFP4 (radius {RADIUS} on {N_BITS} bits); ecfp: is radius "
                f"{ecfp['radius']} on {ecfp['n_bits']} bits"
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
    check_verdict(config, runs)
    check_features(config, runs)
    check_memorization(config)
    check_tuning(config)
    check_repeats(config, runs)
    check_archives(config)
    check_sizes(datasets, config, runs, lambda name: expected_compounds(name, config, root))
    return datasets

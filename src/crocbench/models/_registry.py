"""From a config entry to a model: a built-in ranker (:data:`BUILTIN`) by name, a user's class or imported scores.

A ``models:`` entry of ``config.yaml`` is one *run*::

    svm: {C_grid: [0.1, 1, 10]}                          # a built-in model, by its name
    svm_platt: {class: svm, score: platt}                # a built-in under another name
    svm_ecfp4: {class: svm, features: ecfp4}             # an arm: a built-in on the other fingerprint
    forest: {class: "my_rankers:ForestRanker", n_estimators: 500, label: Forest}   # a user's class
    gnn: {scores: gnn.csv, id: id, score: score, fold: fold}              # scores computed elsewhere

Every entry is checked here, before any job runs, and every error is one line
naming the entry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ._base import FEATURE_LABELS, Model, checked_fold_jobs
from ._classes import MODELS, check_spec, checked_model, load_class
from ._development import candidate_runs
from ._tuning import Tuned, resolve_tune

IMPORT_KEYS = ("scores", "id", "score", "fold", "label")


def make_model(name: str, params: dict | None = None, *, seed=None, progress=None, n_jobs=None, search=()) -> Model:
    """The model of the config entry ``name: params``, with its parameters checked against its class's signature.

    ``params`` may name the class (``class:``, a built-in name or
    ``"module:Class"``; default: the built-in called ``name``) and a display
    ``label`` (not passed on).  ``seed``, ``progress`` and ``n_jobs`` are passed
    to the classes whose signature takes them.

    Parameters
    ----------
    name : str
        The config entry's name.
    params : dict, default=None
        The entry's parameters, with the optional ``class`` and ``label``.
    seed : int or tuple, default=None
        Passed to a class whose signature takes ``seed``.
    progress : file-like, default=None
        Passed to a class whose signature takes ``progress``.
    n_jobs : int, default=None
        Passed to a class whose signature takes ``n_jobs``.
    search : sequence of path-like, default=()
        Folders searched (before ``sys.path``) for a ``"module:Class"``'s module.

    Returns
    -------
    Model
        A new, unfitted model.

    Examples
    --------
    >>> make_model("knn", {"k": 5}).k
    5
    >>> make_model("knn", {"kk": 5})
    Traceback (most recent call last):
    ...
    ValueError: model knn: unknown parameter 'kk'; KNN takes k, tie_break
    """
    params = dict(params or {})
    spec = params.pop("class", name)
    params.pop("label", None)
    tune = params.pop("tune", None)
    if "scores" in params:
        raise ValueError(f"model {name}: an entry with 'scores' imports scores and names no class")
    check_spec(name, spec)
    if tune is not None:  # tuned in each outer fold (expand_runs gives the study's budget, metric and share)
        if not isinstance(tune, dict) or "space" not in tune:
            raise ValueError(f"model {name}: tune must be resolved to {{space, budget, metric, share}} (expand_runs)")
        try:
            return Tuned(
                name,
                {"class": spec, **params},
                **tune,
                seed=0 if seed is None else seed,
                progress=progress,
                n_jobs=n_jobs,
                search=search,
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(f"model {name}: tune: {exc}") from None
    return checked_model(name, {"class": spec, **params}, seed=seed, progress=progress, n_jobs=n_jobs, search=search)


@dataclass
class Run:
    """One ``models:`` entry: a model trained on the folds, or out-of-fold scores imported from a file.

    ``params`` are the model's parameters (with ``class``; without ``label``),
    or for an import its ``scores`` file and column names.

    Parameters
    ----------
    name : str
        The entry's name (the run's name in paths and tables).
    params : dict
        The model's parameters (with ``class``; without ``label``), or an import's ``scores`` file and columns.
    label : str
        The display name.
    imported : bool, default=False
        Whether the run's scores are imported from a file instead of trained.
    model : object, default=None
        The model class (None for an import).
    """

    name: str
    params: dict
    label: str
    imported: bool = False
    model: object = field(default=None, repr=False)

    @property
    def baseline(self) -> bool:
        """Whether the model is a baseline that ranks by chance (its class's ``baseline``; False for an import)."""
        return bool(getattr(self.model, "baseline", False))

    def uses_matrix(self, n_compounds: int, n_folds: int) -> bool:
        """Whether the model's fold jobs read the all-pairs similarity matrix (its ``uses_matrix``: a flag, or a
        method of the dataset's size).

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of cross-validation folds.

        Returns
        -------
        bool
            True when the fold jobs read the N x N similarity matrix.
        """
        own = getattr(self.model, "uses_matrix", False)
        return bool(own(n_compounds, n_folds) if callable(own) else own)

    @property
    def fold_jobs(self) -> int | None:
        """How many jobs the run's folds are split among (its model's ``fold_jobs``); None: a job per fold (and
        for an import)."""
        if hasattr(self.model, "folds_in_one_job"):
            raise ValueError(
                f"run {self.name!r}: its class sets folds_in_one_job, which is now fold_jobs (1 for one job)"
            )
        return checked_fold_jobs(getattr(self.model, "fold_jobs", None), f"run {self.name!r}: ")

    @property
    def uses_neighbours(self) -> bool:
        """Whether the model's fold jobs read the neighbour lists (its class's ``uses_neighbours``, default True;
        False for an import)."""
        return False if self.imported else bool(getattr(self.model, "uses_neighbours", True))

    @property
    def features(self) -> str | None:
        """The fingerprints the run's model reads (one of ``crocbench.models.FEATURES``): its entry's
        ``features``, else its class's ``feature_set``; None for an import."""
        return None if self.imported else str(getattr(self.model, "feature_set", "paper"))

    @property
    def uses_ecfp(self) -> bool:
        """Whether the model's fold jobs read the screen's ECFP (its class's ``uses_ecfp``; False for an import)."""
        return bool(getattr(self.model, "uses_ecfp", False))

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """``{"threads", "mem_mb"}`` of one fold job, from the model's own ``resources`` if it has one.

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of cross-validation folds.

        Returns
        -------
        dict
            ``{"threads": int, "mem_mb": int}`` of one fold job.
        """
        own = getattr(self.model, "resources", None)
        out = Model.resources(self.model, n_compounds, n_folds)  # the default, for classes without their own
        if callable(own):
            try:
                out.update(own(n_compounds, n_folds))
            except ValueError as exc:  # e.g. a kernel that cannot fit: one line naming the entry
                raise ValueError(f"model {self.name}: {exc}") from None
        return {"threads": max(1, int(out["threads"])), "mem_mb": max(1, int(out["mem_mb"]))}


def arm_label(cls, features: str | None) -> str | None:
    """An arm's label: the class's ``label`` and the fingerprint (``crocbench.models.FEATURE_LABELS``) when
    ``features`` is not the class's own ``feature_set``; else None.

    Parameters
    ----------
    cls : type
        The model's class.
    features : str or None
        The entry's ``features``.

    Returns
    -------
    str or None
        ``kNN/ECFP4``, ``RF/paper``, ...; None for a class on its own fingerprint, or one without a label.

    Examples
    --------
    >>> from crocbench.models import KNN, RandomForest
    >>> arm_label(KNN, "ecfp4"), arm_label(RandomForest, "paper"), arm_label(KNN, "paper")
    ('kNN/ECFP4', 'RF/paper', None)
    """
    own = getattr(cls, "label", None)
    if features in (None, getattr(cls, "feature_set", "paper")) or not own:
        return None
    return f"{own}/{FEATURE_LABELS[features]}"


def irv_run(scheme: str) -> str:
    """The run that trains the IRV with a reweighting scheme: ``irv`` itself for ``none``, else ``irv_{scheme}``.

    Parameters
    ----------
    scheme : str
        A reweighting scheme (``crocbench.models.SCHEMES``).

    Returns
    -------
    str
        The run's name.

    Examples
    --------
    >>> irv_run("none"), irv_run("exp")
    ('irv', 'irv_exp')
    """
    return "irv" if scheme == "none" else f"irv_{scheme}"


def expand_runs(models: dict, irv_training: dict | None = None, tuning: dict | None = None, search=()) -> dict:
    """A config's run entries: its ``models:`` plus, when ``irv`` is one of them, a run per reweighting scheme;
    each entry's ``tune:`` resolved to the study's tuning (:func:`resolve_tune`).

    Each scheme of ``irv_training['schemes']`` other than ``none`` is the ``irv``
    entry's class and parameters (not its label) with the training settings
    (``alpha``, ``anneal_epochs``, ...) and ``reweight: scheme``, named by
    :func:`irv_run`; the ``irv`` run itself records its training history
    (``track``), which the reweighting table reads.

    Parameters
    ----------
    models : dict
        The config's ``models:`` entries, ``{name: params}``.
    irv_training : dict, default=None
        The config's ``irv_training:`` (``schemes`` and the schemes' parameters); None for no scheme runs.
    tuning : dict, default=None
        The study's ``tuning:`` (``budget``, ``metric``, ``share``, ``seed``, ``design``); required when an entry
        says ``tune``. Under ``design: development`` a tuned entry becomes its candidates, each a run
        (``crocbench.models._development.candidate_runs``), for a development panel; under ``nested`` (the default) one run tuned in
        each outer fold.
    search : sequence of path-like, default=()
        Folders searched for a plug-in class whose declared space ``tune: declared`` names.

    Returns
    -------
    dict
        ``{name: params}``: the entries of ``models`` and one ``irv_{scheme}`` entry per scheme.

    Examples
    --------
    >>> runs = expand_runs({"knn": {"k": 20}, "irv": {"k": 20, "label": "IRV"}},
    ...                    {"schemes": ["none", "exp"], "alpha": 20.0})
    >>> list(runs), runs["irv_exp"]
    (['knn', 'irv', 'irv_exp'], {'class': 'irv', 'k': 20, 'track': True, 'alpha': 20.0, 'reweight': 'exp'})
    """
    entries = {}
    for name, entry in models.items():
        entry = dict(entry or {})
        if "tune" in entry:
            entry["tune"] = resolve_tune(name, entry, tuning, search)
            if tuning.get("design", "nested") == "development":  # its candidates, each a run of its own
                cls = load_class(entry.get("class", name), search)
                label = entry.get("label") or arm_label(cls, entry.get("features")) or getattr(cls, "label", None)
                entries.update(candidate_runs(name, entry, label or name))
                continue
        entries[name] = entry
    if "irv" not in entries or not irv_training:
        return entries
    entries["irv"]["track"] = True
    training = {k: v for k, v in irv_training.items() if k != "schemes"}
    base = {k: v for k, v in entries["irv"].items() if k != "label"}  # a variant is named by its run, not the label
    for scheme in irv_training.get("schemes", ()):
        if scheme != "none":
            entries[irv_run(scheme)] = {"class": "irv", **base, **training, "reweight": scheme}
    return entries


def declared_runs(entries: dict, search=()) -> dict:
    """``{name: Run}`` for the ``models:`` entries of a config, each checked; labels unique.

    A run's label is its entry's ``label``; else, for an arm (an entry whose
    ``features`` is not its class's own), its class's ``label`` and the
    fingerprint (``kNN/ECFP4``); else its class's ``label`` for the first run of
    that class (so ``svm`` is "SVM" and a second SVM entry keeps its own name),
    else its name.

    Parameters
    ----------
    entries : dict
        The config's run entries, ``{name: params}`` (:func:`expand_runs`).
    search : sequence of path-like, default=()
        Folders searched (before ``sys.path``) for a ``"module:Class"``'s module.

    Returns
    -------
    dict
        ``{name: Run}``, in the order of ``entries``.

    Examples
    --------
    >>> runs = declared_runs({"knn": {"k": 5}, "knn3": {"class": "knn", "k": 3}, "gnn": {"scores": "g.csv"}})
    >>> [(r.name, r.label, r.imported) for r in runs.values()]
    [('knn', 'kNN', False), ('knn3', 'knn3', False), ('gnn', 'gnn', True)]
    >>> [r.label for r in declared_runs({"rf": {}, "rf_paper": {"class": "rf", "features": "paper"}}).values()]
    ['RF', 'RF/paper']
    """
    runs, classes = {}, set()
    for name, entry in entries.items():
        entry = dict(entry or {})
        if "scores" in entry:
            extra = sorted(set(entry) - set(IMPORT_KEYS))
            if extra:
                raise ValueError(f"model {name}: an import takes {', '.join(IMPORT_KEYS)}; not {extra[0]!r}")
            label = entry.pop("label", None) or name
            runs[name] = Run(name, {"id": "id", "score": "score", "fold": None, **entry}, str(label), imported=True)
            continue
        model = make_model(name, entry, search=search)
        cls = getattr(model, "base_class", None) or type(model)  # a tuned ranker is its ranker's class
        label = (
            entry.pop("label", None)
            or arm_label(cls, entry.get("features"))
            or (getattr(cls, "label", None) if cls not in classes else None)
            or name
        )
        classes.add(cls)
        runs[name] = Run(
            name, {"class": _spec(cls), **{k: v for k, v in entry.items() if k != "class"}}, str(label), model=model
        )
    seen = {}
    for run in runs.values():
        if run.label in seen:
            raise ValueError(
                f"models {seen[run.label]} and {run.name} are both labelled {run.label!r}; give one a 'label:'"
            )
        seen[run.label] = run.name
    return runs


def _spec(cls) -> str:
    return cls.name if MODELS.get(getattr(cls, "name", None)) is cls else f"{cls.__module__}:{cls.__qualname__}"

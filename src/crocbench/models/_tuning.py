"""Tuning inside each outer fold: the same budget of configurations for every ranker, chosen on validation data
carved from the fold's training compounds only.

A ranker's *search space* is a dict of its parameters, each with the list of values tried; the grid is their
product. :func:`candidates` draws the study's *budget* of configurations from it (all of them when the grid is no
larger), the same for every fold. :class:`Tuned` fits each candidate on a stratified share of the outer fold's
training compounds, scores the rest of them (the validation set) on the study's metric of record, refits the best
on all the training compounds and scores the test fold with it. The test fold is never seen before that, so a
configuration is never chosen by looking at a test fold (nested tuning). Each built-in ranker with settings worth
tuning declares its space (``search_space``); a config entry's ``tune:`` gives it or names the declared one.
"""

from __future__ import annotations

import itertools
import time

import numpy as np

from ..metrics import Ranking, parse_metric
from ._base import Model, seed_state
from ._classes import checked_model, load_class
from .ecfp import inner_split

#: The config's ``tune:`` value that stands for the class's declared space.
DECLARED_SPACE = "declared"
#: Where the configurations are chosen: inside each outer fold (:class:`Tuned`), or once on a development panel
#: of screens the study does not then report (``crocbench.models._development``).
DESIGNS = ("nested", "development")


def grid(space: dict) -> list[dict]:
    """Every configuration of ``space`` (its parameters' values' product), the first parameter varying slowest.

    Examples
    --------
    >>> grid({"k": [5, 10], "tie_break": [None, "similarity"]})
    [{'k': 5, 'tie_break': None}, {'k': 5, 'tie_break': 'similarity'}, {'k': 10, 'tie_break': None}, {'k': 10, 'tie_break': 'similarity'}]
    """
    check_space(space)
    keys = list(space)
    return [dict(zip(keys, values)) for values in itertools.product(*(space[k] for k in keys))]


def check_space(space) -> None:
    """A search space is a non-empty dict of parameter names to non-empty lists of distinct values, else
    ValueError (one line)."""
    if not isinstance(space, dict) or not space:
        raise ValueError(f"a search space is a non-empty mapping of parameters to lists of values; got {space!r}")
    for key, values in space.items():
        if not isinstance(values, (list, tuple)) or not values:
            raise ValueError(f"search space: {key!r} needs a non-empty list of values; got {values!r}")
        if len({repr(v) for v in values}) != len(values):
            raise ValueError(f"search space: {key!r} lists a value twice: {list(values)!r}")


def candidates(space: dict, budget: int, seed: int = 0) -> list[dict]:
    """The ``budget`` configurations tried: the whole grid when it has at most ``budget``, else ``budget`` of it
    drawn without replacement (seeded), in grid order.

    Parameters
    ----------
    space : dict
        ``{parameter: [values]}``.
    budget : int
        Configurations at most, at least 1.
    seed : int, default=0
        Seeds the draw; the same seed gives the same configurations.

    Returns
    -------
    list of dict

    Examples
    --------
    >>> candidates({"k": [5, 10, 20]}, 8)
    [{'k': 5}, {'k': 10}, {'k': 20}]
    >>> len(candidates({"a": [1, 2, 3, 4], "b": [1, 2, 3]}, 5))
    5
    """
    if isinstance(budget, bool) or int(budget) != budget or budget < 1:
        raise ValueError(f"the tuning budget must be a whole number of at least 1; got {budget!r}")
    full = grid(space)
    if len(full) <= budget:
        return full
    rng = np.random.default_rng([int(seed), 0x7E5E])
    return [full[i] for i in np.sort(rng.choice(len(full), int(budget), replace=False))]


def resolve_tune(name: str, entry: dict, tuning: dict | None, search=()) -> dict:
    """An entry's ``tune:`` (a search space, or ``declared`` for its class's ``search_space``) with the study's
    ``tuning:`` settings: ``{space, budget, metric, share, sample_seed}``, as :class:`~._tuning.Tuned` takes them.

    Every tuned entry gets the same budget, metric and share: an entry cannot set its own, and a space with
    fewer configurations than the budget is refused.

    Parameters
    ----------
    name : str
        The entry's name (in error messages).
    entry : dict
        The entry, with its ``tune`` and optional ``class``.
    tuning : dict or None
        The study's ``tuning:`` (``crocbench.config.tuning_settings``).
    search : sequence of path-like, default=()
        Folders searched for a plug-in class.

    Returns
    -------
    dict
        ``{space, budget, metric, share, sample_seed}``.

    Examples
    --------
    >>> resolve_tune("knn", {"tune": "declared"}, {"budget": 8, "metric": "roc", "share": 0.2, "seed": 0})
    {'space': {'k': [3, 5, 10, 15, 20, 30, 40, 50]}, 'budget': 8, 'metric': 'roc', 'share': 0.2, 'sample_seed': 0}
    """
    tune = entry["tune"]
    if not tuning:
        raise ValueError(f"model {name}: tune needs the study's tuning: (budget, metric, share)")
    if tune == DECLARED_SPACE:
        spec = entry.get("class", name)
        try:
            cls = load_class(spec, search)
        except ValueError as exc:
            raise ValueError(f"model {name}: {exc}") from None
        tune = getattr(cls, "search_space", None)
        if not tune:
            raise ValueError(f"model {name}: {cls.__name__} declares no search_space; give tune: {{param: [values]}}")
    elif not isinstance(tune, dict):
        raise ValueError(f"model {name}: tune is {DECLARED_SPACE!r} or {{param: [values]}}; got {tune!r}")
    try:
        size = len(grid(tune))
    except ValueError as exc:
        raise ValueError(f"model {name}: tune: {exc}") from None
    probe = checked_model(
        name, {k: v for k, v in entry.items() if k not in ("tune", "label")} | grid(tune)[0], search=search
    )
    if getattr(probe, "selects", False):  # e.g. the SVM with config.yaml's C_grid: each candidate would choose again
        raise ValueError(
            f"model {name}: it selects its own settings by an inner CV (C_grid, class_weight_grid); set them to null "
            "to tune it"
        )
    if size < int(tuning["budget"]):
        raise ValueError(
            f"model {name}: its search space has {size} configurations, fewer than the tuning budget of "
            f"{tuning['budget']}: every tuned ranker gets the same budget (widen the space or lower the budget)"
        )
    return {
        "space": {k: list(v) for k, v in tune.items()},
        "budget": int(tuning["budget"]),
        "metric": str(tuning["metric"]),
        "share": float(tuning["share"]),
        "sample_seed": int(tuning.get("seed", 0)),
    }


class Tuned(Model):
    """A ranker tuned inside each outer fold: ``budget`` configurations of ``space``, each fitted on a stratified
    ``1 - share`` of the training compounds and scored on the rest by ``metric``; the best (the earlier on a tie; a
    value undefined on the validation compounds is never chosen) is refitted on all of them.

    Parameters
    ----------
    name : str
        The config entry's name (in error messages).
    model : dict
        The ranker's entry: ``class`` and its fixed parameters (:func:`crocbench.models.make_model`); a parameter
        of ``space`` it also sets (e.g. config.yaml's default) gives way to the space's values.
    space : dict
        ``{parameter: [values]}``; each parameter must be one the class takes.
    budget : int, default=8
        Configurations tried (:func:`candidates`); the study gives every tuned ranker the same.
    metric : str, default="croc_exp_80"
        The metric of record, a spec of :func:`crocbench.metrics.parse_metric`.
    share : float, default=0.2
        The validation share of each class, in (0, 0.5] (:func:`crocbench.models.inner_split`).
    sample_seed : int, default=0
        Seeds the draw of the configurations (the same in every fold).
    seed, progress, n_jobs, search
        As :func:`crocbench.models.make_model` passes them; ``seed`` (per fold) seeds the validation split and
        each candidate.

    Attributes
    ----------
    candidates_ : list of dict
        The configurations tried.
    validation_ : list of float
        Each one's ``metric`` on the validation compounds.
    best_ : dict
        The chosen configuration.
    fit_rows_, validation_rows_ : ndarray of int
        The rows (of ``data``) the candidates were fitted on and scored on.
    model_ : Model
        The chosen configuration, fitted on every training compound.
    """

    name = "tuned"

    def __init__(
        self,
        name: str,
        model: dict,
        space,
        budget: int = 8,
        metric: str = "croc_exp_80",
        share: float = 0.2,
        sample_seed: int = 0,
        seed=0,
        progress=None,
        n_jobs=None,
        search=(),
    ):
        self.run_name, self.model, self.budget, self.metric, self.share = name, dict(model), budget, metric, share
        self.sample_seed, self.seed, self.progress, self.n_jobs, self.search = (
            sample_seed,
            seed,
            progress,
            n_jobs,
            search,
        )
        if not 0 < share <= 0.5:
            raise ValueError(f"the validation share must lie in (0, 0.5]; got {share}")
        self.call_ = parse_metric(metric)
        self.candidates_ = candidates(space, budget, sample_seed)
        # a parameter of the space is the space's: a value the entry also sets (config.yaml's default) gives way
        self.model = {k: v for k, v in self.model.items() if k not in space}
        self.space = space
        # every candidate is built now: a parameter the class does not take fails before any job runs
        self._probes = [self._make(c) for c in self.candidates_]
        base = self._probes[0]
        self.base_class = type(base)  # the run's class in the workflow's records (crocbench.models.declared_runs)
        self.label = getattr(base, "label", None)
        for attr in ("uses_ecfp", "feature_set", "uses_neighbours", "fold_jobs", "baseline"):
            if hasattr(base, attr):
                setattr(self, attr, getattr(base, attr))
        self.uses_matrix = False  # each candidate fits on its own rows; an all-pairs matrix would serve one

    def _make(self, config: dict):
        """The ranker at ``config``, new and unfitted, as the registry builds an entry."""
        return checked_model(
            self.run_name,
            {**self.model, **config},
            seed=self.seed,
            progress=None,
            n_jobs=self.n_jobs,
            search=self.search,
        )

    def resources(self, n_compounds: int, n_folds: int) -> dict:
        """One fold job's threads and memory: the largest of the candidates' (they fit one after the other).

        Parameters
        ----------
        n_compounds : int
            The dataset's number of compounds.
        n_folds : int
            Its number of cross-validation folds.

        Returns
        -------
        dict
            ``{"threads": int, "mem_mb": int}``.
        """
        out = {"threads": 1, "mem_mb": 1}
        for probe in self._probes:
            own = getattr(probe, "resources", None)
            need = own(n_compounds, n_folds) if callable(own) else Model.resources(probe, n_compounds, n_folds)
            out = {k: max(out[k], int(need[k])) for k in out}
        return out

    def _say(self, line: str) -> None:
        if self.progress is not None:
            print(line, file=self.progress, flush=True)

    def _fit(self, data, train, y) -> None:
        fit_pos, val_pos = inner_split(y, self.share, (seed_state(self.seed), 0x7E5E))
        if y[val_pos].sum() == 0 or y[fit_pos].sum() == 0:
            raise ValueError(
                f"{self.run_name}: tuning needs actives on both sides of its validation split "
                f"({int(y.sum())} training actives at share {self.share})"
            )
        self.fit_rows_, self.validation_rows_ = train[fit_pos], train[val_pos]
        labels = y[val_pos]
        self.validation_ = []
        start = time.perf_counter()
        for i, config in enumerate(self.candidates_):
            candidate = self._make(config).fit(data, self.fit_rows_, y[fit_pos])
            value = float(self.call_.value(Ranking(labels, candidate.score(data, self.validation_rows_))))
            self.validation_.append(value)
            self._say(
                f"tuning {self.run_name} {i + 1}/{len(self.candidates_)}: {config} {self.call_.key} {value:.4f} "
                f"({time.perf_counter() - start:.1f} s)"
            )
        values = np.asarray(self.validation_, dtype=float)
        if np.isnan(values).all():
            raise ValueError(
                f"{self.run_name}: {self.call_.key} is undefined on the validation compounds of every candidate"
            )
        best = int(np.argmax(np.where(np.isnan(values), -np.inf, values)))  # the first of the best on a tie; NaN never
        self.best_ = self.candidates_[best]
        self._say(f"tuning {self.run_name}: chose {self.best_} ({self.call_.key} {self.validation_[best]:.4f})")
        self.model_ = self._make(self.best_).fit(data, train, y)

    def _score(self, data, rows) -> np.ndarray:
        return self.model_.score(data, rows)

    def info(self) -> dict:
        """The chosen model's own facts, with ``tuning``.

        Returns
        -------
        dict
            The chosen model's :meth:`info`, and under ``tuning``: the metric, the budget, the validation share and
            sizes, each candidate with its validation value, and the choice.
        """
        own = self.model_.info() if callable(getattr(self.model_, "info", None)) else {}
        return {
            **own,
            "tuning": {
                "metric": self.call_.key,
                "budget": int(self.budget),
                "share": float(self.share),
                "fit_compounds": int(self.fit_rows_.size),
                "validation_compounds": int(self.validation_rows_.size),
                "candidates": [{"params": c, "validation": v} for c, v in zip(self.candidates_, self.validation_)],
                "chosen": self.best_,
            },
        }

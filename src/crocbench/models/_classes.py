"""A model's class by its name, and a new model of it with its parameters checked against the class's signature.

A built-in ranker (:data:`BUILTIN`) is named by its ``name`` (``"svm"``); any other class by
``"module:Class"``, found on ``sys.path`` or in the plugins folder.
"""

from __future__ import annotations

import importlib
import inspect
import sys
from pathlib import Path

from ._base import FEATURES
from ._simple import KNN, MaxSim, Random
from .ecfp import GBM, MLP, GBMRank, LogReg, RandomForest
from .gnn import Chemprop
from .irv import IRV
from .svm import SVM

#: The paper's five, then the ECFP rankers: on ECFP, and Chemprop's D-MPNN on the structures (the gnn extra).
BUILTIN = (Random, MaxSim, KNN, SVM, IRV, RandomForest, GBM, GBMRank, LogReg, MLP, Chemprop)
MODELS = {cls.name: cls for cls in BUILTIN}
LABELS = {cls.name: cls.label for cls in BUILTIN}
_INJECTED = ("seed", "progress", "n_jobs")  # passed to the classes whose signature takes them


def load_class(spec: str, search=()) -> type:
    """The class named by ``spec``: a built-in model's name, or ``"module:Class"`` found on ``sys.path`` or in ``search``.

    The folders of ``search`` are put in front of ``sys.path`` (once).  The class
    must have ``fit`` and ``score`` methods.  Raises ``ValueError`` (one line) otherwise.

    Parameters
    ----------
    spec : str
        A built-in model's name (a key of ``crocbench.models.MODELS``) or ``"module:Class"``.
    search : sequence of path-like, default=()
        Folders searched (before ``sys.path``) for a ``"module:Class"``'s module.

    Returns
    -------
    type
        The model class.

    Examples
    --------
    >>> load_class("knn").__name__
    'KNN'
    """
    if spec in MODELS:
        return MODELS[spec]
    module_name, sep, qualname = str(spec).partition(":")
    if not sep or not module_name or not qualname:
        raise ValueError(f"class {spec!r}: expected 'module:Class' or a built-in model ({', '.join(MODELS)})")
    for folder in reversed([str(Path(f).resolve()) for f in search]):
        if folder not in sys.path:
            sys.path.insert(0, folder)
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name and (module_name == exc.name or module_name.startswith(exc.name + ".")):
            where = ", ".join(str(f) for f in search) or "no plugins folder"
            raise ValueError(f"class {spec!r}: module {module_name!r} not found on PYTHONPATH or in {where}") from None
        raise ValueError(f"class {spec!r}: module {module_name!r} needs {exc.name!r}, which is not installed") from None
    except Exception as exc:
        raise ValueError(f"class {spec!r}: importing {module_name!r} failed: {type(exc).__name__}: {exc}") from None
    obj = module
    for part in qualname.split("."):
        if not hasattr(obj, part):
            raise ValueError(f"class {spec!r}: module {module_name!r} has no {qualname!r}")
        obj = getattr(obj, part)
    if not inspect.isclass(obj):
        raise ValueError(f"class {spec!r}: {qualname!r} is not a class")
    missing = [m for m in ("fit", "score") if not callable(getattr(obj, m, None))]
    if missing:
        raise ValueError(
            f"class {spec!r}: no {' or '.join(missing)} method; a model needs fit(data, train, y) and score(data, rows)"
        )
    return obj


def check_spec(name: str, spec) -> None:
    """Refuse a class name that is neither a built-in model nor ``"module:Class"`` (``ValueError``, one line).

    Parameters
    ----------
    name : str
        The config entry's name (in the message).
    spec : str
        The entry's ``class``.

    Examples
    --------
    >>> check_spec("forest", "rf")
    >>> check_spec("nn", "nn")
    Traceback (most recent call last):
    ...
    ValueError: model nn: unknown model 'nn'; built-in models are random, maxsim, knn, svm, irv, rf, gbm, gbm_rank, logreg, mlp, chemprop; any other class is given as class: 'module:Class'
    """
    if spec not in MODELS and ":" not in str(spec):
        raise ValueError(
            f"model {name}: unknown model {spec!r}; built-in models are {', '.join(MODELS)}; "
            "any other class is given as class: 'module:Class'"
        )


def checked_model(name: str, params: dict, *, seed=None, progress=None, n_jobs=None, search=()):
    """A new model of ``params``'s class (``class``, default ``name``), its parameters checked against the class.

    ``seed``, ``progress`` and ``n_jobs`` are passed to the classes whose
    signature takes them. The entry's ``label`` and ``tune`` are
    :func:`crocbench.models.make_model`'s, not this function's. Its ``features``
    (one of ``crocbench.models.FEATURES``) is not passed to the class: it is set
    on the new model as ``feature_set``.

    Parameters
    ----------
    name : str
        The config entry's name (in error messages; the class when ``params`` names none).
    params : dict
        The model's parameters, with the optional ``class``.
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
    object
        A new, unfitted model.

    Examples
    --------
    >>> checked_model("near", {"class": "knn", "k": 5}).k
    5
    >>> checked_model("rf_paper", {"class": "rf", "features": "paper"}).feature_set
    'paper'
    >>> checked_model("near", {"class": "knn", "features": "ecfp6"})
    Traceback (most recent call last):
    ...
    ValueError: model near: features is one of paper, ecfp4; got 'ecfp6'
    """
    params = dict(params)
    spec = params.pop("class", name)
    features = params.pop("features", None)
    check_spec(name, spec)
    if features is not None and features not in FEATURES:
        raise ValueError(f"model {name}: features is one of {', '.join(FEATURES)}; got {features!r}")
    try:
        cls = load_class(spec, search)
    except ValueError as exc:
        raise ValueError(f"model {name}: {exc}") from None
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        signature = None
    if signature is not None:
        accepted = signature.parameters
        open_ended = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in accepted.values())
        unknown = [k for k in params if k not in accepted]
        if unknown and not open_ended:
            takes = ", ".join(
                k
                for k, p in accepted.items()
                if k not in _INJECTED
                and p.kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
            )
            raise ValueError(f"model {name}: unknown parameter {unknown[0]!r}; {cls.__name__} takes {takes or 'none'}")
        for key, value in zip(_INJECTED, (seed, progress, n_jobs)):
            if value is not None and (key in accepted or open_ended):
                params.setdefault(key, value)
    try:
        model = cls(**params)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"model {name}: {exc}") from None
    if features is not None:
        model.feature_set = features
    return model

"""The SVM's fold record: what one outer fold chose (``scores/svm/fold_k.json``), written and read in one place."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Candidate:
    """One candidate set-up of the SVM's inner cross-validation.

    Parameters
    ----------
    C : float
        The regularization constant.
    class_weight : str
        "balanced", or "none" (no weighting).
    value : float
        Its inner-CV value of the selection metric.
    fit_share : float or None
        With successive halving, the share of the inner training sets it was last fitted on; else None.
    """

    C: float
    class_weight: str
    value: float
    fit_share: float | None = None

    @property
    def setup(self) -> str:
        """The set-up's name, ``<C>_<class weight>`` (``1_balanced``).

        Returns
        -------
        str
        """
        return f"{self.C:g}_{self.class_weight}"


@dataclass(frozen=True)
class SvmFold:
    """What the SVM chose and learned in one outer fold.

    Parameters
    ----------
    fold : int
        The outer fold.
    C : float
        The chosen regularization constant.
    class_weight : str
        The chosen class weighting: "balanced", or "none".
    support_vectors : int
        The support vectors of the fit.
    select_metric : str
        The metric the inner CV chose on ("" without an inner CV).
    inner : tuple of Candidate
        Every candidate set-up's inner-CV value (empty without an inner CV).

    Examples
    --------
    >>> info = {"fold": 0, "C": 1.0, "class_weight": None, "support_vectors": 9, "select_metric": "roc",
    ...         "inner_cv": [{"C": 0.1, "class_weight": "balanced", "value": 0.8, "fit_share": 0.5}]}
    >>> record = SvmFold.from_info(info)
    >>> record.class_weight, record.inner[0].setup, record.row()["fit_share_0.1_balanced"]
    ('none', '0.1_balanced', 0.5)
    """

    fold: int
    C: float
    class_weight: str
    support_vectors: int
    select_metric: str = ""
    inner: tuple = ()

    @classmethod
    def from_info(cls, info: dict) -> SvmFold:
        """The record of a fold's info (:meth:`crocbench.models.SVM.info` with the workflow's ``fold``).

        Parameters
        ----------
        info : dict
            The JSON fold record.

        Returns
        -------
        SvmFold
        """
        inner = tuple(
            Candidate(float(c["C"]), c["class_weight"] or "none", float(c["value"]), c.get("fit_share"))
            for c in info.get("inner_cv", [])
        )
        return cls(
            int(info["fold"]),
            float(info["C"]),
            info.get("class_weight") or "none",
            int(info.get("support_vectors", 0)),
            info.get("select_metric", ""),
            inner,
        )

    def row(self) -> dict:
        """The fold as a row of the reference's ``svm_folds.tsv``: the choice, then ``inner_<set-up>`` (and,
        with successive halving, ``fit_share_<set-up>``) per candidate.

        Returns
        -------
        dict
        """
        row = {
            "fold": self.fold,
            "C": self.C,
            "class_weight": self.class_weight,
            "support_vectors": self.support_vectors,
            "select_metric": self.select_metric,
        }
        for cand in self.inner:
            row[f"inner_{cand.setup}"] = cand.value
            if cand.fit_share is not None:
                row[f"fit_share_{cand.setup}"] = float(cand.fit_share)
        return row


def fold_info(model) -> dict:
    """What a fitted :class:`~crocbench.models.SVM` chose and learned: its fold record, which
    :meth:`SvmFold.from_info` reads.

    Parameters
    ----------
    model : SVM
        A fitted SVM.

    Returns
    -------
    dict
        JSON-serializable: ``C``, ``class_weight``, ``support_vectors``, ``intercept``, with a grid the
        ``select_metric`` and every set-up's inner-CV value, and the fit's strategy for a large fold.
    """
    support = model.support_.size if model.support_count_ is None else model.support_count_
    out = {
        "C": model.C_,
        "class_weight": model.class_weight_,
        "support_vectors": int(support),
        "intercept": model.intercept_,
    }
    if model.inner_values_ is not None:
        out["select_metric"] = model.select_metric
        if model.halving is None:
            out["inner_cv"] = [{"C": C, "class_weight": cw, "value": v} for (C, cw), v in model.inner_values_.items()]
        else:  # each candidate's value in the last round it reached, and on which share of the inner sets
            last = {setup: (share, v) for share, values in model.inner_rounds_ for setup, v in values.items()}
            out["halving"] = model.halving
            if model.halving_rounds is not None:
                out["halving_rounds"] = model.halving_rounds
            out["inner_cv"] = [
                {"C": C, "class_weight": cw, "value": v, "fit_share": 1 / share} for (C, cw), (share, v) in last.items()
            ]
    if model.working_rounds_ is not None:
        out["working_set"], out["working_set_fits"] = model.working_set, model.working_rounds_
    if model.platt_ is not None:
        out["platt_A"], out["platt_B"] = model.platt_
    if model.plan_["strategy"] != "exact":  # how a fold above the memory line was fitted
        out["large"] = model.plan_["strategy"]
        out["fit_compounds"] = model.plan_["fit_compounds"]
        out["training_compounds"] = int(model.train_.size)
        out["kernel_gb_full"] = round(model.plan_["kernel_gb_full"], 3)
    if model.plan_["strategy"] == "nystroem":
        out["landmarks"], out["nystroem_rank"] = model.plan_["landmarks"], model.rank_
    return out

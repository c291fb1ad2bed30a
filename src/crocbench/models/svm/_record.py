"""The SVM's fold record: what one outer fold chose (``scores/svm/fold_k.json``), read in one place."""

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

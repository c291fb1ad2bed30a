"""The paper's claims checked on a run: one :class:`Claim` type, and its Markdown list."""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ..stats import turned_pair
from ._matrix import metric_matrix


@dataclass(frozen=True)
class Claim:
    """One of the paper's claims, checked on a run.

    Parameters
    ----------
    text : str
        The claim, in words.
    holds : bool or None
        Whether the run reproduces (supports) it; None when the run lacks what the claim needs.
    evidence : str
        The numbers it was decided on (``"not run"`` and the like when ``holds`` is None).
    note : str
        The documented known deviation (``published.yaml``) of a claim that does not hold, else "".
    id : str
        The claim's id in ``published.yaml`` ("" for a claim that has none there, e.g. the power study's).

    Examples
    --------
    >>> Claim("CROC beats ROC", False, "0.31 vs 0.85", "documented").holds
    False
    """

    text: str
    holds: bool | None
    evidence: str
    note: str = ""
    id: str = ""


def claims_markdown(claims, marks=("reproduced", "NOT reproduced", "not checked")) -> str:
    """Claims (:class:`Claim`) as a Markdown list: ``- <mark>: <text> (<evidence>)``.

    ``marks`` are the words for ``holds`` = True, False and None; a claim that does not hold but has a
    documented ``note`` is a "known deviation", followed by its note.

    Examples
    --------
    >>> print(claims_markdown([Claim("a", True, "1 vs 2"), Claim("b", False, "3", "why"), Claim("c", None, "not run")]))
    - reproduced: a (1 vs 2)
    - known deviation: b (3). why
    - not checked: c (not run)
    """
    mark = dict(zip((True, False, None), marks))
    lines = []
    for c in claims:
        status = "known deviation" if c.holds is False and c.note else mark[c.holds]
        lines.append(f"- {status}: {c.text} ({c.evidence})" + (f". {c.note}" if status == "known deviation" else ""))
    return "\n".join(lines)


# --- checking claims: one definition per claim, evaluated on one screen or across screens ----------------------


class Check:
    """A claim about rankers, defined once and checkable on one screen and across screens.

    A paper's claims subclass it (see :mod:`crocbench.paper`): :meth:`on_screen` decides it on one screen's
    tables 1 and 2 (:class:`OnScreen`), :meth:`across` on many screens at once (:class:`Across`, tests across
    the screens). Both return ``(holds, evidence)``; :func:`evaluate` runs either.

    Attributes
    ----------
    id : str
        The claim's id in its paper's list of claims (which gives its words).
    needs : tuple of str
        The model keys a screen must have for the claim to be checked there.
    tables : bool
        Whether checking it on a screen needs that screen's table 2 (the tests).
    """

    id: str = ""
    needs: tuple = ()
    tables: bool = False

    def on_screen(self, screen: OnScreen) -> tuple:
        """Decide the claim on one screen.

        Parameters
        ----------
        screen : OnScreen
            The screen's tables.

        Returns
        -------
        holds : bool or None
        evidence : str
        """
        raise NotImplementedError

    def across(self, screens: Across) -> tuple:
        """Decide the claim across screens.

        Parameters
        ----------
        screens : Across
            The screens' values and the tests across them.

        Returns
        -------
        holds : bool or None
        evidence : str
        """
        raise NotImplementedError


class OnScreen:
    """One screen's tables, as a claim reads them.

    Parameters
    ----------
    areas : DataFrame
        Table 1: a ``model`` column (labels) and one column per metric key.
    significance : DataFrame or None
        Table 2 (columns ``a``, ``b``, ``metric`` and the tests' p-values), or None if not run.
    names : dict
        Model keys -> the labels used in the tables.
    """

    def __init__(self, areas: pd.DataFrame, significance: pd.DataFrame | None, names: dict):
        self.table, self.significance, self.names = areas.set_index("model"), significance, names
        self.have = {k for k, label in names.items() if label in self.table.index}

    def checkable(self, check: Check) -> bool:
        """Whether the screen has what ``check`` needs.

        Parameters
        ----------
        check : Check

        Returns
        -------
        bool
        """
        return set(check.needs) <= self.have and (self.significance is not None or not check.tables)

    def decide(self, check: Check) -> tuple:
        """``check.on_screen(self)``.

        Parameters
        ----------
        check : Check

        Returns
        -------
        holds : bool or None
        evidence : str
        """
        return check.on_screen(self)

    def value(self, model: str, metric: str) -> float:
        """A model's value of a metric (table 1).

        Parameters
        ----------
        model : str
            The model's key.
        metric : str
            The metric's key.

        Returns
        -------
        float
        """
        return float(self.table.loc[self.names[model], metric])

    def p_value(self, metric: str, a: str, b: str, test: str = "paired_permutation") -> float:
        """The p-value of a test of models ``a`` and ``b`` on a metric (table 2; either order).

        Parameters
        ----------
        metric : str
            The metric's key.
        a, b : str
            The models' keys.
        test : str, default="paired_permutation"
            The test's column.

        Returns
        -------
        float
        """
        t, la, lb = self.significance, self.names[a], self.names[b]
        pair = t[((t["a"] == la) & (t["b"] == lb)) | ((t["a"] == lb) & (t["b"] == la))]
        return float(pair.set_index("metric")[test][metric])


class Across:
    """Many screens' values of each model, and the tests across the screens, as a claim reads them.

    Parameters
    ----------
    table : DataFrame
        One row per (dataset, model): ``dataset``, ``model`` (labels) and the metric columns, for the models the
        claims compare only (their pairs are Holm-adjusted together).
    names : dict
        Model keys -> labels.
    metrics : sequence of str
        The metrics whose pairwise Wilcoxon tests are computed.
    significance : dict or None, default=None
        ``{dataset: table 2}``, for claims about the tests themselves.
    alpha : float, default=0.05
        The level of the tests.
    """

    def __init__(self, table: pd.DataFrame, names: dict, metrics, significance=None, alpha: float = 0.05):
        from ..stats import pairwise_wilcoxon

        self.table, self.names, self.significance, self.alpha = table, names, significance, alpha
        self.n_screens = table["dataset"].nunique()
        self.pairs = {}
        for metric in metrics:
            values, _, models = metric_matrix(table, metric)
            for row in pairwise_wilcoxon(values, models):
                self.pairs[(metric, row["a"], row["b"])] = row

    def checkable(self, check: Check) -> bool:
        """Whether every model the claim needs is in the table.

        Parameters
        ----------
        check : Check

        Returns
        -------
        bool
        """
        models = set(self.table["model"])
        return all(m in self.names and self.names[m] in models for m in check.needs)

    def decide(self, check: Check) -> tuple:
        """``check.across(self)``.

        Parameters
        ----------
        check : Check

        Returns
        -------
        holds : bool or None
        evidence : str
        """
        return check.across(self)

    def pair(self, metric: str, a: str, b: str) -> dict:
        """The Wilcoxon test of models ``a`` and ``b``, as ``a`` against ``b``.

        Parameters
        ----------
        metric : str
        a, b : str
            The models' keys.

        Returns
        -------
        dict
            :func:`crocbench.stats.pairwise_wilcoxon`'s row with ``a`` first (turned round where the table holds
            ``b`` first): ``a``'s mean lead with its interval, its wins, its signed-rank sum and the Holm p.
        """
        la, lb = self.names[a], self.names[b]
        row = self.pairs.get((metric, la, lb)) or self.pairs[(metric, lb, la)]
        return row if row["a"] == la else turned_pair(row)

    def stated(self, metric: str, a: str, b: str) -> str:
        """The test of ``a`` against ``b`` as evidence: the mean difference with its 95% interval over the screens,
        the screens where ``a`` is above ``b``, and the Holm p."""
        row = self.pair(metric, a, b)
        return (
            f"{self.names[a]} - {self.names[b]} {metric} {row['mean_difference']:+.4f} [{row['low']:+.4f}, "
            f"{row['high']:+.4f}], {row['wins']}/{self.n_screens} screens, Holm p {row['p_holm']:.2g}"
        )

    def beats(self, metric: str, a: str, b: str) -> tuple:
        """Whether ``a`` is significantly above ``b`` across the screens (the signed-rank test's own direction,
        W+ > W-, not the mean's, which one outlying screen can flip), and the evidence (:meth:`stated`).

        Parameters
        ----------
        metric : str
        a, b : str
            The models' keys.

        Returns
        -------
        holds : bool
        evidence : str
        """
        row = self.pair(metric, a, b)
        return row["signed_rank_sum"] > 0 and row["p_holm"] < self.alpha, self.stated(metric, a, b)

    def friedman(self, metric: str) -> tuple:
        """The Friedman test of every model's ranks across the screens.

        Parameters
        ----------
        metric : str

        Returns
        -------
        p_value : float
        mean_ranks : dict
            Model key -> mean rank (1 = best).
        """
        from ..stats import friedman_test

        values, _, models = metric_matrix(self.table, metric)
        result = friedman_test(values)
        by_label = dict(zip(models, result.mean_ranks))
        return result.p_value, {k: by_label[label] for k, label in self.names.items() if label in by_label}


def evaluate(checks, declared, where) -> list:
    """Check a paper's claims on one screen (:class:`OnScreen`) or across screens (:class:`Across`).

    Parameters
    ----------
    checks : sequence of Check
        The claims' definitions.
    declared : list of dict
        The paper's list of claims: ``id``, ``text`` and optional ``known_deviation``, in its order.
    where : OnScreen or Across
        What they are checked on.

    Returns
    -------
    list of Claim
        One per declared claim, in its order; ``holds`` None ("not run") where ``where`` lacks what it needs or no
        check is defined for it.
    """
    by_id = {c.id: c for c in checks}
    out = []
    for c in declared:
        check = by_id.get(c["id"])
        if check is None or not where.checkable(check):
            ok, evidence = None, "not run"
        else:
            ok, evidence = where.decide(check)
            ok = None if ok is None else bool(ok)
        out.append(Claim(c["text"], ok, evidence, c.get("known_deviation", "") if ok is False else "", c["id"]))
    return out


def holds_per_claim(screens: pd.DataFrame) -> list:
    """Per claim of a claims-per-screen table, in its order: id, text, the screens where it was checked and those
    where it holds.

    Parameters
    ----------
    screens : DataFrame
        Columns ``dataset``, ``id``, ``text`` and ``holds`` (True, False, or None where not checked).

    Returns
    -------
    list of dict
        ``id``, ``text``, ``screens`` (checked) and ``holds_in``.
    """
    out = []
    for claim_id, part in screens.groupby("id", sort=False):
        checked = part[part["holds"].notna()]
        out.append(
            {
                "id": claim_id,
                "text": part["text"].iloc[0],
                "screens": len(checked),
                "holds_in": int(checked["holds"].astype(bool).sum()),
            }
        )
    return out

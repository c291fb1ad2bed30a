"""The paper's four claims about its rankers, each defined once: on one screen (as the paper checked them on its
one screen) and across many screens (as a test over the screens).

Each claim is a :class:`crocbench.report.Check` whose ``id`` matches one of ``published.yaml``'s ``claims``
(which give its words and any documented deviation). :func:`check_claims` evaluates them on one screen's tables 1
and 2, :func:`claims_across` across screens; both go through :func:`crocbench.report.evaluate`.
"""

from __future__ import annotations

import pandas as pd

from ..metrics import HEADLINE
from ..report import Across, Check, OnScreen, evaluate, holds_per_claim
from ._published import PAPER_MODELS, load_published

CROCS = HEADLINE[1:]  # AUC[CROC(exp)] at alpha = 7, 14 and 80


def among_paper_models(significance: pd.DataFrame, names: dict) -> pd.DataFrame:
    """The rows of a table 2 that compare two of the paper's rankers (:data:`PAPER_MODELS`, labelled by
    ``names``): the pairs its claims are about.

    Parameters
    ----------
    significance : DataFrame
        A table 2 (:func:`crocbench.report.significance_table`): columns ``a``, ``b``, ``metric`` and the tests.
    names : dict
        Model keys -> the labels used in the tables.

    Returns
    -------
    DataFrame
        The rows whose ``a`` and ``b`` are both among the paper's five.
    """
    labels = {names[m] for m in PAPER_MODELS if m in names}
    return significance[significance["a"].isin(labels) & significance["b"].isin(labels)]


class SvmRocIrvCroc(Check):
    """The SVM has the best AUC[ROC], the IRV the best AUC[CROC(exp)] at every alpha."""

    id = "svm_best_roc_irv_best_croc"
    needs = ("irv", "svm")

    def on_screen(self, s: OnScreen):
        v = s.value
        ok = v("svm", "roc") > v("irv", "roc") and all(v("irv", m) > v("svm", m) for m in CROCS)
        return ok, (
            f"AUC[ROC] SVM {v('svm', 'roc'):.4f} vs IRV {v('irv', 'roc'):.4f}; AUC[CROC(exp)] a=7/14/80 IRV "
            + "/".join(f"{v('irv', m):.4f}" for m in CROCS)
            + " vs SVM "
            + "/".join(f"{v('svm', m):.4f}" for m in CROCS)
        )

    def across(self, s: Across):
        parts = [s.beats("roc", "svm", "irv")] + [s.beats(m, "irv", "svm") for m in CROCS]
        return all(ok for ok, _ in parts), "; ".join(e for _, e in parts)


class CrocOrder(Check):
    """At a = 80: IRV above kNN and SVM, both above MAX-SIM, MAX-SIM above RANDOM."""

    id = "croc_order"
    needs = PAPER_MODELS
    metric = "croc_exp_80"
    steps = (("irv", "svm"), ("irv", "knn"), ("svm", "maxsim"), ("knn", "maxsim"), ("maxsim", "random"))

    def on_screen(self, s: OnScreen):
        m, v = self.metric, s.value
        ok = all(v(a, m) > v(b, m) for a, b in self.steps)
        # best first, ties in the paper's order (``have`` is a set: its order changes from process to process)
        have = [k for k in PAPER_MODELS if k in s.have]
        return ok, ", ".join(f"{k} {v(k, m):.4f}" for k in sorted(have, key=lambda k: -v(k, m)))

    def across(self, s: Across):
        p, ranks = s.friedman(self.metric)
        steps = [s.beats(self.metric, a, b) for a, b in self.steps]
        return p < s.alpha and all(ok for ok, _ in steps), (
            f"Friedman p {p:.2g}; mean ranks "
            + ", ".join(f"{s.names[m]} {ranks[m]:.2f}" for m in sorted(PAPER_MODELS, key=ranks.get))
            + "; "
            + "; ".join(e for _, e in steps)
        )


class CrocSignificantRocNot(Check):
    """IRV vs SVM: the difference is significant at a = 80 and not on AUC[ROC]."""

    id = "croc_significant_roc_not"
    needs = ("irv", "svm")
    tables = True  # needs table 2 on a screen

    def on_screen(self, s: OnScreen):
        p80, proc = s.p_value("croc_exp_80", "irv", "svm"), s.p_value("roc", "irv", "svm")
        return p80 < 0.05 <= proc, f"paired permutation p: AUC[CROC(exp)] a=80 {p80:.3g}, AUC[ROC] {proc:.3g}"

    def across(self, s: Across):
        ok80, evidence = s.beats("croc_exp_80", "irv", "svm")
        roc = s.pair("roc", "irv", "svm")
        return ok80 and not roc["p_holm"] < s.alpha, f"{evidence}; {s.stated('roc', 'irv', 'svm')}"


class PairedMorePowerful(Check):
    """The paired permutation test is at least as powerful as the unpaired one in 80% of the pair-metric cases
    among the paper's five rankers (pooled over the screens, across them)."""

    id = "paired_more_powerful"
    needs = ()
    tables = True
    share = 0.8

    def _share(self, cases):
        share = float((cases["paired_permutation"] <= cases["unpaired_permutation"]).mean())
        return share >= self.share, share

    def on_screen(self, s: OnScreen):
        cases = among_paper_models(s.significance, s.names)
        if not len(cases):
            return None, "not run"
        ok, share = self._share(cases)
        return ok, f"{100 * share:.0f}% of {len(cases)} pair-metric cases"

    def across(self, s: Across):
        if not s.significance:
            return None, "not checked"
        cases = among_paper_models(pd.concat(s.significance.values(), ignore_index=True), s.names)
        ok, share = self._share(cases)
        return ok, f"{100 * share:.0f}% of {len(cases)} pair-metric cases pooled"


#: The paper's claims about its rankers, in ``published.yaml``'s order of ``claims``.
CLAIMS = (SvmRocIrvCroc(), CrocOrder(), CrocSignificantRocNot(), PairedMorePowerful())


def check_claims(areas: pd.DataFrame, significance: pd.DataFrame | None, names: dict, published: dict | None = None):
    """The paper's claims (``published.yaml``, ``claims``) checked on one screen's tables 1 and 2.

    Parameters
    ----------
    areas : DataFrame
        Table 1 (:func:`crocbench.report.areas_table`): a ``model`` column and the metric keys.
    significance : DataFrame or None
        Table 2 (:func:`crocbench.report.significance_table`), if run; the paired tests' claim counts its pairs
        of the paper's rankers only (:func:`among_paper_models`).
    names : dict
        Model keys (irv, svm, knn, maxsim, random) -> the labels used in the tables.
    published : dict or None, default=None
        :func:`load_published`'s content (read when None).

    Returns
    -------
    list of crocbench.report.Claim
        One per published claim, in its order, with its ``id``; ``holds`` is None when the run lacks what the
        claim needs, and ``note`` the documented known deviation of a claim that does not hold.
    """
    published = published or load_published()
    return evaluate(CLAIMS, published["claims"], OnScreen(areas, significance, names))


def screen_claims(areas: dict, significance: dict, names: dict) -> pd.DataFrame:
    """Each of the paper's claims checked on each screen, as on the one screen of the paper.

    Parameters
    ----------
    areas : dict
        ``{dataset: table 1}``.
    significance : dict
        ``{dataset: table 2}``.
    names : dict
        Model keys (irv, svm, knn, maxsim, random) -> the labels used in the tables.

    Returns
    -------
    DataFrame
        dataset, id, text, holds (True, False or None when the screen lacks what it needs), evidence.
    """
    rows = []
    for dataset, table in areas.items():
        for c in check_claims(table, significance.get(dataset), names):
            rows.append({"dataset": dataset, "id": c.id, "text": c.text, "holds": c.holds, "evidence": c.evidence})
    return pd.DataFrame(rows)


def claims_across(
    screens: pd.DataFrame, table: pd.DataFrame, names: dict, significance: dict | None = None, alpha: float = 0.05
) -> pd.DataFrame:
    """Per claim of the paper: in how many screens it holds, and whether a test across the screens supports it.

    Across screens, a claim that one ranker beats another is supported when the two-sided paired Wilcoxon
    signed-rank test across the screens (among the paper's five rankers only, Holm-adjusted over their 10 pairs
    per metric, whatever models the run's ranks compare) finds the difference at ``alpha`` in the claimed
    direction (W+ > W-); an order of rankers, when the Friedman test rejects equal ranks and each step of it is
    such a difference; "significant at a = 80 but not at ROC" when IRV vs SVM is a supported difference at
    a = 80 and not at AUC[ROC]; "paired tests are more powerful" on all screens' pair-metric cases among the
    paper's five rankers pooled (the paper's 80% share), from ``significance``.

    Parameters
    ----------
    screens : DataFrame
        :func:`screen_claims`'s output.
    table : DataFrame
        :func:`crocbench.report.datasets_table`'s output, with the paper's five rankers among its models.
    names : dict
        Model keys -> labels, as for :func:`screen_claims`.
    significance : dict or None, default=None
        ``{dataset: table 2}``, for the pooled share of the paired tests' claim.
    alpha : float, default=0.05
        The level of the tests across the screens.

    Returns
    -------
    DataFrame
        id, text, screens (checked), holds_in (screens where it holds), supported_across (True, False, or None
        when not checked) and evidence.
    """
    labels = [names[m] for m in PAPER_MODELS]
    judge = Across(table[table["model"].isin(labels)], names, HEADLINE, significance, alpha)
    verdicts = {c.id: c for c in evaluate(CLAIMS, load_published()["claims"], judge)}
    out = []
    for row in holds_per_claim(screens):
        verdict = verdicts.get(row["id"])
        ok, evidence = (verdict.holds, verdict.evidence) if verdict else (None, "not checked")
        out.append({**row, "supported_across": ok, "evidence": evidence})
    return pd.DataFrame(out)

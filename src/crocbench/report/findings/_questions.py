"""A study's declared questions (:class:`Questions`), the verdicts of its tests, and the words all answers share."""

from __future__ import annotations

from dataclasses import dataclass, field

from .._summary import summary_labels

#: When a study's questions were declared: before the run (its family is confirmatory), or after it (exploratory).
DECLARED = ("before the run", "after the run")
_KEYS = {"declared", "metric_of_record", "pairs", "metrics", "thresholds", "alpha", "level", "resamples", "seed"}


@dataclass(frozen=True)
class Questions:
    """A study's declared questions (the config's ``questions:``).

    Parameters
    ----------
    metric_of_record : str
        The metric the study's headline is stated on (a key of ``datasets.tsv``: ``croc_exp_80``).
    pairs : tuple of (str, str)
        The confirmatory pairs, each ``(a, b)`` by the rankers' labels; the effect is ``a - b``.
    metrics : tuple of str
        The family's metrics; every pair is tested on each, and all are Holm-adjusted together.
    thresholds : dict
        Metric -> the smallest mean difference that matters in practice (in the metric's own units).
    declared : str
        ``"before the run"`` or ``"after the run"`` (then every answer is exploratory).
    alpha : float, default=0.05
        The family-wise significance level.
    level : float, default=0.95
        The effects' interval coverage.
    resamples : int, default=10000
        Bootstrap resamples of the screens per effect.
    seed : int, default=0
        The bootstrap's seed.
    """

    metric_of_record: str
    pairs: tuple
    metrics: tuple
    thresholds: dict = field(hash=False)
    declared: str
    alpha: float = 0.05
    level: float = 0.95
    resamples: int = 10_000
    seed: int = 0

    @classmethod
    def from_dict(cls, spec: dict) -> Questions:
        """The questions of a config's ``questions:`` mapping, checked; a bad entry raises one line naming it.

        Examples
        --------
        >>> q = Questions.from_dict({"declared": "before the run", "metric_of_record": "roc", "pairs": [["A", "B"]],
        ...                          "metrics": ["roc"], "thresholds": {"roc": 0.01}})
        >>> q.size, q.pairs
        (1, (('A', 'B'),))
        >>> Questions.from_dict({**q.as_dict(), "thresholds": {}})
        Traceback (most recent call last):
        ...
        ValueError: questions: no threshold for metric 'roc' (thresholds: give one per metric of the family)
        """
        if not isinstance(spec, dict):
            raise ValueError(f"questions: must be a mapping; got {type(spec).__name__}")
        unknown = sorted(set(spec) - _KEYS)
        if unknown:
            raise ValueError(f"questions: unknown key {unknown[0]!r}; keys are {', '.join(sorted(_KEYS))}")
        for key in ("declared", "metric_of_record", "pairs", "metrics", "thresholds"):
            if key not in spec:
                raise ValueError(f"questions: {key} is required")
        if spec["declared"] not in DECLARED:
            raise ValueError(
                f"questions: declared must be {' or '.join(map(repr, DECLARED))}; got {spec['declared']!r}"
            )
        pairs = tuple(tuple(p) for p in spec["pairs"])
        if not pairs or any(len(p) != 2 or p[0] == p[1] for p in pairs):
            raise ValueError("questions: pairs must be a non-empty list of two different rankers each")
        if len(set(map(frozenset, pairs))) != len(pairs):
            raise ValueError("questions: a pair is declared twice")
        metrics = tuple(spec["metrics"])
        if not metrics or len(set(metrics)) != len(metrics):
            raise ValueError("questions: metrics must be a non-empty list without repeats")
        if spec["metric_of_record"] not in metrics:
            raise ValueError(f"questions: the metric of record {spec['metric_of_record']!r} must be one of metrics")
        thresholds = dict(spec["thresholds"])
        for m in metrics:
            if m not in thresholds:
                raise ValueError(
                    f"questions: no threshold for metric {m!r} (thresholds: give one per metric of the family)"
                )
            if not isinstance(thresholds[m], int | float) or not thresholds[m] >= 0:
                raise ValueError(f"questions: the threshold of {m!r} must be a number >= 0; got {thresholds[m]!r}")
        extra = sorted(set(thresholds) - set(metrics))
        if extra:
            raise ValueError(f"questions: a threshold for {extra[0]!r}, which is not a metric of the family")
        q = cls(
            metric_of_record=spec["metric_of_record"],
            pairs=pairs,
            metrics=metrics,
            thresholds=thresholds,
            declared=spec["declared"],
            alpha=float(spec.get("alpha", 0.05)),
            level=float(spec.get("level", 0.95)),
            resamples=int(spec.get("resamples", 10_000)),
            seed=int(spec.get("seed", 0)),
        )
        if not (0 < q.alpha < 1 and 0 < q.level < 1):
            raise ValueError(f"questions: alpha and level must be in (0, 1); got {q.alpha} and {q.level}")
        return q

    def as_dict(self) -> dict:
        """The mapping :meth:`from_dict` reads (as a manifest keeps it)."""
        return {
            "declared": self.declared,
            "metric_of_record": self.metric_of_record,
            "pairs": [list(p) for p in self.pairs],
            "metrics": list(self.metrics),
            "thresholds": dict(self.thresholds),
            "alpha": self.alpha,
            "level": self.level,
            "resamples": self.resamples,
            "seed": self.seed,
        }

    @property
    def size(self) -> int:
        """The number of tests in the family (pairs x metrics)."""
        return len(self.pairs) * len(self.metrics)

    @property
    def confirmatory(self) -> bool:
        """Whether the family was declared before the run."""
        return self.declared == DECLARED[0]


#: A test's verdicts: a difference beyond the practical threshold, one significant but not shown beyond it, none.
VERDICTS = ("beyond the threshold", "within the threshold", "not significant")


def _label(metric: str) -> str:
    return summary_labels().get(metric, metric)


def _number(x: float) -> str:
    return f"{x:.3g}"


def _signed(x: float) -> str:
    return ("+" if x >= 0 else "-") + _number(abs(x))


def _status(questions: Questions) -> str:
    return "confirmatory" if questions.confirmatory else "exploratory: the family was declared after the run"


def _listed(words) -> str:
    words = list(words)
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def verdict_counts(table, questions: Questions) -> str:
    """The count of a family's verdicts in a sentence: how many of its declared tests show a difference beyond the
    practical threshold, and how many a significant one within it.

    Examples
    --------
    >>> import pandas as pd
    >>> table = pd.DataFrame({"verdict": [VERDICTS[0], VERDICTS[2], VERDICTS[1]]})
    >>> pairs = (("a", "b"), ("a", "c"), ("b", "c"))
    >>> verdict_counts(table, Questions("roc", pairs, ("roc",), {"roc": 0.01}, DECLARED[0]))
    '1 of the 3 declared tests shows a difference beyond the practical threshold, 1 a significant one within it'
    """
    counts = table["verdict"].value_counts()
    beyond, below = int(counts.get(VERDICTS[0], 0)), int(counts.get(VERDICTS[1], 0))
    verb = "shows" if beyond == 1 else "show"
    return (
        f"{beyond} of the {questions.size} declared tests {verb} a difference beyond the practical threshold, "
        f"{below} a significant one within it"
    )


def describe(split: str | None, labels: str | None) -> str:
    """A panel's split and labels in words, capitalized ("Primary hits, random split").

    Examples
    --------
    >>> describe("scaffold", "confirmed"), describe("random", "paper")
    ('Confirmed actives, scaffold split', 'Random split')
    """
    words = {"primary": "primary hits", "confirmed": "confirmed actives", "paper": "the paper's labels"}
    parts = [words.get(labels, labels), f"{split} split" if split else None]
    parts = parts if labels != "paper" else parts[1:]  # the paper's labels go without saying
    text = ", ".join(p for p in parts if p)
    return text[:1].upper() + text[1:]


def verdict_cell(row) -> str:
    """A test's verdict in a table cell: who is ahead and how far, against the threshold (``>=``: beyond it)."""
    if row.verdict == VERDICTS[2]:
        return VERDICTS[2]
    side = ">=" if row.verdict == VERDICTS[0] else "<"
    return f"{row.ahead} ahead, {side} {_number(row.threshold)}"


def verdict_lines(table, difference, within: str, undecided=None) -> list[str]:
    """The answers' verdict bullets of a family table: the differences beyond the threshold and those within it,
    each as ``difference(row)`` words it, then the tests that found none. ``within`` words the second group.
    ``undecided``, ``(words, wording)``: the tests that found none as a bullet each, ``wording(row)``, under
    ``words``; without it, named in one line."""
    lines = []
    groups = [
        (VERDICTS[0], "Differences beyond the practical threshold", difference),
        (VERDICTS[1], within, difference),
    ]
    if undecided is not None:
        groups.append((VERDICTS[2], *undecided))
    for verdict, words, wording in groups:
        hits = [r for r in table.itertuples() if r.verdict == verdict]
        if hits:
            lines.append(f"- {words}:" + "".join(f"\n  - {wording(r)}" for r in hits))
    none = table[table["verdict"] == VERDICTS[2]]
    if len(none) and undecided is None:
        cells = [f"{a} vs {b} on {_label(m)}" for a, b, m in zip(none["a"], none["b"], none["metric"])]
        lines.append(f"- No significant difference: {_listed(cells)}.")
    return lines

"""An evaluated entry: its values (per repeat and per screen), its placement, and what states them (sentences,
record, page, figure). The top of the evaluation's modules: it calls ``_evaluate`` for the numbers, ``_words``
for the sentences and ``_record`` for the files, none of which imports it."""

from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from ._evaluate import placement, repeat_values, screen_values, value_order
from ._record import markdown, record, write_result
from ._spec import Spec
from ._values import at_precision
from ._words import verdicts


@dataclass
class Result:
    """An evaluated entry: its values per screen, its placement, and the sentences that state them.

    Attributes
    ----------
    spec : Spec
        The benchmark.
    entry : str
        The entry's name.
    values : DataFrame
        ``screen_values``: per screen, the mean over the repeats.
    ranks, versus : DataFrame
        ``placement`` (empty on one screen).
    order : DataFrame
        ``value_order`` (one screen only; else empty).
    submission : dict
        ``{screen: sha256 of the submitted file}``.
    repeats : DataFrame
        ``repeat_values`` at ``VALUE_DIGITS`` (10) significant digits: the values
        ``values`` averages.
    registered : bool
        Whether the spec is a committed one; the record and the sentences say "unregistered spec" when not.
    """

    spec: Spec
    entry: str
    values: pd.DataFrame
    ranks: pd.DataFrame
    versus: pd.DataFrame
    order: pd.DataFrame
    submission: dict = field(default_factory=dict)
    repeats: pd.DataFrame = field(default_factory=pd.DataFrame)
    registered: bool = True

    @property
    def screens(self) -> list:
        return list(self.values["dataset"])

    @property
    def subset(self) -> bool:
        """Whether fewer screens than the benchmark's were evaluated."""
        return len(self.screens) < len(self.spec.screens)

    def verdicts(self) -> list[str]:
        """The result in sentences, generated from the tables (``crocbench.benchmark._words``)."""
        return verdicts(self)

    def record(self) -> dict:
        """The result record: the benchmark's identity, crocbench's version, the submission's files, the values
        per repeat and per screen, the placement and the verdicts (``crocbench.benchmark._record``)."""
        return record(self)

    def markdown(self) -> str:
        """The result as a Markdown page."""
        return markdown(self)

    def write(self, out) -> list:
        """Write ``result.json``, ``result.md`` and, across screens, ``critical_difference.png`` into ``out``."""
        return write_result(self, out)


def _check_entry(spec: Spec, entry: str) -> None:
    if entry in spec.rankers:
        raise ValueError(f"the entry's name {entry!r} is a reference ranker's; give it another (--name)")


def place(
    spec: Spec, reference: pd.DataFrame, per_repeat: pd.DataFrame, entry: str, digests=None, registered: bool = True
) -> Result:
    """Place an entry's values among the reference's rankers.

    Parameters
    ----------
    spec : Spec
    reference : DataFrame
        The reference's rows (``reference.csv``).
    per_repeat : DataFrame
        The entry's values per screen and repeat (``crocbench.benchmark._evaluate.repeat_values``: ``dataset``,
        ``repeat``, ``compounds``, ``actives`` and a column per metric of the spec).
    entry : str
        The entry's name; not a reference ranker's.
    digests : dict, optional
        ``{screen: sha256 of the submitted file}``.
    registered : bool, default=True
        Whether the spec is a committed one.

    Returns
    -------
    Result
    """
    _check_entry(spec, entry)
    values = screen_values(spec, per_repeat)
    if len(values) >= 2:
        ranks, versus = placement(values, reference, spec, entry)
        order = pd.DataFrame()
    else:
        ranks, versus = pd.DataFrame(), pd.DataFrame()
        order = value_order(values, reference, spec, entry)
    repeats = at_precision(per_repeat[["dataset", "repeat", *spec.metrics]], spec.metrics)
    repeats = repeats.reset_index(drop=True)
    return Result(spec, entry, values, ranks, versus, order, dict(digests or {}), repeats, registered)


def evaluate_pooled(
    spec: Spec, reference: pd.DataFrame, pooled: dict, entry: str, digests: dict, registered: bool = True
) -> Result:
    """Score checked submissions (``crocbench.benchmark._submission.read_submission``) and place them."""
    _check_entry(spec, entry)  # before the metrics are computed
    return place(spec, reference, repeat_values(spec, pooled), entry, digests, registered)

"""The paper's claims checked on a run: one :class:`Claim` type, and its Markdown list."""

from __future__ import annotations

from dataclasses import dataclass


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

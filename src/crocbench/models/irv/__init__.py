"""The Influence Relevance Voter (:class:`IRV`), the paper's 6-parameter form in torch, and its terms and loss."""

from ._irv import IRV
from ._terms import irv_loss, irv_terms

__all__ = ["IRV", "irv_loss", "irv_terms"]

"""Graph networks on the standardized structures (the ``gnn`` extra): Chemprop's D-MPNN (:class:`Chemprop`)."""

from ._chemprop import Chemprop

__all__ = ["Chemprop"]

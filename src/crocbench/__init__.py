"""crocbench: early-retrieval benchmarking after Swamidass et al. (2010), "A CROC stronger than ROC"."""

__version__ = "0.2.0"

"""A compound's chemistry: what a split or a ranker reads of a compound, from its structure.

- :mod:`crocbench.chem.fingerprints`: the paper's circular fingerprints (labeled trees of depth up to 2), and
  parsing SMILES and molblocks.
- :mod:`crocbench.chem.ecfp`: RDKit's Morgan counts (radius 2), folded.
- :mod:`crocbench.chem.scaffolds`: Bemis-Murcko and generic scaffolds, and their groups.
- :mod:`crocbench.chem.clusters`: leader clusters of the ECFP bits at a Tanimoto threshold.
- :mod:`crocbench.chem.graph`: the novelty split's graph, every pair at or above a Tanimoto threshold, exact.
- :mod:`crocbench.chem.pains`: the PAINS flags (Baell and Holloway) of each compound.

Each module is imported by its own name; the package imports none of them, so reading one compound's
scaffold does not load the rest (nor RDKit, until a function needs it).
"""

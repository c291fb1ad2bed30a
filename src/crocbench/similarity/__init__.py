"""Exact Jaccard-Tanimoto similarities between feature sets: full matrix and top-k neighbours.

``T(a, b) = |a & b| / (|a| + |b| - |a & b|)``, computed exactly (see
``_tanimoto`` below), so the full matrix, the matrix file and
the top-k lists hold bit-identical values.  One concern per module:

- ``_tanimoto``: the engine, :class:`FeatureMatrix` and :func:`tanimoto_matrix`;
- ``_matrix_file``: :class:`MatrixFile`, blocks read from the N x N matrix file;
- ``_topk``: exact top-k neighbours, :func:`top_k`, and their file (:func:`save_neighbours`,
  :func:`load_neighbours`);
- ``_chunks``: the all-pairs search cut into chunks (:func:`chunk_tiles`, :func:`chunk_pairs`,
  :func:`default_chunks`, :func:`neighbours_mem_mb`);
- ``_all_pairs``: the all-pairs search in chunks (:func:`top_k_chunk`, :func:`gather_chunks`,
  :func:`all_pairs_top_k`);
- ``_threshold``: every pair at or above a threshold, :func:`pairs_at_least`;
- ``_index``: :class:`SimilarityIndex`, the dataset as the models see it.

:func:`empty_array` and :class:`KernelBuffer` live in ``crocbench._memory``; they are
re-exported here for the code that imports them from this package.
"""

from .._memory import KernelBuffer, empty_array
from ._all_pairs import all_pairs_top_k, gather_chunks, top_k_chunk
from ._chunks import DEFAULT_TILE, chunk_pairs, chunk_tiles, default_chunks, neighbours_mem_mb
from ._index import SimilarityIndex, fingerprints_sha256
from ._matrix_file import MatrixFile, matrix_mem_mb
from ._tanimoto import DEFAULT_BLOCK, FeatureMatrix, tanimoto_matrix
from ._threshold import pairs_at_least
from ._topk import Neighbours, load_neighbours, save_neighbours, top_k

__all__ = [
    "DEFAULT_BLOCK",
    "DEFAULT_TILE",
    "FeatureMatrix",
    "KernelBuffer",
    "MatrixFile",
    "Neighbours",
    "SimilarityIndex",
    "all_pairs_top_k",
    "chunk_pairs",
    "chunk_tiles",
    "default_chunks",
    "empty_array",
    "fingerprints_sha256",
    "gather_chunks",
    "load_neighbours",
    "matrix_mem_mb",
    "neighbours_mem_mb",
    "pairs_at_least",
    "save_neighbours",
    "tanimoto_matrix",
    "top_k",
    "top_k_chunk",
]

"""The dataset as the models see it: :class:`SimilarityIndex`."""

from __future__ import annotations

import hashlib

import numpy as np
import scipy.sparse as sp

from .._memory import KernelBuffer
from ..chem.ecfp import ecfp_view
from ..chem.fingerprints import Fingerprints
from ._dot import ordered_dot
from ._matrix_file import MatrixFile
from ._tanimoto import DEFAULT_BLOCK, FeatureMatrix, tanimoto_matrix
from ._topk import Neighbours, top_k


class SimilarityIndex:
    """The dataset as every model sees it (the ``data`` of ``fit(data, train, y)``), for any split of the compounds.

    Parameters
    ----------
    fp : Fingerprints or FeatureMatrix
        The compounds' feature sets, one row per compound.
    neighbours : Neighbours, default=None
        Each compound's top-K among all compounds (itself excluded), as written by the
        ``neighbours`` rule.  :meth:`neighbours` derives top-k lists within any
        reference subset from it exactly, falling back to a direct computation for
        the rare rows where fewer than k of the K lie in the subset.
    block : int, default=DEFAULT_BLOCK
        Rows per block of similarity computations.
    ids, smiles : sequence of str, default=None
        One per compound (row): the dataset's ids and standardized SMILES.
    matrix : path-like or MatrixFile, default=None
        The N x N Tanimoto matrix of these fingerprints, as :func:`.tanimoto_matrix`
        writes it (the ``similarity_matrix`` rule): :meth:`kernel` and
        :meth:`similarities` then read their blocks from it instead of
        computing them (the same values, bit for bit).
    ecfp : scipy.sparse.csr_matrix, default=None
        The compounds' folded Morgan counts (:func:`crocbench.chem.ecfp.load_ecfp`), which
        :meth:`ecfp` gives as bits or counts.

    Attributes
    ----------
    n : int
        Number of compounds.
    ids, smiles : ndarray of str (dtype object) or None
    fingerprints : scipy.sparse.csr_matrix
        The paper's features, 0/1 float32, rows = compounds, one column per
        distinct feature (``feature_ids`` holds each column's 64-bit feature id).

    Examples
    --------
    >>> from crocbench.chem.fingerprints import Fingerprints
    >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
    >>> data = SimilarityIndex(fp, ids=["a", "b", "c"])
    >>> data.similarities([0], [1, 2]).tolist()
    [[0.3333333432674408, 0.5]]
    >>> data.neighbours([0], 1, among=[1, 2]).index.tolist()
    [[2]]
    >>> data.fingerprints.toarray().astype(int).tolist(), data.feature_ids.tolist()
    ([[1, 1, 0], [1, 0, 1], [0, 1, 0]], [7, 9, 11])
    """

    def __init__(
        self,
        fp: Fingerprints | FeatureMatrix,
        neighbours: Neighbours | None = None,
        block: int = DEFAULT_BLOCK,
        ids=None,
        smiles=None,
        matrix=None,
        ecfp=None,
    ):
        self._fm = fp if isinstance(fp, FeatureMatrix) else None  # else built on first use (RANDOM never does)
        self._fp = None if isinstance(fp, FeatureMatrix) else fp
        self.n = fp.n
        self.matrix = matrix if matrix is None or isinstance(matrix, MatrixFile) else MatrixFile(matrix)
        if self.matrix is not None and self.matrix.n != self.n:
            raise ValueError(f"{self.matrix.path}: a {self.matrix.n} x {self.matrix.n} matrix for {self.n} compounds")
        self.cached, self.block = neighbours, block
        self.recomputed = 0  # rows the cache could not serve, for the logs
        # object arrays of the given str objects: a fixed-width str array would hold every SMILES at the longest
        # one's width (4 bytes a character: 2.5 GB for the 641,736 SMILES of transcription_5_primary)
        self.ids, self.smiles = (None if v is None else _str_array(v) for v in (ids, smiles))
        for name, v in (("ids", self.ids), ("smiles", self.smiles)):
            if v is not None and v.shape != (self.n,):
                raise ValueError(f"{v.size} {name} for {self.n} compounds")
        self._csr = None
        self._ecfp = ecfp
        if ecfp is not None and ecfp.shape[0] != self.n:
            raise ValueError(f"ECFP of {ecfp.shape[0]} compounds for {self.n} compounds")

    @property
    def fm(self) -> FeatureMatrix:
        """The fingerprints prepared for exact intersection counts (built on first use)."""
        if self._fm is None:
            self._fm = FeatureMatrix(self._fp)
        return self._fm

    @property
    def fingerprints(self) -> sp.csr_matrix:
        """The paper's features as a 0/1 float32 CSR matrix, one row per compound, one column per distinct feature."""
        return self._sparse()[0]

    @property
    def feature_ids(self) -> np.ndarray:
        """The 64-bit feature id of each column of ``fingerprints``."""
        return self._sparse()[1]

    def ecfp(self, rows=None, counts: bool = False) -> sp.csr_matrix:
        """The ECFP of ``rows`` (:func:`crocbench.chem.ecfp.ecfp_view`): 0/1 bits, or counts, float32 CSR.

        Parameters
        ----------
        rows : array-like of int, default=None
            The compounds; None for all.
        counts : bool, default=False
            The environments' counts on each column instead of bits.

        Returns
        -------
        scipy.sparse.csr_matrix of float32, shape (len(rows), n_bits)
            The features.
        """
        if self._ecfp is None:
            raise ValueError("no ECFP given: the workflow loads it for a model whose class says uses_ecfp")
        return ecfp_view(self._ecfp, rows, counts)

    def _sparse(self) -> tuple:
        """``(CSR matrix, feature id per column)``, built on first use."""
        if self._csr is None:
            if self._fp is None:
                raise ValueError("built from a FeatureMatrix: the fingerprints' feature ids are not known")
            ids, cols = np.unique(self._fp.ids, return_inverse=True)
            csr = sp.csr_matrix(
                (np.ones(cols.size, dtype=np.float32), cols.ravel(), self._fp.indptr), shape=(self.n, ids.size)
            )
            self._csr = (csr, ids)
        return self._csr

    def similarities(self, rows, cols, out: np.ndarray | None = None) -> np.ndarray:
        """Tanimoto similarities, float32 (len rows, len cols); written into ``out`` (C-contiguous float32) if given.

        Parameters
        ----------
        rows : array-like of int
            Row indices of the query compounds.
        cols : array-like of int
            Row indices of the reference compounds.
        out : ndarray of float32 of shape (len(rows), len(cols)), default=None
            C-contiguous array to write into; None allocates one.

        Returns
        -------
        ndarray of float32 of shape (len(rows), len(cols))
            The Tanimoto similarities (``out`` if given).
        """
        if self.matrix is not None:
            return self.matrix.gather(rows, cols, out=out, dtype=np.float32)
        return self.fm.tanimoto(np.asarray(rows), np.asarray(cols), out=out)

    def similarity_dot(self, rows, cols, weights) -> np.ndarray:
        """``similarities(rows, cols) @ weights`` in float64, each row summed in column order: the same bits on
        every CPU (``ordered_dot`` (``crocbench.similarity._dot``)), computed without holding the block.

        Parameters
        ----------
        rows : array-like of int
            Row indices of the query compounds.
        cols : array-like of int
            Row indices of the reference compounds.
        weights : array-like of float64 of shape (len(cols),) or (len(cols), m)
            One weight per reference compound (or m of them: m sums from one pass).

        Returns
        -------
        ndarray of float64 of shape (len(rows),) or (len(rows), m)
            ``sum_j T(rows_i, cols_j) weights_j`` (for each column of weights).

        Examples
        --------
        >>> from crocbench.chem.fingerprints import Fingerprints
        >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
        >>> SimilarityIndex(fp).similarity_dot([0, 1], [1, 2], [2.0, 4.0]).round(4).tolist()
        [2.6667, 2.0]
        """
        if self.matrix is not None:
            block, weights = self.similarities(rows, cols), np.asarray(weights, dtype=np.float64)
            if weights.ndim == 1:
                return ordered_dot(block, weights)
            return np.stack([ordered_dot(block, w) for w in weights.T], axis=1)
        return self.fm.tanimoto_dot(np.asarray(rows), np.asarray(cols), weights)

    def kernel(self, rows, dtype=np.float64, progress=None, buffer: KernelBuffer | None = None) -> np.ndarray:
        """The square Tanimoto matrix of ``rows`` (float64 by default: what LIBSVM takes).

        With ``buffer``, the matrix is written into its memory (overwriting the
        previous kernel taken from it) instead of a fresh allocation.

        Parameters
        ----------
        rows : array-like of int
            Row indices of the compounds.
        dtype : numpy dtype, default=numpy.float64
            The matrix's dtype (float32 values, widened exactly to float64).
        progress : file-like, default=None
            Progress lines are written there (e.g. ``sys.stderr``); None for silence.
        buffer : KernelBuffer, default=None
            Reused memory for the matrix; None allocates a fresh one.

        Returns
        -------
        ndarray of shape (len(rows), len(rows))
            The symmetric Tanimoto matrix of the compounds, diagonal 1 (0 for an empty set).

        Examples
        --------
        >>> from crocbench.chem.fingerprints import Fingerprints
        >>> fp = Fingerprints(np.array([0, 2, 4, 5]), np.array([7, 9, 7, 11, 9], dtype=np.uint64))
        >>> SimilarityIndex(fp).kernel([0, 2]).round(3).tolist()
        [[1.0, 0.5], [0.5, 1.0]]
        """
        out = None if buffer is None else buffer.take(len(rows), dtype)
        if self.matrix is not None:
            if progress is not None:
                print(f"kernel of {len(rows)} compounds read from {self.matrix.path}", file=progress, flush=True)
            return self.matrix.gather(rows, rows, out=out, dtype=dtype)
        return tanimoto_matrix(self.fm.take(rows), out=out, block=self.block, progress=progress, dtype=dtype)

    def neighbours(self, rows, k: int, among=None) -> Neighbours:
        """Top-k of each of ``rows`` among the compounds ``among`` (default: all), a compound never its own.

        Equal to ``top_k`` over that reference set: sorted by decreasing similarity,
        ties by increasing index.  ``index`` holds row indices of the dataset.

        Parameters
        ----------
        rows : array-like of int
            Row indices of the query compounds.
        k : int
            The number of neighbours of each.
        among : array-like of int, default=None
            Row indices of the reference compounds; None for all.

        Returns
        -------
        Neighbours
            ``index`` (row indices of the dataset) and ``similarity``, each of shape (len(rows), k).
        """
        query = np.asarray(rows, dtype=np.int64)
        reference = np.arange(self.n) if among is None else np.unique(np.asarray(among, dtype=np.int64))
        index = np.empty((query.size, k), dtype=np.int64)
        similarity = np.empty((query.size, k), dtype=np.float32)
        redo = np.arange(query.size)
        if self.cached is not None and self.cached.index.shape[1] >= k:
            allowed = np.zeros(self.n, dtype=bool)
            allowed[reference] = True
            cand = self.cached.index[query]
            ok = allowed[cand]
            order = np.argsort(~ok, axis=1, kind="stable")[:, :k]  # the first k allowed, in order
            index[:] = np.take_along_axis(cand, order, axis=1)
            similarity[:] = np.take_along_axis(self.cached.similarity[query], order, axis=1)
            redo = np.flatnonzero(ok.sum(axis=1) < k)
        if redo.size:
            self.recomputed += int(redo.size)
            nb = top_k(self.fm, k, query=query[redo], reference=reference, block=self.block)
            index[redo], similarity[redo] = reference[nb.index], nb.similarity
        return Neighbours(index, similarity)


def fingerprints_sha256(fp: Fingerprints) -> str:
    """The sha256 of fingerprints in their canonical form: ``indptr`` as little-endian int64 bytes, then ``ids``
    (each row's feature ids, sorted and unique) as little-endian uint64 bytes.

    The same features give the same digest whichever file they came from: the ECFP4 bits as fingerprints
    (``fingerprints_ecfp4.npz``) and the bits of the ECFP counts (``ecfp.npz``,
    :func:`crocbench.chem.clusters.bit_fingerprints`) are one set.

    Parameters
    ----------
    fp : Fingerprints
        One row per compound.

    Returns
    -------
    str
        64 hex digits.

    Examples
    --------
    >>> fp = Fingerprints(np.array([0, 2, 3]), np.array([7, 9, 7], dtype=np.uint64))
    >>> fingerprints_sha256(fp) == fingerprints_sha256(Fingerprints(fp.indptr.astype(np.int32), fp.ids))
    True
    >>> fingerprints_sha256(fp)[:12]
    '5f896c13399f'
    """
    digest = hashlib.sha256(np.ascontiguousarray(fp.indptr, dtype="<i8").tobytes())
    digest.update(np.ascontiguousarray(fp.ids, dtype="<u8").tobytes())
    return digest.hexdigest()


def _str_array(values) -> np.ndarray:
    """``values`` as a 1-d object array of ``str`` (the given strings themselves where they are ``str``)."""
    if isinstance(values, str):
        raise ValueError(f"ids and smiles are one string per compound, not one string: {values[:40]!r}")
    out = np.empty(len(values), dtype=object)
    out[:] = [v if isinstance(v, str) else str(v) for v in values]
    return out

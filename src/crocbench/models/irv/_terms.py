"""The IRV's function in torch: its relevances, votes and logits (:func:`irv_terms`) and its loss (:func:`irv_loss`)."""

from __future__ import annotations

from ..._extras import needs


def _torch():
    with needs("crocbench.models"):
        import torch

    return torch


def irv_terms(w, s, c):
    """Relevances, votes and logits for similarity ``s`` and neighbour classes ``c`` (n, k), as torch tensors.

    Parameters
    ----------
    w : torch.Tensor of shape (6,)
        The weights ``(w_y, w_s, w_r, w_1, w_0, w_z)``.
    s : torch.Tensor of shape (n, k)
        Each compound's similarities to its k neighbours, most similar first.
    c : torch.Tensor of shape (n, k)
        The neighbours' classes (1 = active), as floats.

    Returns
    -------
    relevance : torch.Tensor of shape (n, k)
        ``sigmoid(w_y + w_s s_i + w_r r_i)`` per neighbour.
    vote : torch.Tensor of shape (n, k)
        ``w_1`` for an active neighbour, ``w_0`` for an inactive one.
    logit : torch.Tensor of shape (n,)
        ``w_z + sum_i relevance_i vote_i``, the compounds' scores.

    Examples
    --------
    >>> import torch
    >>> w = torch.tensor([0.0, 0.0, 0.0, 1.0, -1.0, 0.5], dtype=torch.float64)
    >>> s = torch.tensor([[0.9, 0.5]], dtype=torch.float64); c = torch.tensor([[1.0, 0.0]], dtype=torch.float64)
    >>> irv_terms(w, s, c)[2].tolist()  # relevances 1/2: 0.5 + (1/2 - 1/2)
    [0.5]
    """
    torch = _torch()
    rank = torch.arange(1, s.shape[1] + 1, dtype=s.dtype)
    relevance = torch.sigmoid(w[0] + w[1] * s + w[2] * rank)
    vote = w[3] * c + w[4] * (1 - c)
    return relevance, vote, w[5] + (relevance * vote).sum(dim=1)


def cross_entropy(z, y, weights=None):
    """Cross-entropy of logits ``z`` against 0/1 targets: the mean, or the ``weights``-weighted sum."""
    torch = _torch()
    losses = torch.nn.functional.binary_cross_entropy_with_logits(z, y, reduction="none")
    return losses.mean() if weights is None else (weights * losses).sum()


def irv_loss(w, s, c, y, weights=None):
    """The IRV's cross-entropy on (s, c): of its logits (:func:`irv_terms`) against 0/1 targets ``y``, the mean, or
    the ``weights``-weighted sum.

    Parameters
    ----------
    w : torch.Tensor of shape (6,)
        The weights ``(w_y, w_s, w_r, w_1, w_0, w_z)``.
    s : torch.Tensor of shape (n, k)
        Each compound's similarities to its k neighbours, most similar first.
    c : torch.Tensor of shape (n, k)
        The neighbours' classes (1 = active), as floats.
    y : torch.Tensor of shape (n,)
        The compounds' 0/1 labels, as floats.
    weights : torch.Tensor of shape (n,), default=None
        Per-compound weights (summing to 1); None for the mean.

    Returns
    -------
    torch.Tensor
        The loss, a 0-d tensor (differentiable in ``w``).
    """
    return cross_entropy(irv_terms(w, s, c)[2], y, weights)

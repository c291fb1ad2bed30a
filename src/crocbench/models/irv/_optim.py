"""Training the IRV: its full-batch optimizers (Rprop, gradient descent, L-BFGS) and its stop rules."""

from __future__ import annotations

from ._terms import _torch


class _FullBatch:
    """What the IRV's optimizers share: the one weight tensor they step, a learning rate, ``zero_grad``."""

    def __init__(self, w, lr: float):
        self.w, self.lr = w, float(lr)

    def zero_grad(self) -> None:
        self.w.grad = None


class Rprop(_FullBatch):
    """``torch.optim.Rprop`` (its defaults: etas (0.5, 1.2), step sizes in [1e-6, 50]) on one tensor, the same
    operations in the same order, so the same bits; without ``torch.optim``, whose first optimizer
    imports ``torch._dynamo`` (4-5 s, half of an IRV fold job's time).

    Examples
    --------
    >>> import torch
    >>> w = torch.tensor([1.0, -1.0], dtype=torch.float64, requires_grad=True)
    >>> opt = Rprop(w, lr=0.1)
    >>> for _ in range(2):
    ...     opt.zero_grad(); (w ** 2).sum().backward(); opt.step()
    >>> w.detach().tolist()
    [0.78, -0.78]
    """

    def __init__(self, w, lr: float):
        super().__init__(w, lr)
        self.prev, self.step_size = _torch().zeros_like(w), None

    def step(self, closure=None) -> None:
        torch = _torch()
        with torch.no_grad():
            grad = self.w.grad
            if self.step_size is None:
                self.step_size = torch.full_like(grad, self.lr)
            sign = grad.mul(self.prev).sign()
            sign[sign.gt(0)] = 1.2
            sign[sign.lt(0)] = 0.5
            sign[sign.eq(0)] = 1
            self.step_size.mul_(sign).clamp_(1e-6, 50)
            grad = grad.clone(memory_format=torch.preserve_format)
            grad[sign.eq(0.5)] = 0  # the sign flipped: no step, and no memory of this gradient
            self.w.addcmul_(grad.sign(), self.step_size, value=-1)
            self.prev.copy_(grad)


class GD(_FullBatch):
    """Plain full-batch gradient descent with a fixed learning rate: ``w <- w - lr * grad``; with ``momentum`` mu,
    the heavy-ball form of ``torch.optim.SGD``: ``v <- mu v + grad`` (``v = grad`` at the first step),
    ``w <- w - lr v``.

    Examples
    --------
    >>> import torch
    >>> w = torch.tensor([1.0, -2.0], dtype=torch.float64, requires_grad=True)
    >>> opt = GD(w, lr=0.1)
    >>> opt.zero_grad(); (w ** 2).sum().backward(); opt.step()
    >>> w.detach().tolist()  # w - 0.1 * 2w
    [0.8, -1.6]
    """

    def __init__(self, w, lr: float, momentum: float = 0.0):
        super().__init__(w, lr)
        self.momentum, self.velocity = float(momentum), None

    def step(self, closure=None) -> None:
        torch = _torch()
        with torch.no_grad():
            grad = self.w.grad
            if self.momentum:
                self.velocity = grad.clone() if self.velocity is None else self.velocity.mul_(self.momentum).add_(grad)
                grad = self.velocity
            self.w.add_(grad, alpha=-self.lr)


class LBFGS(_FullBatch):
    """Limited-memory BFGS (two-loop recursion over the last ``memory`` steps) with a backtracking Armijo line
    search, one step per epoch: the direction from the epoch's gradient, then the largest of t = lr, lr/2, ...
    (at most 30 halvings) that lowers the epoch's loss by at least 1e-4 t |g.d|; no step if none does. The
    curvature pair of a step is (its move, the next epoch's gradient minus this one's), kept only if positive.

    ``step(closure)`` needs ``closure(w) -> float``: the epoch's loss at other weights (no gradient).
    """

    def __init__(self, w, lr: float = 1.0, memory: int = 10):
        super().__init__(w, lr)
        self.memory = int(memory)
        self.pairs, self.last = [], None  # (s, y, 1 / y.s); last = (move, gradient) of the previous step

    def direction(self, grad):
        """-H grad by the two-loop recursion (H scaled by s.y / y.y of the newest pair; the identity without)."""
        q, alphas = grad.clone(), []
        for s_, y_, rho in reversed(self.pairs):
            a = rho * float(s_ @ q)
            q.sub_(y_, alpha=a)
            alphas.append(a)
        if self.pairs:
            s_, y_, _ = self.pairs[-1]
            q.mul_(float(s_ @ y_) / float(y_ @ y_))
        for (s_, y_, rho), a in zip(self.pairs, reversed(alphas)):
            q.add_(s_, alpha=a - rho * float(y_ @ q))
        return -q

    def step(self, closure) -> None:
        torch = _torch()
        with torch.no_grad():
            grad = self.w.grad.clone()
            if self.last is not None:
                s_, g_ = self.last
                y_ = grad - g_
                sy = float(s_ @ y_)
                if sy > 1e-12 * float(s_ @ s_) ** 0.5 * float(y_ @ y_) ** 0.5:
                    self.pairs = (self.pairs + [(s_, y_, 1.0 / sy)])[-self.memory :]
            d = self.direction(grad)
            slope = float(grad @ d)
            if slope >= 0:  # not a descent direction (curvature from a moving objective): steepest descent
                self.pairs, d = [], -grad
                slope = float(grad @ d)
            start, t = closure(self.w), self.lr
            for _ in range(31):
                if closure(self.w + t * d) <= start + 1e-4 * t * slope:
                    break
                t *= 0.5
            else:
                self.last = None
                return
            move = t * d
            self.w.add_(move)
            self.last = (move, grad)


OPTIMIZERS = ("rprop", "gd", "gd_momentum", "lbfgs")
STOPS = ("loss", "unweighted_loss", "train_croc")


def stopped(series, window: int, tol: float, relative: bool = True) -> bool:
    """Whether a training series has settled: its last value differs from the one ``window`` epochs before by at
    most ``tol`` (times the last value's magnitude when ``relative``).

    Examples
    --------
    >>> stopped([5.0, 4.0, 3.0, 3.0001], window=2, tol=1e-3), stopped([5.0, 4.0, 3.0, 3.0001], window=1, tol=1e-3)
    (False, True)
    """
    if len(series) <= window:
        return False
    last = series[-1]
    return abs(series[-window - 1] - last) <= tol * (abs(last) if relative else 1.0)


def stop_fires(rule: str, series, window: int, tol: float, croc_tol: float) -> bool:
    """Whether stop rule ``rule`` fires on its series (the weighted or unweighted loss: relative change at most
    ``tol``; ``train_croc``, the training AUC[CROC(exp)] a=80: absolute change at most ``croc_tol``)."""
    if rule == "train_croc":
        return stopped(series, window, croc_tol, relative=False)
    return stopped(series, window, tol)

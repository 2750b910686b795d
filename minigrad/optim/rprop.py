"""Rprop: a step size per weight that grows while its gradient keeps its sign and shrinks when the sign flips."""
from .._tensor.creation import full_like, zeros_like
from ._common import addcmul_, new_step, refuse_differentiable
from ._lazy_state import LazyStateOptimizer


class Rprop(LazyStateOptimizer):
    """Resilient backpropagation (Riedmiller & Braun, 1993), with PyTorch's exact update. Mirrors `torch.optim.Rprop`.

    Per step and parameter p with gradient g, previous gradient g' and step sizes s (starting at lr):
        f = etaplus where g * g' > 0, etaminus where g * g' < 0, 1 where it is 0
        s <- clamp(s * f, step_size_min, step_size_max)
        g <- 0 where the sign flipped (f = etaminus);   p <- p - sign(g) * s;   g' <- g
    Only the sign of the gradient is used, never its size.

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: the first step size, default 1e-2. etas: (etaminus, etaplus), default (0.5, 1.2).
        step_sizes: (step_size_min, step_size_max), default (1e-6, 50). foreach: accepted. maximize: ascend.
        capturable: accepted, but as in PyTorch the first step fails on the CPU. differentiable: refused.

    Example:
        >>> optimizer = torch.optim.Rprop(model.parameters())
    """

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        refuse_differentiable("Rprop", differentiable)
        defaults = {"lr": lr, "etas": etas, "step_sizes": step_sizes, "foreach": foreach, "maximize": maximize,
                    "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": new_step(), "prev": zeros_like(p), "step_size": full_like(p.grad, group["lr"])}

    @staticmethod
    def _update(p, state, group):
        (etaminus, etaplus), (step_size_min, step_size_max) = group["etas"], group["step_sizes"]
        grad = -p.grad if group["maximize"] else p.grad
        prev, step_size = state["prev"], state["step_size"]
        state["step"] += 1
        sign = grad.mul(prev).sign()
        positive, negative, zero = sign.gt(0), sign.lt(0), sign.eq(0)
        sign[positive] = etaplus
        sign[negative] = etaminus
        sign[zero] = 1
        step_size.mul_(sign).clamp_(step_size_min, step_size_max)
        grad = grad.clone()
        grad[sign.eq(etaminus)] = 0      # after a sign flip, no step and no memory of the gradient
        addcmul_(p, grad.sign(), step_size, -1)
        prev.copy_(grad)

"""Adamax: Adam with the infinity norm of past gradients in place of their root mean square."""
from .._tensor.creation import zeros_like
from .._tensor.math_functions import maximum
from ._common import add_scaled, check_betas, lerp_, new_step, refuse_differentiable, store
from ._lazy_state import LazyStateOptimizer


class Adamax(LazyStateOptimizer):
    """Adamax (Kingma & Ba, 2015, section 7), with PyTorch's exact update. Mirrors `torch.optim.Adamax`.

    Per step t = 1, 2, ... and parameter p with gradient g:
        g <- g + weight_decay * p                        (L2 penalty)
        m <- m + (1 - beta1) * (g - m)                   (running mean of g)
        u <- max(beta2 * u, |g| + eps)                   (decaying infinity norm)
        p <- p - lr / (1 - beta1**t) * m / u

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 2e-3. betas: default (0.9, 0.999). eps: default 1e-8. weight_decay: default 0.
        foreach: accepted (PyTorch's faster implementation of the same rule). maximize: ascend.
        capturable: accepted, but as in PyTorch the first step fails on the CPU. differentiable: refused.

    Example:
        >>> optimizer = torch.optim.Adamax(model.parameters(), lr=2e-3)
    """

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        check_betas(lr, eps, betas, weight_decay)
        refuse_differentiable("Adamax", differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "capturable": capturable}
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": new_step(), "exp_avg": zeros_like(p), "exp_inf": zeros_like(p)}

    @staticmethod
    def _update(p, state, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p, group["weight_decay"])
        lerp_(exp_avg, grad, 1 - beta1)
        store(exp_inf, maximum(exp_inf.mul_(beta2), grad.abs().add_(eps)))
        clr = lr / (1 - beta1 ** state["step"].item())
        p.add_(exp_avg * -clr / exp_inf)       # ATen's addcdiv_: p + (value * m) / u

"""Adadelta: steps whose size is the ratio of running RMS of past updates to that of past gradients."""
from .._tensor.creation import zeros_like
from ._common import CAPTURABLE_DEVICES, add_scaled, add_scaled_, addcmul_, new_step, refuse_differentiable
from ._lazy_state import LazyStateOptimizer


class Adadelta(LazyStateOptimizer):
    """Adadelta (Zeiler, 2012), with PyTorch's exact update. Mirrors `torch.optim.Adadelta`.

    Per step and parameter p with gradient g:
        g <- g + weight_decay * p                          (L2 penalty)
        v <- rho * v + (1 - rho) * g * g                   (running mean of g squared)
        d = sqrt(u + eps) / sqrt(v + eps) * g              (the update, in the units of p)
        u <- rho * u + (1 - rho) * d * d                   (running mean of d squared)
        p <- p - lr * d

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: scales the update, default 1.0. rho: default 0.9. eps: default 1e-6. weight_decay: default 0.
        foreach: accepted. maximize: ascend. capturable: accepted, but as in PyTorch the first step fails on
            the CPU. differentiable: refused.

    Example:
        >>> optimizer = torch.optim.Adadelta(model.parameters())
    """

    # its capturable check, as PyTorch's, leaves out xla
    _capturable_check = ("params and state_steps", [d for d in CAPTURABLE_DEVICES if d != "xla"])

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        refuse_differentiable("Adadelta", differentiable)
        defaults = {"lr": lr, "rho": rho, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "capturable": capturable, "foreach": foreach, "differentiable": differentiable}
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        return {"step": new_step(), "square_avg": zeros_like(p), "acc_delta": zeros_like(p)}

    @staticmethod
    def _update(p, state, group):
        lr, rho, eps = group["lr"], group["rho"], group["eps"]
        state["step"] += 1
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p, group["weight_decay"])
        square_avg, acc_delta = state["square_avg"], state["acc_delta"]
        addcmul_(square_avg.mul_(rho), grad, grad, 1 - rho)
        std = square_avg.add(eps).sqrt_()
        delta = acc_delta.add(eps).sqrt_()
        delta.div_(std).mul_(grad)
        addcmul_(acc_delta.mul_(rho), delta, delta, 1 - rho)
        add_scaled_(p, delta, -lr)

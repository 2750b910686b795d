"""Adam: per-parameter step sizes from running averages of the gradient and of its square."""
from .._tensor.creation import zeros_like
from .._tensor.functions import where
from ._common import (addcmul_, check_betas, check_fused, lerp_, new_step, step_each_parameter,
                      use_grad_for_differentiable, weight_decay_)
from .optimizer import Optimizer


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2015), with PyTorch's exact update. Mirrors `torch.optim.Adam`.

    Per step t = 1, 2, ... and parameter p with gradient g:
        g <- g + weight_decay * p                        (or p <- p * (1 - lr * weight_decay) if decoupled)
        m <- m + (1 - beta1) * (g - m)                   (= beta1 m + (1 - beta1) g, PyTorch's lerp)
        v <- beta2 * v + (1 - beta2) * g * g
        p <- p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)
    The two (1 - beta**t) factors correct the bias of m and v towards their zero start.

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: learning rate (default 1e-3). betas: (beta1, beta2), default (0.9, 0.999). eps: default 1e-8.
        weight_decay: L2 penalty (default 0). amsgrad: use the max of all v so far. maximize: ascend.
        decoupled_weight_decay: shrink p directly (AdamW). foreach, fused: accepted (in PyTorch they pick a
            faster implementation of the same rule; minigrad has one). capturable: accepted, but as in PyTorch
            the first step fails on the CPU. differentiable: record the update in the graph.

    Example:
        >>> optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        check_betas(lr, eps, betas, weight_decay)
        if not (isinstance(betas[0], float) and isinstance(betas[1], float)):
            raise ValueError("betas must be either both floats or both Tensors")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)
        check_fused(fused, foreach, differentiable)

    @use_grad_for_differentiable
    def step(self, closure=None):
        """Do one update of every parameter that has a gradient; return `closure()`'s loss if given."""
        return step_each_parameter(self, closure)

    def _init_state(self, p, group):
        state = self.state[p]
        if len(state) == 0:            # lazy initialisation, on the parameter's first step
            state["step"] = new_step(group["fused"])
            state["exp_avg"] = zeros_like(p)
            state["exp_avg_sq"] = zeros_like(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = zeros_like(p)

    @staticmethod
    def _update(p, state, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        state["step"] += 1
        grad = weight_decay_(p, grad, group)
        lerp_(exp_avg, grad, 1 - beta1)
        addcmul_(exp_avg_sq.mul_(beta2), grad, grad, 1 - beta2)
        step = state["step"].item()
        step_size = lr / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            max_sq = state["max_exp_avg_sq"]
            max_sq.copy_(where(exp_avg_sq > max_sq, exp_avg_sq, max_sq))
            denom = (max_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        else:
            denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        p.add_(exp_avg * -step_size / denom)

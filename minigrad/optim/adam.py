"""Adam: per-parameter step sizes from running averages of the gradient and of its square."""
from .._creation import tensor, zeros_like
from .._functions import where
from ..autograd.grad_mode import no_grad
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
        decoupled_weight_decay: shrink p directly (AdamW). foreach, fused, capturable: accepted for
            compatibility (they pick an implementation in PyTorch; minigrad has one).

    Example:
        >>> optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if differentiable:
            raise NotImplementedError("minigrad's optimizers do not support differentiable=True")
        defaults = {"lr": lr, "betas": tuple(betas), "eps": eps, "weight_decay": weight_decay, "amsgrad": amsgrad,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable, "fused": fused,
                    "decoupled_weight_decay": decoupled_weight_decay}
        super().__init__(params, defaults)

    @no_grad()
    def step(self, closure=None):
        """Do one update of every parameter that has a gradient; return `closure()`'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, (beta1, beta2), eps, weight_decay = group["lr"], group["betas"], group["eps"], group["weight_decay"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                state = self.state[p]
                if len(state) == 0:       # lazy initialisation, on the parameter's first step
                    state["step"] = tensor(0.0)
                    state["exp_avg"] = zeros_like(p)
                    state["exp_avg_sq"] = zeros_like(p)
                    if group["amsgrad"]:
                        state["max_exp_avg_sq"] = zeros_like(p)
                exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
                state["step"] += 1
                if weight_decay != 0:
                    if group["decoupled_weight_decay"]:
                        p.mul_(1 - lr * weight_decay)
                    else:
                        grad = grad.add(p, alpha=weight_decay)
                exp_avg.add_(grad - exp_avg, alpha=1 - beta1)
                exp_avg_sq.mul_(beta2).add_(grad * grad, alpha=1 - beta2)
                step = state["step"].item()
                bias_correction1 = 1 - beta1 ** step
                bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
                if group["amsgrad"]:
                    max_sq = state["max_exp_avg_sq"]
                    max_sq.copy_(where(exp_avg_sq > max_sq, exp_avg_sq, max_sq))
                    denom = (max_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                else:
                    denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
                p.add_(exp_avg / denom, alpha=-(lr / bias_correction1))
        return loss

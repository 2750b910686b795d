"""RAdam: Adam that rectifies the variance of its adaptive step while the average is young."""
from .._tensor.creation import zeros_like
from ._common import add_scaled_, addcmul_, check_betas, lerp_, new_step, refuse_differentiable, weight_decay_
from ._lazy_state import LazyStateOptimizer


class RAdam(LazyStateOptimizer):
    """RAdam (Liu et al., 2020), with PyTorch's exact update. Mirrors `torch.optim.RAdam`.

    Per step t = 1, 2, ... and parameter p with gradient g:
        g <- g + weight_decay * p                  (or p <- p * (1 - lr * weight_decay) if decoupled)
        m <- lerp(m, g, 1 - beta1);   v <- beta2 * v + (1 - beta2) * g * g
        rho_inf = 2 / (1 - beta2) - 1;   rho_t = rho_inf - 2 t beta2**t / (1 - beta2**t)
        if rho_t > 5:  r = sqrt((rho_t - 4)(rho_t - 2) rho_inf / ((rho_inf - 4)(rho_inf - 2) rho_t))
                       p <- p - lr * m / (1 - beta1**t) * sqrt(1 - beta2**t) / (sqrt(v) + eps) * r
        else:          p <- p - lr * m / (1 - beta1**t)          (plain momentum while v is unreliable)

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 1e-3. betas: default (0.9, 0.999). eps: default 1e-8. weight_decay: default 0.
        decoupled_weight_decay: shrink p directly (as AdamW), default False. foreach: accepted. maximize: ascend.
        capturable: accepted, but as in PyTorch the first step fails on the CPU. differentiable: refused.

    Example:
        >>> optimizer = torch.optim.RAdam(model.parameters(), lr=1e-3)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        check_betas(lr, eps, betas, weight_decay)
        refuse_differentiable("RAdam", differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay, "maximize": maximize,
                    "foreach": foreach, "capturable": capturable, "decoupled_weight_decay": decoupled_weight_decay,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:       # saves from before decoupled_weight_decay existed (as PyTorch)
            group.setdefault("decoupled_weight_decay", False)

    @staticmethod
    def _new_state(p, group):
        return {"step": new_step(), "exp_avg": zeros_like(p), "exp_avg_sq": zeros_like(p)}

    @staticmethod
    def _update(p, state, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        state["step"] += 1
        step = state["step"].item()
        grad = weight_decay_(p, grad, group)
        lerp_(exp_avg, grad, 1 - beta1)
        addcmul_(exp_avg_sq.mul_(beta2), grad, grad, 1 - beta2)
        bias_correction1 = 1 - beta1 ** step
        bias_correction2 = 1 - beta2 ** step
        bias_corrected_exp_avg = exp_avg / bias_correction1
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if rho_t > 5.0:
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            # `number / tensor` is `tensor.reciprocal() * number` in PyTorch, and rounds so
            adaptive_lr = exp_avg_sq.sqrt().add_(eps).reciprocal() * bias_correction2 ** 0.5
            add_scaled_(p, bias_corrected_exp_avg * lr * adaptive_lr * rect, -1.0)
        else:
            add_scaled_(p, bias_corrected_exp_avg * lr, -1.0)

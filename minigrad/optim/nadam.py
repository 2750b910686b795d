"""NAdam: Adam whose momentum looks one step ahead, as Nesterov's does."""
from .._tensor.creation import get_default_dtype, tensor, zeros_like
from ._common import addcmul_, check_betas, lerp_, new_step, refuse_differentiable, weight_decay_
from ._lazy_state import LazyStateOptimizer


class NAdam(LazyStateOptimizer):
    """NAdam (Dozat, 2016), with PyTorch's exact update. Mirrors `torch.optim.NAdam`.

    Per step t = 1, 2, ... and parameter p with gradient g:
        g <- g + weight_decay * p                  (or p <- p * (1 - lr * weight_decay) if decoupled)
        mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay));   P <- P * mu_t  (P, the product, starts at 1)
        m <- lerp(m, g, 1 - beta1);   v <- beta2 * v + (1 - beta2) * g * g
        d = sqrt(v / (1 - beta2**t)) + eps
        p <- p - lr * (1 - mu_t) / (1 - P) * g / d - lr * mu_{t+1} / (1 - P * mu_{t+1}) * m / d

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 2e-3. betas: default (0.9, 0.999). eps: default 1e-8. weight_decay: default 0.
        momentum_decay: default 4e-3. decoupled_weight_decay: shrink p directly (as AdamW), default False.
        foreach: accepted. maximize: ascend. capturable: accepted, but as in PyTorch the first step fails on
            the CPU. differentiable: refused.

    Example:
        >>> optimizer = torch.optim.NAdam(model.parameters(), lr=2e-3)
    """

    _capturable_check = ("params, mu_products and state_steps",)   # the words of its capturable check

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        check_betas(lr, eps, betas, weight_decay)
        if not 0.0 <= momentum_decay:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        refuse_differentiable("NAdam", differentiable)
        defaults = {"lr": lr, "betas": betas, "eps": eps, "weight_decay": weight_decay,
                    "momentum_decay": momentum_decay, "decoupled_weight_decay": decoupled_weight_decay,
                    "maximize": maximize, "foreach": foreach, "capturable": capturable,
                    "differentiable": differentiable}
        super().__init__(params, defaults)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:       # saves from before decoupled_weight_decay existed (as PyTorch)
            group.setdefault("decoupled_weight_decay", False)

    @staticmethod
    def _new_state(p, group):
        return {"step": new_step(), "mu_product": tensor(1.0, dtype=get_default_dtype()), "exp_avg": zeros_like(p),
                "exp_avg_sq": zeros_like(p)}

    @staticmethod
    def _update(p, state, group):
        lr, (beta1, beta2), eps = group["lr"], group["betas"], group["eps"]
        grad = -p.grad if group["maximize"] else p.grad
        exp_avg, exp_avg_sq, mu_product = state["exp_avg"], state["exp_avg_sq"], state["mu_product"]
        state["step"] += 1
        step = state["step"].item()
        bias_correction2 = 1 - beta2 ** step
        grad = weight_decay_(p, grad, group)
        mu = beta1 * (1.0 - 0.5 * (0.96 ** (step * group["momentum_decay"])))
        mu_next = beta1 * (1.0 - 0.5 * (0.96 ** ((step + 1) * group["momentum_decay"])))
        mu_product.mul_(mu)
        lerp_(exp_avg, grad, 1 - beta1)
        addcmul_(exp_avg_sq.mul_(beta2), grad, grad, 1 - beta2)
        denom = (exp_avg_sq / bias_correction2).sqrt()
        # the products are Python floats of the stored float32 product, as PyTorch's `_get_value`
        mu_product_next = mu_product.item() * mu_next
        denom.add_(eps)
        p.add_(grad * (-lr * (1.0 - mu) / (1.0 - mu_product.item())) / denom)   # ATen's addcdiv_, twice
        p.add_(exp_avg * ((-lr * mu_next) / (1.0 - mu_product_next)) / denom)

"""ASGD: SGD with a decaying step that also keeps a running average of the parameters it visits."""
from .._tensor.creation import get_default_dtype, ones, tensor, zeros, zeros_like
from ._common import add_scaled, add_scaled_, refuse_differentiable
from ._lazy_state import LazyStateOptimizer


class ASGD(LazyStateOptimizer):
    """Averaged SGD (Polyak & Juditsky, 1992), with PyTorch's exact update. Mirrors `torch.optim.ASGD`.

    Per step t = 1, 2, ... and parameter p with gradient g (eta starts at lr, mu at 1):
        g <- g + weight_decay * p
        p <- p * (1 - lambd * eta) - eta * g
        ax <- ax + mu * (p - ax)                  (ax <- p while mu is 1)
        eta <- lr / (1 + lambd * lr * t) ** alpha;   mu <- 1 / max(1, t - t0)
    The average `ax` (in `state[p]["ax"]`) starts to move away from p after t0 steps.

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 1e-2. lambd: decay term, default 1e-4. alpha: power of the eta update, default 0.75.
        t0: the step at which averaging starts, default 1e6. weight_decay: default 0. foreach: accepted.
        maximize: ascend. capturable: accepted, but as in PyTorch the first step fails on the CPU.
        differentiable: refused.

    Example:
        >>> optimizer = torch.optim.ASGD(model.parameters(), lr=0.01)
    """

    _capturable_check = ("params, mus, etas, and state_steps",)   # the words of its capturable check

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None, maximize=False,
                 differentiable=False, capturable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        refuse_differentiable("ASGD", differentiable)
        defaults = {"lr": lr, "lambd": lambd, "alpha": alpha, "t0": t0, "weight_decay": weight_decay,
                    "foreach": foreach, "maximize": maximize, "differentiable": differentiable,
                    "capturable": capturable}
        super().__init__(params, defaults)

    @staticmethod
    def _new_state(p, group):
        dtype = get_default_dtype()        # eta and mu are 0-d tensors too, as in PyTorch
        return {"step": zeros((), dtype=dtype), "eta": tensor(float(group["lr"]), dtype=dtype),
                "mu": ones((), dtype=dtype), "ax": zeros_like(p)}

    @staticmethod
    def _update(p, state, group):
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        grad = -p.grad if group["maximize"] else p.grad
        mu, ax, eta = state["mu"], state["ax"], state["eta"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p, group["weight_decay"])
        eta_value = eta.item()
        p.mul_(1 - lambd * eta_value)             # decay term
        add_scaled_(p, grad, -eta_value)
        if mu.item() != 1:
            ax.add_(p.sub(ax).mul_(mu))
        else:
            ax.copy_(p)
        step = state["step"].item()
        eta.copy_(tensor(lr / ((1 + lambd * lr * step) ** alpha)))
        mu.copy_(tensor(1 / max(1, step - t0)))

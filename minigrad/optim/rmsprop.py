"""RMSprop: divide each gradient by a running root mean square of its recent values."""
from .._tensor.creation import zeros_like
from ._common import (add_scaled, add_scaled_, addcmul_, differentiable_add_, fma, lerp_, new_step,
                      step_each_parameter, use_grad_for_differentiable)
from .optimizer import Optimizer


class RMSprop(Optimizer):
    """RMSprop (Hinton's lecture 6e), with PyTorch's exact update. Mirrors `torch.optim.RMSprop`.

    Per step and parameter p with gradient g:
        g <- g + weight_decay * p                         (L2 penalty)
        v <- alpha * v + (1 - alpha) * g * g              (running mean of g squared)
        avg <- sqrt(v) + eps,  or sqrt(v - m * m) + eps   with m <- lerp(m, g, 1 - alpha) if centered
        b <- momentum * b + g / avg;  p <- p - lr * b     (if momentum > 0)
        p <- p - lr * g / avg                             (otherwise)
    Centered RMSprop divides by an estimate of the gradient's variance instead of its raw second moment.

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 1e-2. alpha: smoothing constant, default 0.99. eps: default 1e-8.
        weight_decay, momentum: default 0. centered: default False. maximize: ascend.
        foreach: accepted (PyTorch's faster implementation of the same rule). capturable: accepted, but as
            in PyTorch the first step fails on the CPU. differentiable: record the update in the graph.

    Example:
        >>> optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-4)
    """

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= momentum:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= alpha:
            raise ValueError(f"Invalid alpha value: {alpha}")
        defaults = {"lr": lr, "momentum": momentum, "alpha": alpha, "eps": eps, "centered": centered,
                    "weight_decay": weight_decay, "capturable": capturable, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable}
        super().__init__(params, defaults)

    @use_grad_for_differentiable
    def step(self, closure=None):
        """Do one update of every parameter that has a gradient; return `closure()`'s loss if given."""
        return step_each_parameter(self, closure)

    def _init_state(self, p, group):
        state = self.state[p]
        if len(state) == 0:            # lazy initialisation, on the parameter's first step
            state["step"] = new_step()
            state["square_avg"] = zeros_like(p)
            if group["momentum"] > 0:
                state["momentum_buffer"] = zeros_like(p)
            if group["centered"]:
                state["grad_avg"] = zeros_like(p)

    @staticmethod
    def _update(p, state, group):
        lr, alpha, eps, momentum = group["lr"], group["alpha"], group["eps"], group["momentum"]
        grad = -p.grad if group["maximize"] else p.grad
        square_avg = state["square_avg"]
        state["step"] += 1
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p, group["weight_decay"])
        addcmul_(square_avg.mul_(alpha), grad, grad, 1 - alpha)
        if group["centered"]:
            grad_avg = lerp_(state["grad_avg"], grad, 1 - alpha)
            avg = fma(-grad_avg, grad_avg, square_avg).sqrt()
        else:
            avg = square_avg.sqrt()
        avg = differentiable_add_(avg, eps, group["differentiable"])
        if momentum > 0:
            buf = state["momentum_buffer"]
            buf.mul_(momentum).add_(grad / avg)
            add_scaled_(p, buf, -lr)
        else:
            p.add_(grad * -lr / avg)

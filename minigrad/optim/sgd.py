"""Stochastic gradient descent, with momentum, dampening, Nesterov momentum and weight decay."""
from ._common import add_scaled, add_scaled_, check_fused, use_grad_for_differentiable
from .optimizer import Optimizer


class SGD(Optimizer):
    """Update each parameter against its gradient: p <- p - lr * g. Mirrors `torch.optim.SGD`.

    With the options, per step (PyTorch's exact rule):
        g <- g + weight_decay * p                       (L2 penalty)
        b <- g on the first step, else momentum * b + (1 - dampening) * g
        g <- g + momentum * b if nesterov, else b       (only when momentum != 0)
        p <- p - lr * g

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: learning rate. momentum, dampening, weight_decay: see the rule above (default 0).
        nesterov: use Nesterov momentum. maximize: ascend instead of descend.
        foreach, fused: accepted (in PyTorch they pick a faster implementation of the same rule; minigrad has one).
        differentiable: record the update in the graph (parameters may then be non-leaf tensors).

    Example:
        >>> optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    """

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        defaults = {"lr": lr, "momentum": momentum, "dampening": dampening, "weight_decay": weight_decay,
                    "nesterov": nesterov, "maximize": maximize, "foreach": foreach, "differentiable": differentiable,
                    "fused": fused}
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)
        check_fused(fused, foreach, differentiable)

    @use_grad_for_differentiable
    def step(self, closure=None):
        """Do one update of every parameter that has a gradient; return `closure()`'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            lr, momentum, dampening = group["lr"], group["momentum"], group["dampening"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = -p.grad if group["maximize"] else p.grad
                if group["weight_decay"] != 0:
                    grad = add_scaled(grad, p, group["weight_decay"])
                if momentum != 0:
                    state = self.state[p]
                    buf = state.get("momentum_buffer")
                    if buf is None:
                        buf = state["momentum_buffer"] = grad.detach().clone()
                    else:
                        add_scaled_(buf.mul_(momentum), grad, 1 - dampening)
                    grad = add_scaled(grad, buf, momentum) if group["nesterov"] else buf
                add_scaled_(p, grad, -lr)
        return loss

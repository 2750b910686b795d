"""Adagrad: each weight's step shrinks with the sum of all its squared gradients so far."""
from .._tensor.creation import full_like
from ._common import add_scaled, addcmul_, check_fused, differentiable_add_, new_step, use_grad_for_differentiable
from .optimizer import Optimizer


class Adagrad(Optimizer):
    """Adagrad (Duchi, Hazan & Singer, 2011), with PyTorch's exact update. Mirrors `torch.optim.Adagrad`.

    Per step t = 1, 2, ... and parameter p with gradient g:
        g <- g + weight_decay * p                    (L2 penalty)
        clr <- lr / (1 + (t - 1) * lr_decay)         (the decayed learning rate)
        s <- s + g * g                               (s starts at initial_accumulator_value)
        p <- p - clr * g / (sqrt(s) + eps)
    Weights with large past gradients take small steps; rarely updated ones keep large steps.

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 1e-2. lr_decay, weight_decay, initial_accumulator_value: default 0. eps: default 1e-10.
        foreach, fused: accepted (in PyTorch they pick a faster implementation of the same rule).
        maximize: ascend. differentiable: record the update in the graph.

    Example:
        >>> optimizer = torch.optim.Adagrad(model.parameters(), lr=0.1)
    """

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        if not 0.0 <= lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 <= lr_decay:
            raise ValueError(f"Invalid lr_decay value: {lr_decay}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if not 0.0 <= initial_accumulator_value:
            raise ValueError(f"Invalid initial_accumulator_value value: {initial_accumulator_value}")
        if not 0.0 <= eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        defaults = {"lr": lr, "lr_decay": lr_decay, "eps": eps, "weight_decay": weight_decay,
                    "initial_accumulator_value": initial_accumulator_value, "foreach": foreach,
                    "maximize": maximize, "differentiable": differentiable, "fused": fused}
        super().__init__(params, defaults)
        check_fused(fused, foreach, differentiable)
        for group in self.param_groups:      # unlike the others, Adagrad makes its state at once
            for p in group["params"]:
                self.state[p]["step"] = new_step(group["fused"])
                self.state[p]["sum"] = full_like(p, initial_accumulator_value)

    @use_grad_for_differentiable
    def step(self, closure=None):
        """Do one update of every parameter that has a gradient; return `closure()`'s loss if given."""
        loss = self._closure_loss(closure)
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if len(state) == 0:      # a parameter added later (add_param_group) or a loaded empty state
                    state["step"] = new_step(group["fused"])
                    state["sum"] = full_like(p, self.defaults["initial_accumulator_value"])
            for p in group["params"]:
                if p.grad is not None:
                    self._update(p, self.state[p], group)
        return loss

    @staticmethod
    def _update(p, state, group):
        state["step"] += 1
        step = state["step"].item()
        grad = -p.grad if group["maximize"] else p.grad
        if group["weight_decay"] != 0:
            grad = add_scaled(grad, p, group["weight_decay"])
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        state_sum = state["sum"]
        addcmul_(state_sum, grad, grad, 1)
        std = differentiable_add_(state_sum.sqrt(), group["eps"], group["differentiable"])
        p.add_(grad * -clr / std)

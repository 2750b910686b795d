"""AdamW: Adam whose weight decay shrinks the weights directly instead of joining the gradient."""
from .adam import Adam


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2019). Mirrors `torch.optim.AdamW`.

    Per step, before Adam's update of p from its moment estimates:
        p <- p * (1 - lr * weight_decay)
    so the decay is not rescaled by the adaptive step size (as an L2 term in the gradient would be).
    As in PyTorch 2.13, AdamW is `Adam(..., decoupled_weight_decay=True)` with a default weight_decay of 1e-2.

    Args:
        params: `model.parameters()` or a list of parameter groups.
        lr: default 1e-3. betas: default (0.9, 0.999). eps: default 1e-8. weight_decay: default 1e-2.
        amsgrad, maximize, foreach, capturable, differentiable, fused: as for `Adam`.

    Example:
        >>> optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    """

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state):
        super().__setstate__(state)
        for group in self.param_groups:       # whatever was loaded, AdamW's decay stays decoupled (as PyTorch)
            group["decoupled_weight_decay"] = True

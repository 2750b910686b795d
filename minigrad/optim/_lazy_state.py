"""The optimizers whose per-parameter state is made on each parameter's first step (Adamax, NAdam, RAdam, ...)."""
from ._common import step_each_parameter, use_grad_for_differentiable
from .optimizer import Optimizer


class LazyStateOptimizer(Optimizer):
    """An optimizer that makes a parameter's state, `_new_state(p, group)`, on its first step, then updates each
    parameter with a gradient by `_update(p, state, group)`, as PyTorch's `_init_group` and single-tensor step."""

    @use_grad_for_differentiable
    def step(self, closure=None):
        """Do one update of every parameter that has a gradient; return `closure()`'s loss if given."""
        return step_each_parameter(self, closure)

    def _init_state(self, p, group):
        state = self.state[p]
        if len(state) == 0:            # lazy initialisation, on the parameter's first step
            state.update(self._new_state(p, group))

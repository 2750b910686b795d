"""Which torch.func transforms are running: `_State.transforms`, a stack of their names. `Function.apply` reads
it to ask of a custom Function what PyTorch asks inside a transform (a `setup_context`; under vmap, a vmap rule
or `generate_vmap_rule = True`: compat/checks.py)."""
import contextlib

from ..core.grad_mode import _State


@contextlib.contextmanager
def running(name):
    _State.transforms.append(name)
    try:
        yield
    finally:
        _State.transforms.pop()

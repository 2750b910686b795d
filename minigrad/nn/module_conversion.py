"""`Module.to`, `.float()`, `.double()`, `.half()`, `.cpu()`: cast a module's floating-point tensors, keeping
the Parameters.

Defined here as functions of `self` and bound in `Module`'s class body.
"""
from ..core.dtype import dtype, float32, float64
from .._tensor.tensor import Tensor
from ..core import dtype as _dtype
from ..core.grad_mode import no_grad


def _apply(self, fn):
    """Replace every parameter's (and its gradient's) and buffer's values by `fn(tensor)`, recursively.

    Parameters are changed through `.data`, so they stay the same objects (an optimizer made before still
    holds them); buffers are replaced.
    """
    for module in self.children():
        module._apply(fn)
    with no_grad():
        for param in self._parameters.values():
            if param is not None:
                param.data = fn(param)
                if param.grad is not None:
                    param.grad.data = fn(param.grad)
        for name, buf in self._buffers.items():
            if buf is not None:
                self._buffers[name] = fn(buf)
    return self


def to(self, *args, **kwargs):
    """Cast floating-point parameters and buffers to a dtype, e.g. `model.to(torch.float64)`; return self.

    Devices (`model.to("cpu")`) are accepted and ignored: minigrad has only the CPU.
    """
    target = kwargs.get("dtype") or next((a.dtype if isinstance(a, Tensor) else a for a in args
                                          if isinstance(a, (dtype, Tensor))), None)
    if target is None:
        return self
    if not target.is_floating_point:
        raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired dtype={target}")
    return _apply(self, lambda t: t.to(target) if t.is_floating_point() else t)


def float(self):  # noqa: A001 - PyTorch's name
    """Cast floating-point parameters and buffers to float32; return self."""
    return to(self, float32)


def double(self):
    """Cast floating-point parameters and buffers to float64; return self."""
    return to(self, float64)


def half(self):
    """Cast floating-point parameters and buffers to float16; return self."""
    return to(self, _dtype.float16)


def cpu(self):
    """Return self: minigrad's tensors are always on the CPU."""
    return self

"""The two ways to start a backward pass: `backward` (into `.grad`) and `grad` (returned). Mirror `torch.autograd`.

Both are thin fronts over the one engine loop, `backward_steps`, called with the same arguments.
"""
import warnings

import numpy as np

from .._tensor import Tensor
from . import engine
from .engine import _as_tuple, _run


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None, inputs=None):
    """Compute gradients of `tensors` w.r.t. the graph's leaves, accumulating into their `.grad`.

    Mirrors `torch.autograd.backward`. With `inputs`, only those tensors accumulate (a non-leaf input gets its
    `.grad` too); with `create_graph=True` the pass is itself recorded, so `.grad` can be differentiated again.

    Example:
        >>> loss.backward()                     # the same as backward(loss)
        >>> backward(loss, inputs=[w])          # only w.grad changes
    """
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning, stacklevel=2)
        if grad_tensors is not None:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                               "`backward()`. Please only use `grad_tensors`.")
        grad_tensors = grad_variables
    if inputs is not None:
        inputs = _inputs_tuple(inputs, "backward")
    if create_graph and not _warned:
        _warn_reference_cycle()
    _run(engine.backward_steps(tensors, grad_tensors, retain_graph, create_graph, inputs, describe=False))


_warned = False


def _warn_reference_cycle():
    global _warned
    _warned = True      # once per process, as PyTorch warns
    warnings.warn("Using backward() with create_graph=True will create a reference cycle between the parameter and "
                  "its gradient which can cause a memory leak. We recommend using autograd.grad when creating the "
                  "graph to avoid this. If you have to use this function, make sure to reset the .grad fields of "
                  "your parameters to None after use to break the cycle and avoid the leak.", UserWarning,
                  stacklevel=3)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return the gradients of `outputs` w.r.t. `inputs`, leaving every `.grad` untouched.

    Mirrors `torch.autograd.grad`.

    Args:
        outputs, inputs: tensors (or sequences of tensors); `inputs` may also be a dict of named tensors.
        grad_outputs: the vector of the vector-Jacobian product, one per output (None: 1 for a scalar).
        create_graph: record this pass, so the returned gradients have a `grad_fn` (for higher derivatives).
        allow_unused: return None for an input that the outputs do not depend on, instead of an error.
        materialize_grads: return zeros instead of None for such inputs.
    Returns:
        a tuple with one gradient per input (a dict if `inputs` was a dict).

    Example:
        >>> x = torch.tensor(2.0, requires_grad=True)
        >>> (dx,) = torch.autograd.grad(x ** 3, x, create_graph=True)     # 3 x**2 = 12, with a grad_fn
        >>> torch.autograd.grad(dx, x)                                     # 6 x = 12
        (tensor(12.),)
    """
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, but got: "
                         "allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if is_grads_batched:
        raise NotImplementedError("minigrad does not support is_grads_batched=True (it needs vmap); call "
                                  "torch.autograd.grad once per row of grad_outputs instead.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=2)
    inputs_tuple = _inputs_tuple(inputs, "grad")
    outputs = _as_tuple(outputs)
    grad_outputs = _as_tuple(grad_outputs) or (None,) * len(outputs)
    result = _run(engine.backward_steps(outputs, grad_outputs, retain_graph, create_graph, inputs_tuple,
                                        accumulate_grad=False, describe=False))
    for i, g in enumerate(result):
        if g is None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {i} appears to not have been used in the "
                               "graph. Set allow_unused=True if this is the desired behavior.")
    if materialize_grads:
        result = [Tensor._make(np.zeros_like(t._data)).requires_grad_(create_graph) if g is None else g
                  for g, t in zip(result, inputs_tuple)]
    if type(inputs) is dict:
        return dict(zip(inputs, result))
    return tuple(result)


def _inputs_tuple(inputs, caller):
    if isinstance(inputs, Tensor):
        inputs = (inputs,)
    elif type(inputs) is dict:
        inputs = tuple(inputs.values())
    elif hasattr(inputs, "keys"):
        raise TypeError(f"`inputs` argument to `{caller}()` must be a dict, not {type(inputs).__name__}. Other "
                        "Mapping types are not supported.")
    else:
        inputs = tuple(inputs)
    if not inputs:
        raise RuntimeError(f"`inputs` argument to `{caller}()` cannot be empty.")
    return inputs

"""What the engine checks in the gradients a `backward` returns, with PyTorch's error messages.

`BackwardCFunction._run_backward` calls `check_gradients` after every backward: one gradient per input,
None for a non-tensor input, and a shape the input broadcasts to (then the gradient is summed back to it).
"""
from .._dtype import _BY_NUMPY


def check_gradients(node, grads):
    """Match backward's results to forward's inputs, as PyTorch's engine does, and keep the tensor ones."""
    if type(grads) is not tuple:
        grads = (grads,)
    inputs = node._inputs
    if len(grads) != len(inputs):
        if len(grads) > len(inputs) and all(g is None for g in grads[len(inputs):]):
            grads = grads[:len(inputs)]          # extra trailing Nones are accepted
        else:
            raise RuntimeError(f"function {type(node).__name__} returned an incorrect number of gradients "
                               f"(expected {len(inputs)}, got {len(grads)})")
    checked = []
    for i, (g, meta) in enumerate(zip(grads, inputs)):
        if meta is None:                               # a non-tensor input: only None is allowed
            if g is not None:
                _wrong_gradient(node, i, g)
            continue
        if g is not None:
            array = getattr(g, "_data", None)
            if array is None:
                _wrong_gradient(node, i, g)
            shape, dtype = meta
            if array.shape != shape or (array.dtype is not dtype and array.dtype != dtype):
                g = _reshape_gradient(node, i, g, shape, dtype)
        checked.append(g)
    return tuple(checked)


def _wrong_gradient(node, i, g):
    if node._inputs[i] is None:
        raise RuntimeError(f"function {type(node).__name__} returned a gradient different than None at "
                           f"position {i + 1}, but the corresponding forward input was not a Variable")
    raise RuntimeError(f"expected Variable or None (got {type(g).__name__})")


def _reshape_gradient(node, i, g, shape, dtype):
    """Sum a broadcast gradient back to its input's shape and cast it to its dtype, or explain why not."""
    if g._data.shape != shape:
        if not _expandable(shape, g._data.shape):
            raise RuntimeError(f"Function {type(node).__name__} returned an invalid gradient at index {i} - "
                               f"got {list(g.shape)} but expected shape compatible with {list(shape)}")
        g = g.sum_to_size(shape)       # the adjoint of broadcasting, recorded under create_graph
    if g._data.dtype != dtype:
        g = g.to(_BY_NUMPY[dtype])
    return g


def _expandable(shape, target):
    """True if a tensor of `shape` broadcasts to `target` (then a gradient of `target` can be summed back)."""
    if len(shape) > len(target):
        return False
    return all(s == t or s == 1 for s, t in zip(reversed(shape), reversed(target)))

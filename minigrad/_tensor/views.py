"""In-place changes through a view: the two nodes PyTorch records, `CopySlices` and `AsStridedBackward0`.

`x = a * 1; v = x[0]; v.mul_(2)` changes `x` too, so `x`'s history must change: its new `grad_fn` is a
`CopySlices` node that wraps the in-place op's node (here `MulBackward0`) and applies it to the viewed part of
the gradient only. `v`'s new `grad_fn` is an `AsStridedBackward0` node that reads `v` back out of the new `x`.
Where the view sits inside its base is kept as (offset, shape, strides) in elements, so the same positions can
be found in any gradient array of the base's shape. Both nodes compute with the differentiable ops of
`ops/strided.py`, so their gradients can be differentiated again.
"""
import numpy as np

from ..compat.callable_nodes import CallableNode
from ..core.graph import Node
from ..core.tensor import TensorBase
from ..ops.strided import AsStridedGather, AsStridedScatter, locate

STALE_VIEW = (
    "this view was taken before its base was changed in place, and minigrad cannot regenerate its history "
    "(its base is not laid out plainly in memory, or no longer has a history). Take the view again after the "
    "in-place change.")


class CopySlices(CallableNode, Node):
    """The base's node after an in-place op on one of its views: the op's backward, applied to that part only.

    Its edges are the base's old history, then the op's other inputs (as in PyTorch).
    """

    def __init__(self, base_edge, fn, where, base_meta):
        super().__init__()
        self.fn, self.where = fn, where
        self.next_functions = (base_edge,) + fn.next_functions[1:]
        self._output_shapes = (base_meta,)

    def name(self):
        return "torch::autograd::CopySlices"

    # the wrapped op's saved tensors are this node's: backward frees them through here
    _saved = property(lambda self: self.fn._saved, lambda self, value: setattr(self.fn, "_saved", value))
    _freed = property(lambda self: self.fn._freed, lambda self, value: setattr(self.fn, "_freed", value))

    def _run_backward(self, grads):
        (g,) = grads
        shape, dtype = self._output_shapes[0]
        grad_base = _tensor(np.zeros(shape, dtype)) if g is None else g
        result = self.fn._run_backward((AsStridedGather.apply(grad_base, self.where),))
        # the op's gradient for the view's old values goes back into the base's gradient, at the view's place
        part = _tensor(np.zeros(self.where[1], dtype)) if result[0] is None else result[0]
        return (AsStridedScatter.apply(grad_base, part, self.where),) + tuple(result[1:])


class AsStridedBackward0(CallableNode, Node):
    """The view's node after that change: the view read back out of its (new) base."""

    saved_attrs = {"size": "size", "stride": "stride", "storage_offset": "storage_offset"}

    def __init__(self, base_edge, where, view_meta, base_meta):
        super().__init__()
        self.where, self._base_meta = where, base_meta
        self.storage_offset, self.size, self.stride = where
        self.next_functions = (base_edge,)
        self._output_shapes = (view_meta,)

    def _run_backward(self, grads):
        (g,) = grads
        shape, dtype = self._base_meta
        zeros = _tensor(np.zeros(shape, dtype))
        return (zeros if g is None else AsStridedScatter.apply(zeros, g, self.where),)


class TensorViews:
    """What `Tensor` knows of views: its live views (for a base), and how a view catches up with its base."""

    _views = None              # for a base, its live views (a WeakSet), refreshed when it changes in place

    def _refresh_view(self):
        """Called by Function.apply when this view's base has a new history since the view was taken."""
        refresh_view(self)


def refresh_view(view):
    """Give a view whose base has changed in place since a new history: read back out of the base's new node.

    PyTorch does the same when such a view is used again; the view's values are already right (shared memory).
    """
    base = view._base
    where = locate(base._data, view._data)
    if base.grad_fn is None or where is None:
        raise RuntimeError(STALE_VIEW)
    meta = (view._data.shape, view._data.dtype), (base._data.shape, base._data.dtype)
    view.grad_fn = AsStridedBackward0((base.grad_fn, base._output_nr), where, *meta)
    view._output_nr, view._requires_grad, view._base_grad_fn = 0, True, base.grad_fn


def refresh_views(base, skip=None):
    """After an in-place change gave `base` a new history, give its live views theirs (as PyTorch shows them)."""
    for view in list(base._views or ()):
        if view is not skip and base.grad_fn is not view._base_grad_fn:
            try:
                refresh_view(view)
            except RuntimeError:
                pass                        # cannot be replayed: using the view later says so


def _tensor(array):
    return TensorBase._make(array)

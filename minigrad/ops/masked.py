"""`masked_fill`: put one value wherever a boolean mask is True (`scores.masked_fill(mask, float("-inf"))`).

The mask is a plain bool array: like PyTorch's, it gets no edge. Mask and tensor broadcast together.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.dtype import cpp_name
from ..core.function import Function
from ._common import broadcast_shapes, grad_to, wrap
from .indexing import IndexBackward
from .unary import Where

# the C++ names that ATen's dtype messages use
def _filled(x, mask, value):
    """x broadcast with mask, with `value` (cast to x's dtype, as torch casts it) where mask is True."""
    a = x._data
    if mask.dtype != np.bool_:
        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{cpp_name(mask.dtype)}")
    if mask.shape != a.shape:
        broadcast_shapes(mask.shape, a.shape)       # PyTorch's error, naming the mask as tensor a
    with np.errstate(invalid="ignore", over="ignore"):
        fill = np.array(value).astype(a.dtype)      # 2.7 into an int64 tensor is 2; True into floats is 1.0
    return wrap(np.where(mask, fill, a))


class MaskedFill(Function):
    """z = value where mask, else x  (value a Python number);  dz/dx = g where not mask, else 0"""
    node_name = "MaskedFillBackward0"
    saved_names = ("mask",)

    @staticmethod
    def forward(x, mask, value):
        return _filled(x, mask, value)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, mask, _ = inputs
        ctx.shape = x._data.shape
        ctx.save_for_backward(wrap(mask))           # as a tensor, as PyTorch saves it

    @staticmethod
    def backward(ctx, grad):
        mask = ctx.saved_tensors[0]._data
        return grad_to(MaskedFill.apply(grad, mask, 0), ctx.shape), None, None

    @staticmethod
    def jvp(ctx, tx, tmask, tvalue):
        return MaskedFill.apply(tx, ctx.primals[1], 0)


class MaskedFillTensor(Function):
    """z = value where mask, else x  (value a 0-d tensor);  dz/dx = g where not mask,  dz/dvalue = the sum of g
    where mask"""
    node_name = "MaskedFillBackward1"
    saved_names = ("mask",)

    @staticmethod
    def forward(x, mask, value):
        if value.dim() != 0:
            raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                               f"{value.dim()} dimension(s).")
        return _filled(x, mask, value._data)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, mask, _ = inputs
        ctx.shape = x._data.shape
        ctx.save_for_backward(wrap(mask))

    @staticmethod
    def backward(ctx, grad):
        mask = ctx.saved_tensors[0]._data
        needs_x, _, needs_value = ctx.needs_input_grad
        gx = grad_to(MaskedFill.apply(grad, mask, 0), ctx.shape) if needs_x else None
        # torch's masked_fill_backward: grad.masked_select(mask).sum()
        zero = wrap(np.zeros((), grad._data.dtype))
        gvalue = Where.apply(mask, grad, zero).sum() if needs_value else None
        return gx, None, gvalue

    jvp = linear


class MaskedSelect(Function):
    """z = the elements of x where mask is True (x and mask broadcast together), in order, as a 1-d tensor;
    dz/dx = the gradient put back at those places, zeros elsewhere. The mask is a plain bool array (no edge)."""
    node_name = "MaskedSelectBackward0"
    saved_names = ("mask", "self")

    @staticmethod
    def forward(x, mask):
        if mask.dtype != np.bool_:
            raise RuntimeError("masked_select: expected BoolTensor for mask")
        a = x._data
        if a.shape != mask.shape:
            broadcast_shapes(mask.shape, a.shape)       # PyTorch's error names the mask as tensor a
            a, mask = np.broadcast_arrays(a, mask)
        return wrap(a[mask])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, mask = inputs
        ctx.save_for_backward(wrap(mask), x)
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        mask = ctx.saved_tensors[0]._data
        full = np.broadcast_to(mask, broadcast_shapes(mask.shape, ctx.shape))
        return grad_to(IndexBackward.apply(grad, full.shape, full), ctx.shape), None

    @staticmethod
    def jvp(ctx, tx, tmask):
        return MaskedSelect.apply(tx, ctx.primals[1])

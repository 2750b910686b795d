"""The built-in ops behind `F.pad`: constant padding, and reflection and replication padding; circular padding is
built from slices and copies, as in ATen.

`pad` lists (left, right) amounts from the last dim backwards, as PyTorch's does: (1, 2) pads the last dim,
(1, 2, 3, 4) the last two. A negative amount removes elements instead.

Constant padding and cropping are each other's adjoint, so the backward of `ConstantPadNd` is `ConstantPadNd`
with the amounts negated. Reflection and replication padding copy input elements: along each padded dim,
output position j reads input position `source[j]`; the backward adds each gradient back onto its source
(`IndexPadBackward`), and the backward of that is the padding again.
"""
import numpy as np

from ...core.forward_ad import linear
from ...core.function import Function
from ...ops._common import wrap


def _pairs(pad, ndim):
    """[(axis, left, right), ...] for PyTorch's flat `pad` list, last dim first."""
    return [(ndim - 1 - i, pad[2 * i], pad[2 * i + 1]) for i in range(len(pad) // 2)]


class ConstantPadNd(Function):
    """z = x with `value` added around it (or cut, for negative amounts);  dz/dx = g with the added border cut
    off (and zeros where x was cut): constant padding with the amounts negated"""
    node_name = "ConstantPadNdBackward0"
    saved_attrs = {"pad": "pad"}

    @staticmethod
    def forward(x, pad, value):
        a = x._data
        crop = [slice(None)] * a.ndim
        widths = [(0, 0)] * a.ndim
        for axis, left, right in _pairs(pad, a.ndim):
            crop[axis] = slice(max(-left, 0), a.shape[axis] - max(-right, 0))
            widths[axis] = (max(left, 0), max(right, 0))
        return wrap(np.pad(a[tuple(crop)], widths, constant_values=np.array(value).astype(a.dtype)))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.pad, _ = inputs

    @staticmethod
    def backward(ctx, grad):
        return ConstantPadNd.apply(grad, tuple(-p for p in ctx.pad), 0), None, None

    @staticmethod
    def jvp(ctx, tx, tpad, tvalue):
        return ConstantPadNd.apply(tx, ctx.pad, 0)


def reflect_source(size, left, right):
    """Along one dim, the input position each output position of reflection padding reads: ... 2 1 [0 1 2 ...]."""
    j = np.arange(-left, size + right)
    return np.where(j < 0, -j, np.where(j >= size, 2 * (size - 1) - j, j))


def replicate_source(size, left, right):
    """Along one dim, the input position each output position of replication padding reads: 0 0 [0 1 2 ...]."""
    return np.clip(np.arange(-left, size + right), 0, size - 1)


class _IndexPad(Function):
    """z = x read at `source[j]` along each padded dim;  dz/dx = g added back onto its sources

    Subclasses name the mode and the number of padded dims, as PyTorch's node names do."""
    saved_names = ("self",)
    saved_attrs = {"padding": "padding"}
    source = None

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        # the op that is this one's backward (and whose backward is this one), named as PyTorch names it
        cls._adjoint = type(f"{cls.__name__}Backward", (IndexPadBackward,),
                            {"node_name": cls.node_name.replace("Backward0", "BackwardBackward0"), "_pad": cls,
                             "__module__": cls.__module__})

    @classmethod
    def forward(cls, x, padding):
        a = x._data
        for axis, left, right in _pairs(padding, a.ndim):
            a = np.take(a, cls.source(a.shape[axis], left, right), axis)
        return wrap(a)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.padding = inputs
        ctx.shape = x._data.shape
        ctx.save_for_backward(x)

    @classmethod
    def backward(cls, ctx, grad):
        return cls._adjoint.apply(grad, ctx.padding, ctx.shape), None

    jvp = linear


class IndexPadBackward(Function):
    """gI = g added onto the input positions it was read from (PyTorch's `reflection_pad2d_backward`, ...);
    linear in g, so d gI / dg (vector-Jacobian, for G) = G padded the same way"""
    _pad = None

    @classmethod
    def forward(cls, grad, padding, shape):
        g = grad._data
        for axis, left, right in _pairs(padding, g.ndim):
            size = shape[axis]
            out = np.zeros(g.shape[:axis] + (size,) + g.shape[axis + 1:], g.dtype)
            # add.at along `axis` (moved first, as views of out and g): several outputs may share a source
            np.add.at(np.moveaxis(out, axis, 0), cls._pad.source(size, left, right), np.moveaxis(g, axis, 0))
            g = out
        return wrap(g)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.padding, _ = inputs

    @classmethod
    def backward(cls, ctx, grad):
        return cls._pad.apply(grad, ctx.padding), None, None

    jvp = linear


class ReflectionPad1D(_IndexPad):
    node_name, source = "ReflectionPad1DBackward0", staticmethod(reflect_source)


class ReflectionPad2D(_IndexPad):
    node_name, source = "ReflectionPad2DBackward0", staticmethod(reflect_source)


class ReflectionPad3D(_IndexPad):
    node_name, source = "ReflectionPad3DBackward0", staticmethod(reflect_source)


class ReplicationPad1D(_IndexPad):
    node_name, source = "ReplicationPad1DBackward0", staticmethod(replicate_source)


class ReplicationPad2D(_IndexPad):
    node_name, source = "ReplicationPad2DBackward0", staticmethod(replicate_source)


class ReplicationPad3D(_IndexPad):
    node_name, source = "ReplicationPad3DBackward0", staticmethod(replicate_source)


INDEX_PADS = {"reflect": (ReflectionPad1D, ReflectionPad2D, ReflectionPad3D),
              "replicate": (ReplicationPad1D, ReplicationPad2D, ReplicationPad3D),
}


def pad_circular(input, pad):
    """Circular padding as ATen's `_pad_circular` builds it, so that the graph is PyTorch's (`CopySlices` over
    `SliceBackward0`): copy the input (cut where amounts are negative) into the middle of an empty tensor, then,
    dim by dim, copy the far end of the result onto its left border and the near end onto its right border."""
    ndim, k = input.dim(), len(pad) // 2
    shape = list(input.shape)
    for i in range(k):
        shape[ndim - 1 - i] += pad[2 * i] + pad[2 * i + 1]
    out = input.new_empty(shape)
    out_middle, in_middle = out, input
    for i in range(k):
        dim, left, right = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        out_middle = _slice(out_middle, dim, max(left, 0), shape[dim] - max(right, 0))
        in_middle = _slice(in_middle, dim, max(-left, 0), input.shape[dim] - max(-right, 0))
    out_middle.copy_(in_middle)
    for i in range(k):
        dim, left, right = ndim - 1 - i, pad[2 * i], pad[2 * i + 1]
        if left > 0:
            end = shape[dim] - max(right, 0)
            _slice(out, dim, 0, left).copy_(_slice(out, dim, end - left, end))
        if right > 0:
            _slice(out, dim, shape[dim] - right, shape[dim]).copy_(_slice(out, dim, max(left, 0), max(left, 0) + right))
    return out


def _slice(t, dim, start, end):
    """ATen's `slice(dim, start, end)`: recorded (as SliceBackward0) even when it keeps the whole dim."""
    return t.narrow(dim, start, end - start)

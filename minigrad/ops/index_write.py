"""Ops that write values into chosen places of a copy (and `take`, which reads them): index_copy and index_fill
(whole slices along a dim), put and take (flat positions), masked_scatter (where a mask is True, in order), and
select_scatter, slice_scatter, diagonal_scatter (a select, a slice or a diagonal replaced: the out-of-place
adjoints of those views).

Each backward is PyTorch's formula (derivatives.yaml): the copy's gradient is the incoming one with the written
places zeroed, the written values' gradient is the incoming one read at those places. Both are again ops of
this file (or index_select, masked_select), so every order of derivative exists.
"""
import numpy as np

from ..core.forward_ad import linear
from ..core.function import Function
from ._common import dim_index, wrap
from .diagonal import diagonal_of
from .join import Cat


def _slab(a, dim, index):
    """numpy: the index expression that picks positions `index` along `dim`."""
    key = [slice(None)] * a.ndim
    key[dim] = index
    return tuple(key)


class IndexCopy(Function):
    """z = x with z.select(dim, index[k]) = source.select(dim, k);  dz/dx = g with those slices zeroed,
    dz/dsource = g.index_select(dim, index)"""
    node_name = "IndexCopyBackward0"
    saved_names = ("index", "source")
    saved_attrs = {"dim": "dim", "source_dim": "source_dim"}

    @staticmethod
    def forward(x, dim, index, source):
        out = x._data.copy()
        if out.ndim == 0:
            out[...] = source._data.reshape(())
            return wrap(out)
        d = dim_index(dim, out.ndim)
        out[_slab(out, d, index)] = np.moveaxis(source._data, d, d) if source._data.ndim else source._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.dim, index, source = inputs
        ctx.index, ctx.source_dim = index, source.dim()
        ctx.save_for_backward(wrap(index), source)

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_source = ctx.needs_input_grad
        index = wrap(ctx.index)
        gx = IndexFill.apply(grad, ctx.dim, ctx.index, 0) if needs_x else None
        gs = None
        if needs_source:
            gs = grad.index_select(ctx.dim, index) if grad.dim() else grad.reshape(1)
            if ctx.source_dim == 0:
                gs = gs.reshape(())
        return gx, None, None, gs

    jvp = linear


class IndexFill(Function):
    """z = x with the slices at `index` along dim set to a number;  dz/dx = g with those slices zeroed"""
    node_name = "IndexFillBackward0"
    saved_attrs = {"dim": "dim", "index": "index"}

    @staticmethod
    def forward(x, dim, index, value):
        out = x._data.copy()
        if out.ndim == 0:
            out[...] = value
        else:
            out[_slab(out, dim_index(dim, out.ndim), index)] = value
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.dim, index, _ = inputs
        ctx.index_array, ctx.index = index, wrap(index)

    @staticmethod
    def backward(ctx, grad):
        return IndexFill.apply(grad, ctx.dim, ctx.index_array, 0), None, None, None

    @staticmethod
    def jvp(ctx, tx, *_):
        """The filled places are constants: their tangent is 0."""
        _, dim, index, _ = ctx.primals
        return IndexFill.apply(tx, dim, index, 0)


class IndexFillTensor(IndexFill):
    """z = x with the slices at `index` along dim set to a 0-d tensor v;  dz/dx = g with those slices zeroed,
    dz/dv = the sum of g over them"""
    node_name = "IndexFillBackward1"

    @staticmethod
    def forward(x, dim, index, value):
        return IndexFill.forward(x, dim, index, value._data)

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, _, needs_v = ctx.needs_input_grad
        gx = IndexFill.apply(grad, ctx.dim, ctx.index_array, 0) if needs_x else None
        gv = None
        if needs_v:
            picked = grad.index_select(ctx.dim, ctx.index) if grad.dim() else grad
            gv = picked.sum()
        return gx, None, None, gv

    jvp = linear        # the filled places carry v's tangent


class Take(Function):
    """z = x.flatten()[index], shaped as index;  dz/dx = zeros with g added at those flat places"""
    node_name = "TakeBackward0"
    saved_names = ("index", "self")

    @staticmethod
    def forward(x, index):
        return wrap(x._data.reshape(-1)[index])

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.index = inputs
        ctx.save_for_backward(wrap(ctx.index), x)
        ctx.shape = x._data.shape

    @staticmethod
    def backward(ctx, grad):
        zeros = wrap(np.zeros(ctx.shape, grad._data.dtype))
        return Put.apply(zeros, ctx.index, grad, True), None

    jvp = linear


class Put(Function):
    """z = x with z.flatten()[index] = source (or += with accumulate);  dz/dx = g (zeroed at index unless
    accumulating),  dz/dsource = g.take(index)"""
    node_name = "PutBackward0"
    saved_names = ("index", "source")
    saved_attrs = {"accumulate": "accumulate"}

    @staticmethod
    def forward(x, index, source, accumulate):
        out = x._data.copy()
        flat = out.reshape(-1)
        if accumulate:
            np.add.at(flat, index.reshape(-1), source._data.reshape(-1))
        else:
            flat[index.reshape(-1)] = source._data.reshape(-1)
        return wrap(flat.reshape(out.shape))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.index, source, ctx.accumulate = inputs
        ctx.save_for_backward(wrap(ctx.index), source)
        ctx.source_shape = source._data.shape

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, needs_source, _ = ctx.needs_input_grad
        gx = gs = None
        if needs_x:
            zeros = wrap(np.zeros(ctx.source_shape, grad._data.dtype))
            gx = grad if ctx.accumulate else Put.apply(grad, ctx.index, zeros, False)
        if needs_source:
            gs = Take.apply(grad, ctx.index).reshape(ctx.source_shape)
        return gx, None, gs, None

    jvp = linear


class MaskedScatter(Function):
    """z = x with the places where mask is True taken, in order, from source's first elements;
    dz/dx = g with those places zeroed,  dz/dsource = g at those places, in order, then zeros"""
    node_name = "MaskedScatterBackward0"
    saved_names = ("mask",)
    saved_attrs = {"source_sym_sizes": "source_shape"}

    @staticmethod
    def forward(x, mask, source):
        a, m = np.broadcast_arrays(x._data, mask)
        out = a.copy()
        out[m] = source._data.reshape(-1)[:int(m.sum())]
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, mask, source = inputs
        ctx.mask = np.broadcast_to(mask, output._data.shape)
        ctx.save_for_backward(wrap(mask))
        ctx.source_shape, ctx.x_shape = source._data.shape, x._data.shape

    @staticmethod
    def backward(ctx, grad):
        needs_x, _, needs_source = ctx.needs_input_grad
        mask = wrap(ctx.mask)
        gx = grad.masked_fill(mask, 0).sum_to_size(ctx.x_shape) if needs_x else None
        gs = None
        if needs_source:
            picked = grad.masked_select(mask)
            rest = int(np.prod(ctx.source_shape)) - picked.numel()
            gs = Cat.apply(0, picked, wrap(np.zeros(rest, grad._data.dtype))) if rest else picked
            gs = gs.reshape(ctx.source_shape)
        return gx, None, gs

    jvp = linear


class _ViewScatter(Function):
    """z = x with a view of it replaced by src;  dz/dx = g with that view zeroed,  dz/dsrc = the view of g.
    A subclass names the view: `view(array, *args)` (numpy) and `view_op(tensor, *args)` (recorded)."""

    @classmethod
    def forward(cls, x, src, *args):
        out = x._data.copy()
        target = cls.view(out, *args)
        if target.shape != src._data.shape:
            raise RuntimeError(f"expected src to have a size equal to the slice of self. src size = "
                               f"{list(src._data.shape)}, slice size = {list(target.shape)}")
        target[...] = src._data
        return wrap(out)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.args, ctx.src_shape = inputs[2:], inputs[1]._data.shape

    @staticmethod
    def backward(ctx, grad):
        cls = ctx._forward_cls
        needs_x, needs_src = ctx.needs_input_grad[:2]
        zeros = wrap(np.zeros(ctx.src_shape, grad._data.dtype))
        gx = cls.apply(grad, zeros, *ctx.args) if needs_x else None
        gs = cls.view_op(grad, *ctx.args) if needs_src else None
        return (gx, gs) + (None,) * len(ctx.args)

    jvp = linear


class SelectScatter(_ViewScatter):
    node_name = "SelectScatterBackward0"
    saved_attrs = {"dim": "dim", "index": "index"}

    @staticmethod
    def view(a, dim, index):
        return a[_slab(a, dim_index(dim, a.ndim), index)]

    @staticmethod
    def view_op(t, dim, index):
        return t.select(dim, index)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _ViewScatter.setup_context(ctx, inputs, output)
        ctx.dim, ctx.index = ctx.args


class SliceScatter(_ViewScatter):
    node_name = "SliceScatterBackward0"
    saved_attrs = {"dim": "dim", "start": "start", "end": "end", "step": "step"}

    @staticmethod
    def view(a, dim, start, end, step):
        return a[_slab(a, dim_index(dim, a.ndim), slice(start, end, step))]

    @staticmethod
    def view_op(t, dim, start, end, step):
        d = dim_index(dim, t.dim())
        key = (slice(None),) * d + (slice(start, end, step),)
        return t[key]

    @staticmethod
    def setup_context(ctx, inputs, output):
        _ViewScatter.setup_context(ctx, inputs, output)
        ctx.dim, ctx.start, ctx.end, ctx.step = ctx.args


class DiagonalScatter(_ViewScatter):
    node_name = "DiagonalScatterBackward0"
    saved_attrs = {"offset": "offset", "dim1": "dim1", "dim2": "dim2"}

    @staticmethod
    def view(a, offset, dim1, dim2):
        return diagonal_of(a, offset, dim_index(dim1, a.ndim), dim_index(dim2, a.ndim))

    @staticmethod
    def view_op(t, offset, dim1, dim2):
        return t.diagonal(offset, dim1, dim2)

    @staticmethod
    def setup_context(ctx, inputs, output):
        _ViewScatter.setup_context(ctx, inputs, output)
        ctx.offset, ctx.dim1, ctx.dim2 = ctx.args

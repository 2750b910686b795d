"""`F.interpolate` (and the deprecated `F.upsample*`): resample the spatial dims of an (N, C, *) input onto a grid
of another size, by nearest neighbours, linear (bilinear, trilinear) or bicubic interpolation.

Why one op for every mode. Along one dim, output position i reads a few input positions, its taps, with fixed
weights: `nearest` reads one (weight 1), `linear` two (1 - t and t, t the fractional source position), `bicubic`
four (Keys' cubic convolution, A = -0.75). A 2-D or 3-D mode resamples one dim after the other, the last first,
as ATen's kernel nests them. So interpolation is linear in x: its backward `UpsampleBackward` spreads each
output's gradient back onto the taps it read, with the same weights, and the backward of that is `Upsample`
again. Every derivative, to any order, is made of these two, as a convolution's are of im2col and col2im.
PyTorch has one node per mode and dims (`UpsampleBilinear2DBackward0`, ...): the subclasses that `_node_pair`
makes carry its names, one pair per entry of `OPS`.
"""
import math
import warnings

import numpy as np

from ...core.forward_ad import linear
from ...core.function import Function
from ...ops._common import wrap
from ..._tensor.tensor import Tensor
from .arguments import scalar_name, sizes
from .pooling import adaptive_avg_pool2d

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]


# ---- where each output position reads, along one dim (ATen's UpSample.h, in its arithmetic) -----------------
def source_taps(mode, in_size, out_size, scale, align_corners, dtype):
    """The input positions (out_size, taps) that `mode` reads along one dim, and their weights (None: one tap of
    weight 1). `scale` is the user's scale factor or None; the arithmetic is ATen's, in float32 for the nearest
    modes and in `dtype` for the others."""
    i = np.arange(out_size)
    if mode in ("nearest", "nearest-exact"):
        return _nearest(i, in_size, out_size, scale, mode == "nearest-exact")[:, None], None
    t = dtype.type
    if align_corners:
        ratio = t(in_size - 1) / t(out_size - 1) if out_size > 1 else t(0)
        real = ratio * i.astype(dtype)
    else:
        ratio = t(1.0 / scale) if scale is not None and scale > 0 else t(in_size) / t(out_size)
        real = ratio * (i.astype(dtype) + t(0.5)) - t(0.5)
    if mode == "cubic":
        index = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
        frac = np.clip(real - index.astype(dtype), t(0), t(1))
        return np.clip(index[:, None] + np.arange(-1, 3), 0, in_size - 1), _cubic_weights(frac, t)
    if out_size == in_size:     # the same size: a copy, as ATen special-cases it
        return np.stack([i, i], 1), np.stack([np.ones(out_size, dtype), np.zeros(out_size, dtype)], 1)
    real = real if align_corners else np.maximum(real, t(0))
    index = np.minimum(np.floor(real).astype(np.int64), in_size - 1)
    frac = np.clip(real - index.astype(dtype), t(0), t(1))
    return np.stack([index, index + (index < in_size - 1)], 1), np.stack([t(1) - frac, frac], 1)


def _nearest(i, in_size, out_size, scale, exact):
    """floor(i * s) ('nearest') or floor((i + 0.5) s) ('nearest-exact'), s = in / out or 1 / scale, in float32."""
    if not exact and out_size == in_size:
        return i
    if not exact and out_size == 2 * in_size:
        return i >> 1
    s = np.float32(1.0 / scale) if scale is not None and scale > 0 else np.float32(in_size) / np.float32(out_size)
    real = ((i + 0.5) * np.float64(s)).astype(np.float32) if exact else i.astype(np.float32) * s
    return np.minimum(np.floor(real).astype(np.int64), in_size - 1)


def _cubic_weights(t, scalar, a=-0.75):
    """Keys' cubic convolution weights of the taps at -1, 0, 1, 2 around a point a fraction t past tap 0."""
    a, one, two = scalar(a), scalar(1), scalar(2)

    def near(x):        # |x| <= 1
        return ((a + two) * x - (a + scalar(3))) * x * x + one

    def far(x):         # 1 < |x| < 2
        return ((a * x - scalar(5) * a) * x + scalar(8) * a) * x - scalar(4) * a
    return np.stack([far(t + one), near(t), near(one - t), far(two - t)], 1)


def taps(mode, in_sizes, out_sizes, scales, align_corners, dtype):
    """`source_taps` of each spatial dim (half precision computes in float32, as ATen's opmath type)."""
    dtype = np.dtype(np.float32) if dtype == np.float16 else dtype
    family = {"bilinear": "linear", "trilinear": "linear", "bicubic": "cubic"}.get(mode, mode)
    return [source_taps(family, i, o, s, align_corners, dtype) for i, o, s in zip(in_sizes, out_sizes, scales)]


def resample(a, dim_taps):
    """numpy: `a` resampled along dims 2, 3, ... (the last first): out[.., i] = sum over k of w[i, k] a[.., j[i, k]]."""
    for axis in reversed(range(len(dim_taps))):
        index, weight = dim_taps[axis]
        moved = np.moveaxis(a, axis + 2, -1)
        out = moved[..., index[:, 0]] if weight is None else moved[..., index[:, 0]] * weight[:, 0]
        for k in range(1, index.shape[1]):
            out = out + moved[..., index[:, k]] * weight[:, k]
        a = np.moveaxis(out, -1, axis + 2)
    return np.ascontiguousarray(a)


def spread(g, dim_taps, in_sizes):
    """numpy: the adjoint of `resample`: each value of g added back onto the taps it was read from, weighted."""
    for axis, (index, weight) in enumerate(dim_taps):
        moved = np.moveaxis(g, axis + 2, -1)
        out = np.zeros(moved.shape[:-1] + (in_sizes[axis],), moved.dtype)
        for k in range(index.shape[1]):
            np.add.at(out, (Ellipsis, index[:, k]), moved if weight is None else moved * weight[:, k])
        g = np.moveaxis(out, -1, axis + 2)
    return np.ascontiguousarray(g)


# ---- the two ops: Upsample and its adjoint ------------------------------------------------------------------
class Upsample(Function):
    """z = x resampled onto output_size: z[.., i, j] = sum over the taps (p, q) of wh[i, p] ww[j, q]
    x[.., ih[i, p], iw[j, q]], the taps and weights of the mode (`source_taps`); linear, so dz/dx (vector-
    Jacobian) = UpsampleBackward(g): g spread back onto the taps with the same weights"""
    adjoint = None          # the UpsampleBackward class of the same mode and dims

    @staticmethod
    def forward(x, output_size, align_corners, scales, mode):
        a = x._data
        out = resample(a, taps(mode, a.shape[2:], output_size, scales, align_corners, a.dtype))
        return wrap(out.astype(a.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, ctx.output_size, ctx.align_corners, ctx.scale_factors, ctx.mode = inputs
        ctx.self_sym_sizes = x._data.shape
        _name_scales(ctx)

    @staticmethod
    def backward(ctx, grad):
        spread_back = ctx._forward_cls.adjoint
        gx = spread_back.apply(grad, ctx.self_sym_sizes, ctx.output_size, ctx.align_corners, ctx.scale_factors,
                               ctx.mode)
        return gx, None, None, None, None

    jvp = linear


class UpsampleBackward(Function):
    """z = g spread back onto the input grid: z[.., a, b] = sum over the outputs (i, j) that read (a, b) of
    wh[i, p] ww[j, q] g[.., i, j] (the adjoint of Upsample); linear, so dz/dg = Upsample(gg)"""
    primal = None           # the Upsample class of the same mode and dims

    @staticmethod
    def forward(grad, input_size, output_size, align_corners, scales, mode):
        g = grad._data
        out = spread(g, taps(mode, input_size[2:], output_size, scales, align_corners, g.dtype), input_size[2:])
        return wrap(out.astype(g.dtype, copy=False))

    @staticmethod
    def setup_context(ctx, inputs, output):
        _, ctx.input_size, ctx.output_size, ctx.align_corners, ctx.scale_factors, ctx.mode = inputs
        _name_scales(ctx)

    @staticmethod
    def backward(ctx, grad):
        up = ctx._forward_cls.primal
        return (up.apply(grad, ctx.output_size, ctx.align_corners, ctx.scale_factors, ctx.mode),
                None, None, None, None, None)

    jvp = linear


def _scale_names(dims):
    return ("scales",) if dims == 1 else ("scales_d", "scales_h", "scales_w")[3 - dims:]


def _name_scales(ctx):
    """The scales as PyTorch's node names them: `scales` (1-D), `scales_h` and `scales_w`, ..."""
    for name, scale in zip(_scale_names(len(ctx.scale_factors)), ctx.scale_factors):
        setattr(ctx, name, scale)


def _node_pair(name, dims, interpolating):
    """The Upsample and UpsampleBackward classes of one of PyTorch's nodes, e.g. 'UpsampleBilinear2D'."""
    attrs = {"output_size": "output_size", **{s: s for s in _scale_names(dims)}}
    if interpolating:
        attrs = {"align_corners": "align_corners", **attrs}
    backward = type(f"{name}Backward", (UpsampleBackward,), {"node_name": f"{name}BackwardBackward0",
                                                             "saved_attrs": attrs, "__module__": __name__})
    forward = type(name, (Upsample,), {"node_name": f"{name}Backward0", "adjoint": backward, "__module__": __name__,
                                       "saved_attrs": {**attrs, "self_sym_sizes": "self_sym_sizes"}})
    backward.primal = forward
    return forward


# (mode, spatial dims): the op, and the name of the ATen kernel that refuses integer inputs
OPS = {(mode, dims): (_node_pair(name, dims, mode not in ("nearest", "nearest-exact")), kernel)
       for mode, dims, name, kernel in [
           ("nearest", 1, "UpsampleNearest1D", "compute_indices_weights_nearest"),
           ("nearest", 2, "UpsampleNearest2D", "upsample_nearest2d_channels_last"),
           ("nearest", 3, "UpsampleNearest3D", "compute_indices_weights_nearest"),
           ("nearest-exact", 1, "UpsampleNearestExact1D", "compute_indices_weights_nearest"),
           ("nearest-exact", 2, "UpsampleNearestExact2D", "upsample_nearest2d_channels_last"),
           ("nearest-exact", 3, "UpsampleNearestExact3D", "compute_indices_weights_nearest"),
           ("linear", 1, "UpsampleLinear1D", "compute_indices_weights_linear"),
           ("bilinear", 2, "UpsampleBilinear2D", "upsample_bilinear2d_channels_last"),
           ("trilinear", 3, "UpsampleTrilinear3D", "compute_indices_weights_linear"),
           ("bicubic", 2, "UpsampleBicubic2D", "compute_indices_weights_cubic")]}


# ---- `F.interpolate`: PyTorch's Python checks, then ATen's, then the op ------------------------------------
def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None, recompute_scale_factor=None,
                antialias=False):
    """Resample the spatial dims of `input` to `size`, or to their sizes times `scale_factor`.
    Mirrors `torch.nn.functional.interpolate`.

    Args:
        input: (N, C, L), (N, C, H, W) or (N, C, D, H, W).
        size: the output's spatial size (an int for every dim, or one per dim); or
        scale_factor: a multiplier (or one per dim); the output size is floor(size * scale_factor).
        mode: 'nearest' (default), 'nearest-exact', 'linear' (3-D), 'bilinear' (4-D), 'bicubic' (4-D),
            'trilinear' (5-D) or 'area' (adaptive average pooling).
        align_corners: for the interpolating modes, whether the corner pixels' centres of input and output meet
            (True) or their outer edges do (False, the default).
        recompute_scale_factor: with scale_factor, interpolate as if the computed size had been given.

    Example:
        >>> F.interpolate(torch.tensor([[[1.0, 2.0]]]), scale_factor=2, mode="linear")
        tensor([[[1.0000, 1.2500, 1.7500, 2.0000]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating modes: linear | bilinear | "
                             "bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dims = input.dim() - 2
    output_size, scales = _size_or_scales(input, size, scale_factor, dims)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if mode == "area" and output_size is None:
        recompute_scale_factor = True
    if recompute_scale_factor:
        output_size, scales = [int(input.size(i + 2) * scales[i]) for i in range(dims)], None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires a 4-D "
                         "tensor as input")
    if mode == "area" and dims in (1, 2):
        if dims == 1:       # ATen's adaptive_avg_pool1d: the 2-D one over a height of 1
            return adaptive_avg_pool2d(input.unsqueeze(-2), (1, output_size[0])).squeeze(-2)
        return adaptive_avg_pool2d(input, output_size)
    if (mode, dims) in OPS:
        if antialias:
            raise NotImplementedError(f"minigrad's F.interpolate does not support antialias=True (mode='{mode}')")
        return _upsample(input, mode, output_size, scales, align_corners)
    _unsupported(input, mode, align_corners, antialias)


def _size_or_scales(input, size, scale_factor, dims):
    """Exactly one of size and scale_factor, as a list of one value per spatial dim (the other None)."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if not isinstance(size, (list, tuple)):
            return [size] * dims, None
        if len(size) != dims:
            raise ValueError("Input and output must have the same number of spatial dimensions, but got input with "
                             f"spatial dimensions of {list(input.shape[2:])} and output size of {size}. Please "
                             "provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                             "(o1, o2, ...,oK) format.")
        if not all(_is_integer(s) for s in size):
            raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                            f"int], but got size with types {[type(s) for s in size]}")
        return [int(s) for s in size], None
    if scale_factor is not None:
        if not isinstance(scale_factor, (list, tuple)):
            return None, [scale_factor] * dims
        if len(scale_factor) != dims:
            raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input "
                             f"with spatial dimensions of {list(input.shape[2:])} and scale_factor of shape "
                             f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
                             "scale_factor in (s1, s2, ...,sK) format.")
        return None, list(scale_factor)
    raise ValueError("either size or scale_factor should be defined")


def _is_integer(x):
    return isinstance(x, (int, np.integer)) or (isinstance(x, Tensor) and not x.is_floating_point())


def _upsample(input, mode, output_size, scales, align_corners):
    """ATen's `upsample_*`: the output size from the scales (truncated), its checks, then the op."""
    op, kernel = OPS[(mode, input.dim() - 2)]
    in_sizes = tuple(input.shape[2:])
    if output_size is None:
        products = [s * float(f) for s, f in zip(in_sizes, scales)]
        if not all(math.isfinite(p) and abs(p) < 2 ** 63 for p in products):
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        output_size, scales = [int(p) for p in products], tuple(float(f) for f in scales)
    else:
        scales = (None,) * len(in_sizes)
    if min(in_sizes) <= 0 or min(output_size) <= 0:
        names = "DHW"[3 - len(in_sizes):]
        given = [", ".join(f"{n}: {s}" for n, s in zip(names, values)) for values in (in_sizes, output_size)]
        joint = " and " if len(in_sizes) == 1 else " "
        raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({given[0]}){joint}"
                           f"output ({given[1]})")
    if input.numel() == 0 and math.prod(input.shape[1:]) == 0:
        raise RuntimeError(f"Non-empty {input.dim()}D data tensor expected but got a tensor with sizes "
                           f"{sizes(input.shape)}")
    kind = input._data.dtype
    if kind == np.uint8 and mode in ("bilinear", "bicubic"):
        raise NotImplementedError(f"minigrad's F.interpolate does not resample uint8 tensors with mode='{mode}' "
                                  "(PyTorch rounds them in a fixed-point kernel of its own)")
    if kind.kind != "f" and not (kind == np.uint8 and mode in ("nearest", "nearest-exact")):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{scalar_name(input)}'")
    return op.apply(input, tuple(output_size), align_corners, scales, mode)


def _unsupported(input, mode, align_corners, antialias):
    """The modes and dims that have no op: PyTorch's errors, in its order (and minigrad's for what it lacks)."""
    dim = input.dim()
    if dim == 4 and mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
    if (dim == 5 and mode == "area") or (dim == 4 and mode == "lanczos"):
        raise NotImplementedError(f"minigrad's F.interpolate does not support mode='{mode}' for {dim}-D inputs")
    needs = {"linear": 3, "bilinear": 4, "trilinear": 5}
    if dim in (3, 4, 5) and mode in needs:
        raise NotImplementedError(f"Got {dim}D input, but {mode} mode needs {needs[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {dim}D) for the modes: "
                              "nearest | linear | bilinear | bicubic | trilinear | lanczos | area | nearest-exact "
                              f"(got {mode})")


# ---- the deprecated spellings ---------------------------------------------------------------------------------
def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """`interpolate`, with a deprecation warning. Mirrors `torch.nn.functional.upsample`."""
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """`interpolate(mode='nearest')`, with a deprecation warning. Mirrors `F.upsample_nearest`."""
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """`interpolate(mode='bilinear', align_corners=True)`, with a deprecation warning. Mirrors
    `F.upsample_bilinear`."""
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.",
                  stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)

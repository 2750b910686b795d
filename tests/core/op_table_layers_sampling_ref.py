"""numpy references for the rows of op_table_layers_sampling.py: textbook definitions in float64, written as loops
or dense matrices, so that they share no code with minigrad's taps, gathers and np.add.at."""
import numpy as np

from . import op_table_layers_ref as R


def conv1d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1, mode="zeros"):
    """The 2-D textbook convolution of op_table_layers_ref over a height of 1 (a padding mode pads first)."""
    unbatched = x.ndim == 2
    x = x[None] if unbatched else x
    if mode != "zeros":
        x = np.pad(x, ((0, 0), (0, 0), (padding, padding)), mode={"reflect": "reflect", "replicate": "edge"}[mode])
        padding = 0
    out = R.conv2d(x[:, :, None], w[:, :, None], b, (1, stride), (0, padding), (1, dilation), groups)[:, :, 0]
    return out[0] if unbatched else out


def group_norm(x, groups, w=None, b=None, eps=1e-5):
    """(x - mean) / sqrt(var + eps) over each sample's group of channels, then weight and bias per channel."""
    n, c = x.shape[:2]
    xd = x.astype(np.float64).reshape(n, groups, -1)
    out = ((xd - xd.mean(-1, keepdims=True)) / np.sqrt(xd.var(-1, keepdims=True) + eps)).reshape(x.shape)
    shape = (1, c) + (1,) * (x.ndim - 2)
    out = out * (1 if w is None else np.reshape(w, shape)) + (0 if b is None else np.reshape(b, shape))
    return out.astype(x.dtype)


def instance_norm(x, w=None, b=None, eps=1e-5, mean=None, var=None):
    """Each (sample, channel) over its positions; with mean/var, the given running statistics instead."""
    axes = tuple(range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    xd = x.astype(np.float64)
    m = xd.mean(axes, keepdims=True) if mean is None else np.reshape(mean, shape)
    v = xd.var(axes, keepdims=True) if var is None else np.reshape(var, shape)
    out = (xd - m) / np.sqrt(v + eps)
    out = out * (1 if w is None else np.reshape(w, shape)) + (0 if b is None else np.reshape(b, shape))
    return out.astype(x.dtype)


def instance_norm_running(x, momentum):
    """The output and the running statistics after one step from (0, 1): each moves by momentum towards the
    mean over the samples of their means and unbiased variances."""
    axes = tuple(range(2, x.ndim))
    xd = x.astype(np.float64)
    count = np.prod(x.shape[2:])
    mean, var = xd.mean(axes).mean(0), (xd.var(axes) * count / (count - 1)).mean(0)
    return (instance_norm(x), (momentum * mean).astype(x.dtype),
            (1 - momentum + momentum * var).astype(x.dtype))


# ---- interpolation: one dense (out, in) matrix per dim, from the definitions of the modes ------------------
def _source(i, in_size, out_size, align_corners, scale):
    """Where output position i samples the input, in input coordinates."""
    if align_corners:
        return i * (in_size - 1) / (out_size - 1) if out_size > 1 else 0.0
    ratio = 1 / scale if scale else in_size / out_size
    return (i + 0.5) * ratio - 0.5


def _keys(d, a=-0.75):
    """Keys' cubic convolution kernel."""
    d = abs(d)
    if d <= 1:
        return (a + 2) * d ** 3 - (a + 3) * d ** 2 + 1
    return a * d ** 3 - 5 * a * d ** 2 + 8 * a * d - 4 * a if d < 2 else 0.0


def interpolation_matrix(mode, in_size, out_size, align_corners=False, scale=None):
    m = np.zeros((out_size, in_size))
    for i in range(out_size):
        if mode in ("nearest", "nearest-exact"):
            ratio = 1 / scale if scale else in_size / out_size
            m[i, min(int(np.floor((i + (0.5 if mode == "nearest-exact" else 0)) * ratio)), in_size - 1)] = 1
        elif mode == "linear":
            real = max(_source(i, in_size, out_size, align_corners, scale), 0.0)
            low = min(int(np.floor(real)), in_size - 1)
            frac = real - low
            m[i, low] += 1 - frac
            m[i, min(low + 1, in_size - 1)] += frac
        else:
            real = _source(i, in_size, out_size, align_corners, scale)
            low = int(np.floor(real))
            for k in range(-1, 3):
                m[i, min(max(low + k, 0), in_size - 1)] += _keys(real - (low + k))
    return m


def interpolate(x, size, mode, align_corners=False, scales=None):
    """Resample every spatial dim with its interpolation matrix."""
    out = x.astype(np.float64)
    scales = scales or [None] * len(size)
    for axis, (n, s) in enumerate(zip(size, scales), start=2):
        m = interpolation_matrix(mode, x.shape[axis], n, align_corners, s)
        out = np.moveaxis(np.tensordot(out, m, axes=([axis], [1])), -1, axis)
    return out.astype(x.dtype)


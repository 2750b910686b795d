"""Normal numbers as PyTorch draws them on the CPU (ATen's `normal_kernel`): Box-Muller, in one of three paths.

Box-Muller turns two uniforms into two independent standard normals:
``r = sqrt(-2 log(1 - u1)),  theta = 2 pi u2,  z1 = r cos(theta),  z2 = r sin(theta)``, and
`normal_(mean, std)` keeps mean + std * z. Which path PyTorch takes decides the last bits of the numbers:

- Fewer than 16 elements, or a tensor that is not contiguous: one value at a time, in float64 whatever the
  dtype (`at::normal_distribution<double>`). A call draws two float64 uniforms (the first gives the angle, the
  second the radius, as sqrt(-2 log1p(-u))), returns r cos(theta) and keeps r sin(theta) in the generator for
  the next call: after `randn(3)` one value is waiting, and the next small draw starts with it.
- 16 or more float64 elements (`normal_fill`): all the uniforms first, then each block of 16 is transformed as
  pairs (i, i + 8): the first 8 give radii, the last 8 angles. If the size is not a multiple of 16, 16 fresh
  uniforms are drawn for the last 16 places, which are transformed again (overwriting part of a done block).
- 16 or more float32 elements: the same blocks, computed 8 lanes at a time by AVX2 code (`normal_fill_AVX2`,
  which PyTorch also uses on AVX-512 machines) with its own float32 log and sin/cos (Cephes polynomials, from
  avx_mathfun.h), compiled by GCC with the multiply-adds fused. `_log8` and `_sincos8` replay that float32
  arithmetic operation by operation; `fma32` is one fused multiply-add, a*b + c rounded once. float16 gets
  these float32 numbers rounded, except that it draws its uniforms block by block (found by experiment).

Python's `math` module calls the same C library (libm) as PyTorch, so the float64 paths use it rather than
numpy's own log, which differs in the last bit for about one input in 300.
"""
import math

import numpy as np

from ..compat.fma import fma32, fma64

f32, f64 = np.float32, np.float64
BLOCK = 16       # ATen's block; below it, or on a non-contiguous tensor, the one-at-a-time path runs
_CHUNK = 2048 * BLOCK   # perf: randn(784, 256) 2x faster in chunks of this size, whose temporaries stay in cache


def normal(gen, n, np_dtype, mean, std, contiguous=True):
    """n normal numbers of `np_dtype`, in the order PyTorch writes them into memory."""
    np_dtype = np.dtype(np_dtype)
    if n >= BLOCK and contiguous:
        fill = _blocks64 if np_dtype == np.float64 else _blocks32     # float16: the float32 numbers, rounded
        whole = n - n % BLOCK
        # float16 draws block by block, so skips the uniforms of the incomplete last block; others draw all first
        u = gen._uniform(whole if np_dtype == np.float16 else n, np_dtype)
        values = np.empty(n, u.dtype)
        for i in range(0, whole, _CHUNK):
            values[i:min(i + _CHUNK, whole)] = fill(u[i:min(i + _CHUNK, whole)], mean, std)
        if n % BLOCK:
            values[n - BLOCK:] = fill(gen._uniform(BLOCK, np_dtype), mean, std)
        return values.astype(np_dtype, copy=False)
    return one_at_a_time(gen, n, mean, std).astype(np_dtype)


def one_at_a_time(gen, n, mean, std):
    """n values of `at::normal_distribution<double>`, using and refilling the generator's cached second value.

    Call after call the values are: the cached one if any, then cos1, sin1, cos2, sin2, ... of fresh pairs;
    a sine left over stays cached. All the pairs are drawn at once, which gives the same numbers.
    """
    cached = [] if n == 0 or gen._normal_double is None else [gen._normal_double]
    gen._normal_double = None if cached else gen._normal_double
    pairs = (n - len(cached) + 1) // 2
    u = gen._uniform(2 * pairs, f64).reshape(pairs, 2)           # per pair: u1 (angle), then u2 (radius)
    r = np.sqrt(-2.0 * _libm(math.log1p, -u[:, 1]))
    theta = 2.0 * math.pi * u[:, 0]
    fresh = np.stack([r * _libm(math.cos, theta), r * _libm(math.sin, theta)], axis=1).ravel()
    if (n - len(cached)) % 2:
        gen._normal_double = float(fresh[-1])
    values = np.concatenate([np.array(cached, f64), fresh[:n - len(cached)]])
    return fma64(values, std, mean)


def _libm(fn, x):
    """Apply a `math` function (the C library's, like PyTorch's) to every element of a float64 array."""
    return np.fromiter(map(fn, x.ravel().tolist()), f64, x.size).reshape(x.shape)


def _blocks64(u, mean, std):
    """`normal_fill_16<double>` on every block of 16 uniforms (len(u) is a multiple of 16)."""
    u = u.reshape(-1, BLOCK)
    radius = np.sqrt(-2.0 * _libm(math.log, 1.0 - u[:, :8]))
    theta = 2.0 * math.pi * u[:, 8:]
    z1 = fma64(radius * _libm(math.cos, theta), std, mean)        # radius * cos * std + mean, fused
    z2 = fma64(radius * _libm(math.sin, theta), std, mean)
    return np.concatenate([z1, z2], axis=1).ravel()


def _blocks32(u, mean, std):
    """`normal_fill_16_AVX2` on every block of 16 float32 uniforms."""
    u = u.reshape(-1, BLOCK)
    radius = np.sqrt(f32(-2.0) * _log8(f32(1.0) - u[:, :8]))
    theta = f32(2.0 * math.pi) * u[:, 8:]
    sin, cos = _sincos8(theta)
    mean, std = f32(mean), f32(std)
    return np.concatenate([fma32(radius * cos, std, mean), fma32(radius * sin, std, mean)], axis=1).ravel()


# ---- avx_mathfun.h's log256_ps and sincos256_ps, in float32 ----------------------------------------------
_LOG_P = [f32(v) for v in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                           1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                           3.3333331174E-1)]
_LOG_Q1, _LOG_Q2, _SQRTHF = f32(-2.12194440e-4), f32(0.693359375), f32(0.707106781186547524)
_DP = [f32(-0.78515625), f32(-2.4187564849853515625e-4), f32(-3.77489497744594108e-8)]
_SIN_P = [f32(-1.9515295891E-4), f32(8.3321608736E-3), f32(-1.6666654611E-1)]
_COS_P = [f32(2.443315711809948E-005), f32(-1.388731625493765E-003), f32(4.166664568298827E-002)]
_FOUR_OVER_PI = f32(1.27323954473516)


def _log8(x):
    """log(x) for x in (0, 1]: split x = m * 2**e with m in [sqrt(1/2), sqrt(2)), then a polynomial in m - 1."""
    bits = np.maximum(x, np.finfo(f32).tiny).view(np.int32)          # cut off denormals
    e = ((bits >> 23) - 0x7F).astype(f32) + f32(1.0)
    m = (bits & np.int32(~0x7F800000) | np.int32(0x3F000000)).view(f32)   # mantissa in [0.5, 1)
    small = m < _SQRTHF
    e = e - np.where(small, f32(1.0), f32(0.0))
    m = (m - f32(1.0)) + np.where(small, m, f32(0.0))
    z = m * m
    y = np.full_like(m, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = fma32(y, m, p)
    y = y * m
    y = fma32(y, z, e * _LOG_Q1)
    y = y - z * f32(0.5)
    return fma32(e, _LOG_Q2, m + y)


def _sincos8(x):
    """(sin x, cos x) for x >= 0: reduce by multiples of pi/4 in three exact-ish steps, then two polynomials."""
    j = ((x * _FOUR_OVER_PI).astype(np.int32) + 1) & ~1                 # an even octant index
    y = j.astype(f32)
    for dp in _DP:
        x = fma32(y, dp, x)                                            # x - j * pi/4, in three pieces
    sin_sign = (j & 4) << 29
    cos_sign = (~(j - 2) & 4) << 29
    use_sin_poly = (j & 2) == 0
    z = x * x
    c = fma32(fma32(np.full_like(z, _COS_P[0]), z, _COS_P[1]), z, _COS_P[2])
    c = fma32(c * z, z, -(z * f32(0.5))) + f32(1.0)
    s = fma32(fma32(np.full_like(z, _SIN_P[0]), z, _SIN_P[1]), z, _SIN_P[2])
    s = fma32(s * z, x, x)
    sin = np.where(use_sin_poly, s, c)
    cos = np.where(use_sin_poly, c, s)
    return (sin.view(np.int32) ^ sin_sign).view(f32), (cos.view(np.int32) ^ cos_sign).view(f32)

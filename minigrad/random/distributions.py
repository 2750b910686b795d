"""PyTorch's CPU distributions as transforms of the generator's draws (`generator.py` explains the draws).

Each function returns numpy values in the order PyTorch's kernels produce them; `write` puts them into a
tensor's memory in that order: memory order, which for a transposed tensor is not the order of its indices.
The checks and their messages are ATen's, made before any number is drawn, as there.
"""
import math
import warnings

import numpy as np

from ..core import dtype as _dtype
from ..compat.fma import fma32, fma64
from .normal import _libm

_DIGITS = {"float16": 11, "float32": 24, "float64": 53}
_CHUNK = 16384


scalar_name = _dtype.scalar_name


def not_implemented(kernel, np_dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_name(np_dtype)}\'')


def cpp_number(x):
    """Format a number as C++'s `ostream << double` does in ATen's messages (6 significant digits)."""
    return str(x) if isinstance(x, int) else f"{x:g}"


def memory_order(array):
    """The axes of `array` from the slowest-varying in memory to the fastest (C order for a contiguous one)."""
    return sorted(range(array.ndim), key=lambda d: -abs(array.strides[d]))


def write(array, values):
    """Write a flat sequence of values into `array` in memory order, as ATen's serial kernels do."""
    if array.flags.c_contiguous:
        array.reshape(-1)[...] = values
    else:
        view = array.transpose(memory_order(array))
        view[...] = np.asarray(values).reshape(view.shape)


def read(array, like):
    """The elements of `array`, broadcast to the shape of `like`, in the memory order of `like`."""
    view = np.broadcast_to(array, like.shape).transpose(memory_order(like))
    return view.ravel()


# ---- uniform, and integers -----------------------------------------------------------------------------------
def uniform(gen, n, np_dtype, a, b):
    """U(a, b): a uniform in [0, 1) times (b - a) plus a, one rounding (a fused multiply-add), in the dtype."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype.kind != "f":
        raise not_implemented("check_uniform_bounds", np_dtype)
    if not a <= b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={cpp_number(a)} > "
                           f"to={cpp_number(b)}")
    if np_dtype == np.float64:
        return fma64(gen._uniform(n, np_dtype), b - a, a)
    lo, hi = np.float32(a), np.float32(b)          # float16 is computed in float32, then rounded
    if not _exact_in_float64(hi - lo, lo):
        return fma32(gen._uniform(n, np.float32), hi - lo, lo).astype(np_dtype, copy=False)
    # u = k / 2**24 from the low 24 bits k of each draw, and k * (width / 2**24) + low is exact in float64, so
    # its one rounding to float32 is the FMA's. perf: nn.Linear(784, 256) 3x faster than with fma32, in chunks
    # whose temporaries stay in cache (whole-array temporaries cost page faults: 2x slower).
    out = np.empty(n, np.float32)
    scale, offset = float(hi - lo) * 2.0 ** -24, float(lo)
    for start in range(0, n, _CHUNK):
        k = gen._draws(min(_CHUNK, n - start))
        k &= np.uint64((1 << 24) - 1)
        s = k.astype(np.float64)
        s *= scale
        s += offset
        out[start:start + s.size] = s
    return out.astype(np_dtype, copy=False)


def _exact_in_float64(width, low):
    """True when u * width + low is exact in float64 for every float32 uniform u = k / 2**24, so that float64
    rounds it once, as the FMA does: the bits of u * width (exponents ew - 48 .. ew) and of low (el - 24 .. el)
    span at most 53 places. Holds for U(-bound, bound) and for U(0, 1)."""
    if width == 0 or low == 0:
        return True
    ew, el = math.frexp(width)[1], math.frexp(low)[1]
    return max(ew, el) + 1 - min(ew - 48, el - 24) <= 53


def check_from_to(low, high, np_dtype):
    """ATen's `random_(from, to)` checks: from < to, and both representable in the dtype. Returns (from, to),
    which for a float dtype are first moved inwards to numbers the dtype holds (ATen's update_from/update_to)."""
    if not low < high:
        raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}")
    name = np.dtype(np_dtype).name
    if name in _DIGITS:
        low, high = _representable(low, 1, np_dtype), _representable(high, -1, np_dtype)
        if not low < high:
            raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but got "
                               f"from={low} >= to={high}")
        lowest, highest = float(np.finfo(np_dtype).min), float(np.finfo(np_dtype).max)
    else:
        lowest, highest = (0, 1) if name == "bool" else (int(np.iinfo(np_dtype).min), int(np.iinfo(np_dtype).max))
    for value, label in ((low, "from"), (high - 1, "to - 1")):
        if not lowest <= value <= highest:
            raise RuntimeError(f"{label} is out of bounds for {_dtype.cpp_name(name)}")
    for value, label in ((low, "from"), (high - 1, "to - 1")):
        digits = _DIGITS.get(name)
        if digits and not -2 ** digits <= value <= 2 ** digits:
            warnings.warn(f"{label} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                          f"{_dtype.cpp_name(name)} can support discrete uniform distribution only within this range. "
                          "This warning will become an error in version 1.7 release, please fix the code in "
                          "advance", UserWarning, stacklevel=4)
    return low, high


def _representable(bound, step, np_dtype):
    """ATen's update_from (step +1) and update_to (step -1): if the float dtype rounds bound + step to or past
    bound, use the float one place further inside instead."""
    moved = int(np.array(bound + step, np.int64).astype(np_dtype).astype(np.int64))
    if (step > 0 and moved < bound) or (step < 0 and moved >= bound):
        n = max(abs(bound + step).bit_length() - 1, 0)
        bound = moved + step * (1 << (n - _DIGITS[np.dtype(np_dtype).name] + 1))
    return bound


def random_from_to(gen, n, np_dtype, low, high):
    """Integers in [low, high): draw % (high - low) + low, with a 64-bit draw once the range reaches 2**28.

    (That threshold, whatever the dtype, is PyTorch's public build; its source also has 2**32 for some dtypes,
    for Meta's internal builds only.)
    """
    span = high - low
    draws = gen._random64(n) if span >= 2 ** 28 else gen._random(n).astype(np.uint64)
    with np.errstate(over="ignore"):
        values = (draws % np.uint64(span)).astype(np.int64) + np.int64(low)   # wraps like int64 in C
    return values.astype(np_dtype)


def random_bits(gen, n, np_dtype):
    """`random_()` without bounds: [0, 2**digits] for floats, [0, max] for integers, a coin for bool."""
    name = np.dtype(np_dtype).name
    if name == "bool":
        return (gen._random(n) & np.uint32(1)).astype(bool)
    if name in ("int64", "float64"):
        draws, limit = gen._random64(n), (2 ** 63 if name == "int64" else 2 ** 53 + 1)
    else:
        draws = gen._random(n).astype(np.uint64)
        limit = 2 ** _DIGITS[name] + 1 if name in _DIGITS else int(np.iinfo(np_dtype).max) + 1
    return (draws % np.uint64(limit)).astype(np_dtype)


def randperm(gen, n):
    """A random permutation of 0..n-1: Fisher-Yates, swapping place i with i + random() % (n - i)."""
    perm = list(range(n))
    draws = gen._random(max(n - 1, 0)).tolist()
    for i, z in enumerate(draws):
        j = i + z % (n - i)
        perm[i], perm[j] = perm[j], perm[i]
    return np.array(perm, np.int64)


# ---- bernoulli and exponential ---------------------------------------------------------------------------
def bernoulli_scalar(gen, n, p):
    """n coins with P(1) = p: a float64 uniform < p."""
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={cpp_number(p)}")
    return gen._uniform(n, np.float64) < p


def bernoulli_tensor(gen, p):
    """One coin per probability in the flat array `p`: a uniform of p's precision (float32 or float64) < p."""
    if p.dtype.name not in _DIGITS:
        raise not_implemented("bernoulli_tensor_cpu_p_", p.dtype)
    bad = np.flatnonzero(~((p >= 0) & (p <= 1)))
    if bad.size:                                   # ATen checks element by element, drawing as it goes
        gen._uniform(int(bad[0]), np.float64 if p.dtype == np.float64 else np.float32)
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error "
                           "message be improved?  If so, please report an enhancement request to PyTorch.)")
    if p.dtype == np.float64:
        return gen._uniform(p.size, np.float64) < p
    return gen._uniform(p.size, np.float32) < p.astype(np.float32)


def exponential(gen, n, np_dtype, lambd):
    """Exp(lambd): -1/lambd * log1p(-u) for a float64 uniform u, then rounded to the dtype."""
    if np.dtype(np_dtype).name not in _DIGITS:
        raise not_implemented("exponential_cpu", np_dtype)
    if not lambd > 0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={cpp_number(lambd)}")
    u = gen._uniform(n, np.float64)
    return ((-1.0 / lambd) * _libm(math.log1p, -u)).astype(np_dtype)


# ---- multinomial -----------------------------------------------------------------------------------------
def multinomial(gen, probs, n_sample, replacement):
    """Draw n_sample category indices per row of the 1-D or 2-D `probs` (a numpy array)."""
    if probs.ndim not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if probs.dtype.name not in _DIGITS:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{scalar_name(probs.dtype)}")
    if n_sample <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    if not replacement and n_sample > probs.shape[-1]:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without replacement")
    if probs.shape[-1] > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    rows = probs.reshape(-1, probs.shape[-1])
    if rows.size == 0:
        return np.zeros(rows.shape[:1] + (n_sample,), np.int64).reshape(probs.shape[:-1] + (n_sample,))
    if not replacement or n_sample == 1:
        picks = _by_exponential_race(gen, rows, n_sample)
    else:
        picks = np.stack([_by_inverse_cdf(gen, row, n_sample) for row in rows])
    return picks.reshape(probs.shape[:-1] + (n_sample,))


def _by_exponential_race(gen, rows, n_sample):
    """Without replacement (or one sample): the n_sample largest p / q, q ~ Exp(1) (the Gumbel-max trick)."""
    if not (np.all(rows < np.inf) and np.all(rows >= 0)):      # NaN fails both
        raise RuntimeError("probability tensor contains either `inf`, `nan` or element < 0")
    if np.any(rows.sum(axis=1) == 0):
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    q = exponential(gen, rows.size, rows.dtype, 1.0).reshape(rows.shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        race = rows / q
    if n_sample == 1:
        return np.argmax(race, axis=1)[:, None]
    return np.argsort(-race, axis=1, kind="stable")[:, :n_sample]


def _by_inverse_cdf(gen, row, n_sample):
    """With replacement: the first category whose normalised running sum reaches a float64 uniform."""
    bad = np.flatnonzero(~((row >= 0) & np.isfinite(row)))     # ATen checks element by element
    if bad.size:
        what = "< 0" if not row[bad[0]] >= 0 else "= infinity or NaN"
        raise RuntimeError(f"invalid multinomial distribution (encountering probability entry {what})")
    cum = np.cumsum(row, dtype=row.dtype)                # running sums, left to right, as ATen's loop
    if not cum[-1] > 0:
        raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
    cum = cum / cum[-1]
    cum[-1] = 1
    return np.searchsorted(cum.astype(np.float64), gen._uniform(n_sample, np.float64), side="left")

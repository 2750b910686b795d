"""The random tensor makers: `torch.rand`, `randn`, `randint`, `randperm`, `normal`, `bernoulli`, `multinomial`,
the `*_like` versions, and the generator functions (`manual_seed`, `Generator`, `get_rng_state`, ...).

After `torch.manual_seed(s)` each gives PyTorch's own numbers on the CPU, bit for bit (see `generator.py`).
Each one makes an empty tensor and fills it as the in-place method would (`uniform_`, `normal_`, `random_`).
"""
import numpy as np

from ..core import device as _device, dtype as _dtype
from . import distributions as dists
from .generator import Generator, _get, default_generator, get_rng_state, initial_seed, manual_seed, seed, set_rng_state
from .normal import normal as _normal_values
from ..core.tensor import TensorBase

__all__ = ["Generator", "default_generator", "manual_seed", "seed", "initial_seed", "get_rng_state",
           "set_rng_state", "rand", "randn", "randint", "randperm", "normal", "rand_like", "randn_like",
           "randint_like", "bernoulli", "multinomial"]


# ---- filling a tensor's memory (the in-place methods call these too) -----------------------------------
def uniform_fill(array, a, b, generator):
    dists.write(array, dists.uniform(_get(generator), array.size, array.dtype, a, b))


def normal_fill(array, mean, std, generator):
    if array.dtype.name not in ("float32", "float64", "float16"):
        raise dists.not_implemented("normal_kernel_cpu", array.dtype)
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {dists.cpp_number(std)}")
    values = _normal_values(_get(generator), array.size, array.dtype, mean, std, array.flags.c_contiguous)
    dists.write(array, values)


def exponential_fill(array, lambd, generator):
    dists.write(array, dists.exponential(_get(generator), array.size, array.dtype, lambd))


def random_fill(array, low, high, generator):
    """`random_(low, high)`; `random_()` when both are None, `random_(high)` when only low is None."""
    if high is None and low is None:
        values = dists.random_bits(_get(generator), array.size, array.dtype)
    else:
        low = 0 if low is None else low
        if high is None and low == -2 ** 63:     # random_(int64 min): all 64 bits of a 64-bit draw
            values = _get(generator)._random64(array.size).view(np.int64).astype(array.dtype)
            return dists.write(array, values)
        if high is None:              # random_(from): up to the dtype's largest integer
            name = array.dtype.name
            high = (2 ** dists._DIGITS[name] if name in dists._DIGITS else 1 if name == "bool"
                    else int(np.iinfo(array.dtype).max)) + 1
        low, high = dists.check_from_to(low, high, array.dtype)
        values = dists.random_from_to(_get(generator), array.size, array.dtype, low, high)
    dists.write(array, values)


# ---- torch.rand, randn, randint, randperm, normal ----------------------------------------------------------
def rand(*sizes, size=None, generator=None, dtype=None, requires_grad=False, device=None, layout=None,
         pin_memory=False, out=None):
    """Uniform numbers from [0, 1), float32 unless `dtype` says otherwise. Mirrors `torch.rand`.

    Example:
        >>> torch.manual_seed(0)
        >>> torch.rand(3)
        tensor([0.4963, 0.7682, 0.0885])
    """
    array = _empty(sizes if size is None else (size,), dtype, device)
    uniform_fill(array, 0.0, 1.0, generator)
    return _tensor(array, requires_grad)


def randn(*sizes, size=None, generator=None, dtype=None, requires_grad=False, device=None, layout=None,
          pin_memory=False, out=None):
    """Standard normal numbers, float32 unless `dtype` says otherwise. Mirrors `torch.randn`.

    Example:
        >>> torch.manual_seed(0)
        >>> torch.randn(3)
        tensor([ 1.5410, -0.2934, -2.1788])
    """
    array = _empty(sizes if size is None else (size,), dtype, device)
    normal_fill(array, 0.0, 1.0, generator)
    return _tensor(array, requires_grad)


def randint(*args, low=None, high=None, size=None, generator=None, dtype=None, requires_grad=False, device=None,
            layout=None, pin_memory=False, out=None):
    """Integers drawn uniformly from [low, high): `randint(high, size)` or `randint(low, high, size)`, each
    argument positional or by name.

    int64 unless `dtype` says otherwise. Mirrors `torch.randint`.
    """
    if high is not None:
        args = args + (() if low is None else (low,)) + (high,)
    elif low is not None:
        raise TypeError('randint() missing 2 required positional argument: "high", "size"')
    if size is None and len(args) in (2, 3):
        *bounds, size = args
        if not isinstance(size, (tuple, list)):
            if len(args) == 3:
                raise TypeError(_randint_usage(args, None, generator))
            raise TypeError(f"randint(): argument 'size' (position 2) must be tuple of ints, not "
                            f"{type(size).__name__}")
    else:
        bounds = list(args)
    if size is None or len(bounds) not in (1, 2) or not all(isinstance(b, int) for b in bounds):
        raise TypeError(_randint_usage(args, size, generator))
    low, high = (0, bounds[0]) if len(bounds) == 1 else bounds
    if not all(-2 ** 63 <= b < 2 ** 63 for b in (low, high)):
        raise ValueError("Overflow when unpacking long long")
    array = _empty((size,), dtype or _dtype.int64, device)
    random_fill(array, low, high, generator)
    return _tensor(array, requires_grad)


def randperm(n, *, generator=None, dtype=None, requires_grad=False, device=None, layout=None, pin_memory=False,
             out=None):
    """A random permutation of 0, ..., n - 1 (int64 unless `dtype` says otherwise). Mirrors `torch.randperm`."""
    _device.check(device)
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"randperm(): argument 'n' (position 1) must be int, not {type(n).__name__}")
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    values = dists.randperm(_get(generator), int(n))
    return _tensor(values.astype((dtype or _dtype.int64).np_type), requires_grad)


def normal(mean, std=1.0, size=None, *, generator=None, dtype=None, requires_grad=False, device=None,
           layout=None, pin_memory=False, out=None):
    """Normal numbers with the given mean and standard deviation, each a number or a tensor. Mirrors `torch.normal`.

    normal(mean_tensor, std_tensor), normal(mean_tensor, std=1.0), normal(mean, std_tensor) broadcast the
    tensors; normal(mean, std, size) makes a float32 tensor of that size.
    """
    if not isinstance(mean, TensorBase) and not isinstance(std, TensorBase):
        if size is None:
            raise TypeError(_NORMAL_USAGE.format(got=", ".join(type(v).__name__ for v in (mean, std))))
        array = _empty((tuple(size),), dtype, device)
        normal_fill(array, float(mean), float(std), generator)
        return _tensor(array, requires_grad)
    if isinstance(std, TensorBase) and not bool((std._data >= 0).all()):
        raise RuntimeError("normal expects all elements of std >= 0.0")
    if isinstance(mean, TensorBase) and not isinstance(std, TensorBase):     # N(0, std), then + mean
        array = np.empty(mean._data.shape, mean._data.dtype)
        normal_fill(array, 0.0, float(std), generator)
        return _tensor(_inplace_op(array, np.add, mean._data), False)
    like = mean if isinstance(mean, TensorBase) else std
    shape = np.broadcast_shapes(np.shape(mean._data) if isinstance(mean, TensorBase) else (), std._data.shape)
    array = np.empty(shape, like._data.dtype)
    normal_fill(array, 0.0, 1.0, generator)                          # N(0, 1), then * std + mean
    array = _inplace_op(array, np.multiply, std._data)
    mean = mean._data if isinstance(mean, TensorBase) else np.asarray(mean, array.dtype)
    return _tensor(_inplace_op(array, np.add, mean), False)


# ---- the *_like versions, bernoulli and multinomial --------------------------------------------------------
def rand_like(input, *, dtype=None, requires_grad=False, generator=None, device=None, layout=None,
              memory_format=None):
    """Uniform numbers from [0, 1) in a tensor shaped like `input`. Mirrors `torch.rand_like`."""
    array = _empty_like(input, dtype, device)
    uniform_fill(array, 0.0, 1.0, generator)
    return _tensor(array, requires_grad)


def randn_like(input, *, dtype=None, requires_grad=False, generator=None, device=None, layout=None,
               memory_format=None):
    """Standard normal numbers in a tensor shaped like `input`. Mirrors `torch.randn_like`."""
    array = _empty_like(input, dtype, device)
    normal_fill(array, 0.0, 1.0, generator)
    return _tensor(array, requires_grad)


def randint_like(input, low=0, high=None, *, dtype=None, requires_grad=False, generator=None, device=None,
                 layout=None, memory_format=None):
    """Integers from [low, high) in a tensor shaped like `input` (and of its dtype). Mirrors `torch.randint_like`."""
    if high is None:
        low, high = 0, low
    array = _empty_like(input, dtype, device)
    random_fill(array, low, high, generator)
    return _tensor(array, requires_grad)


def bernoulli(input, p=None, *, generator=None, out=None):
    """0/1 draws: 1 with probability input[i] (or with probability p, when given). Mirrors `torch.bernoulli`."""
    array = np.empty(input._data.shape, input._data.dtype)      # contiguous, whatever the input's layout
    bernoulli_fill(array, input._data if p is None else p, generator)
    return _tensor(array, False)


def bernoulli_fill(array, p, generator):
    if isinstance(p, TensorBase):
        p = p._data
    if isinstance(p, np.ndarray):
        values = dists.bernoulli_tensor(_get(generator), dists.read(p, array))
    else:
        values = dists.bernoulli_scalar(_get(generator), array.size, float(p))
    dists.write(array, values)


def multinomial(input, num_samples, replacement=False, *, generator=None, out=None):
    """Draw `num_samples` indices per row of `input`, each with probability proportional to its weight.

    Without replacement an index is drawn at most once per row. Mirrors `torch.multinomial`.
    """
    return _tensor(dists.multinomial(_get(generator), input._data, num_samples, replacement), False)


# ---- helpers -----------------------------------------------------------------------------------------------
def _empty(size, dtype, device=None):
    """An empty numpy array of the requested size (ints, a tuple, a list or a Size) and dtype."""
    _device.check(device)
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = size[0]
    size = tuple(int(s) for s in size)
    if any(s < 0 for s in size):
        bad = next(s for s in size if s < 0)
        raise RuntimeError(f"Trying to create tensor with negative dimension {bad}: {list(size)}")
    return np.empty(size, (dtype or _dtype.default_float()).np_type)


def _empty_like(input, dtype, device):
    _device.check(device)
    return np.empty_like(input._data, dtype=(dtype or input.dtype).np_type)     # keeps input's memory layout


def _tensor(array, requires_grad):
    t = TensorBase._make(array)
    if requires_grad:
        if not t.dtype.is_floating_point:
            raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")
        t._requires_grad = True
    return t


def _inplace_op(array, op, other):
    """`array.op_(other)` as ATen computes it: in the promoted dtype, then rounded back into `array`'s dtype."""
    common = np.result_type(array.dtype, np.asarray(other).dtype)
    return op(array.astype(common, copy=False), other.astype(common, copy=False)).astype(array.dtype)


def _randint_usage(args, size, generator):
    got = [type(a).__name__ for a in args] + ([f"size={type(size).__name__}"] if size is not None else [])
    return ("randint() received an invalid combination of arguments - got (" + ", ".join(got) + "), but expected "
            "one of:\n" + "".join(f" * ({form}, *, {gen}Tensor out = None, torch.dtype dtype = None, torch.layout "
                                      "layout = None, torch.device device = None, bool pin_memory = False, bool "
                                      "requires_grad = False)\n"
                                      for form in ("int high, tuple of ints size", "int low, int high, tuple of ints "
                                                   "size") for gen in ("torch.Generator generator, ", "")))


_NORMAL_USAGE = (
    "normal() received an invalid combination of arguments - got ({got}), but expected one of:\n"
    " * (Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)\n"
    " * (float mean, float std, tuple of ints size, *, torch.Generator generator = None, Tensor out = None, "
    "torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, bool pin_memory = False, "
    "bool requires_grad = False)\n")

"""Small helpers shared by the op modules."""
import functools
import warnings
import weakref

import numpy as np

from ..compat.callers import stacklevel_outside
from ..core.dtype import default_float, promote, scalar_dtype
from ..core import tensor as _tensor_class
from ..core.forward_ad import element_wise
from ..core.function import Function
from ..core.tensor import TensorBase


def quiet(fn):
    """Decorate a forward or backward that may overflow: like PyTorch, give inf or nan without a warning."""
    @functools.wraps(fn)
    def quietly(*args):
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            return fn(*args)
    return quietly


def wrap(array):
    """Make a tensor from an op's numpy result (a numpy scalar becomes a 0-d array)."""
    if type(array) is not np.ndarray:
        array = np.asarray(array)
    # TensorBase._make(array), inlined. perf: 4 % on bench long_chain and custom_function_loop, 3 % per_op_overhead
    t = _new(_tensor_class._Tensor)
    t._data = array
    return t


_new = object.__new__


def warn_in_user_code(message):
    """Warn naming the first line outside minigrad, as PyTorch's warnings from C++ name the user's line."""
    warnings.warn(message, stacklevel=stacklevel_outside())


def view_of(x, array):
    """A tensor over `array`, a numpy view of `x`'s memory: it shares x's version counter, as views do."""
    t = TensorBase._make(array)
    t._vc = x._shared_version_counter()
    # remember the base and its history now, to refuse what minigrad cannot do later (see Tensor._write)
    base = x if x._base is None else x._base
    t._base, t._base_grad_fn = base, base.grad_fn
    if base._views is None:
        base._views = weakref.WeakSet()     # so that an in-place change of the base can update its views
    base._views.add(t)
    return t


def _rank(t):
    return 0 if t._wrapped_number else (2 if t._data.ndim else 1)


def dim_index(dim, ndim):
    """Return `dim` counted from 0, or raise PyTorch's IndexError. A 0-d tensor accepts dims 0 and -1."""
    n = max(ndim, 1)
    if not -n <= dim < n:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-n}, {n - 1}], but got {dim})")
    return dim % n


def broadcast_shapes(*shapes):
    """The shape that `shapes` broadcast to, or PyTorch's error naming the first mismatch from the right."""
    out = ()
    for shape in shapes:
        n = max(len(out), len(shape))
        a, b = (1,) * (n - len(out)) + tuple(out), (1,) * (n - len(shape)) + tuple(shape)
        for i in reversed(range(n)):
            if a[i] != b[i] and a[i] != 1 and b[i] != 1:
                raise RuntimeError(f"The size of tensor a ({a[i]}) must match the size of tensor b ({b[i]}) at "
                                   f"non-singleton dimension {i}")
        out = tuple(u if v == 1 else v for u, v in zip(a, b))
    return out


def operands(x, y):
    """Return the numpy arrays of x and y, both cast to PyTorch's promoted dtype."""
    a, b = x._data, y._data
    if a.shape != b.shape and a.ndim and b.ndim:
        try:
            np.broadcast(a, b)                  # numpy checks the shapes (in C) ...
        except ValueError:
            broadcast_shapes(a.shape, b.shape)  # ... and only then are they worded as PyTorch words them
            raise
        # perf: checking with broadcast_shapes every time cost 3 us of a 4 us no_grad (32, 4) * (4,) multiply
    if a.dtype == b.dtype:
        return a, b
    dt = promote((x.dtype, _rank(x)), (y.dtype, _rank(y))).np_type
    return a.astype(dt, copy=False), b.astype(dt, copy=False)


def grad_to(grad, shape):
    """Sum a gradient tensor down to an input's `shape` (the adjoint of broadcasting), differentiably."""
    return grad if grad._data.shape == shape else grad.sum_to_size(shape)


def float_dtype_of(array):
    """Ops like exp and true division turn integer tensors into PyTorch's default dtype (float32)."""
    return array if array.dtype.kind == "f" else array.astype(default_float().np_type)


def as_operand(value, like):
    """A Python number as a 0-d tensor of the dtype PyTorch's promotion would give it next to `like`."""
    if isinstance(value, TensorBase):
        return value
    try:
        key = (value, type(value), like._data.dtype)
        return _WRAPPED[key]      # never modified, so shared. perf: 11 % on bench per_op_overhead
    except (KeyError, TypeError):
        pass
    kind = like._data.dtype.kind
    if type(value) is int and kind in "iu":
        t = TensorBase._make(_wrapped_int(value, like._data.dtype))
    elif (type(value) is float and kind == "f") or (type(value) is int and kind == "f"):
        t = TensorBase._make(np.array(value, like._data.dtype))
    elif np.ndim(value) == 0:
        np_type = promote((like.dtype, 2), (scalar_dtype(value), 0)).np_type
        t = TensorBase._make(np.array(value, np_type))
    else:
        return TensorBase._make(np.asarray(value, like._data.dtype if kind in "fb" else None))
    t._wrapped_number = True
    if len(_WRAPPED) > 1024:
        _WRAPPED.clear()
    if value != 0:                # -0.0 == 0.0 as a key, but x / -0.0 is not x / 0.0
        _WRAPPED[key] = t
    return t


_WRAPPED = {}


def forget_wrapped_numbers():
    """Empty as_operand's cache: a float next to an integer tensor takes the default dtype, which can change."""
    _WRAPPED.clear()


def _wrapped_int(value, dtype):
    """A Python int in an integer dtype, wrapped around as PyTorch does (300 as int8 is 44, -1 as uint8 255)."""
    if not -2 ** 63 <= value < 2 ** 64:
        raise OverflowError("int too big to convert" if value > 0 else "can't convert negative int to unsigned")
    return np.array(value % 2 ** 64, np.uint64).astype(dtype)


def sign_array(a):
    """-1, 0 or 1 as a < 0, a == 0 or a > 0, in a's dtype, as ATen's sign: nan gives 0, a bool array itself."""
    if a.dtype.kind == "b":
        return a.copy()
    z = np.sign(a)
    return np.where(np.isnan(z), 0, z).astype(a.dtype) if a.dtype.kind == "f" else z


def is_number(value):
    return isinstance(value, (int, float, np.number, np.bool_))


class Pointwise(Function):
    """A one-input op that differs from its neighbours only by numpy's function and its gradient formula, so that
    each one is a row of four lines (trig.py, math.py, unary.py).

    `saves` is what the formula reads, as PyTorch saves it: "self" (the input x) or "result" (the output z);
    `gradient(grad, x_or_z)` is PyTorch's formula (derivatives.yaml) in Tensor ops, so it can be differentiated
    again; `quiet_forward` marks a function that overflows or leaves its domain, giving inf or nan without numpy's
    warning. Integer and bool inputs give float32, as in PyTorch.
    """
    numpy_fn = gradient = None
    saves = "self"
    quiet_forward = False

    def __init_subclass__(cls, **kwargs):
        cls.saved_names = (cls.saves,)          # grad_fn._saved_self or grad_fn._saved_result
        super().__init_subclass__(**kwargs)

    @classmethod
    def forward(cls, x):
        a = float_dtype_of(x._data)
        if cls.quiet_forward:
            with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
                return wrap(cls.numpy_fn(a))
        return wrap(cls.numpy_fn(a))

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0] if ctx._forward_cls.saves == "self" else output)

    @staticmethod
    def backward(ctx, grad):
        (saved,) = ctx.saved_tensors
        return ctx._forward_cls.gradient(grad, saved)

    jvp = element_wise       # forward mode: the same formula, applied to the tangent (core/forward_ad.py)

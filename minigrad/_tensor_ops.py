"""The math methods of `Tensor`. Each one applies a built-in `Function` from `minigrad/ops/`."""
import numpy as np

from . import _dtype
from .autograd.grad_mode import _State


_T_WARNING = (
    "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is deprecated and it will throw "
    "an error in a future release. Consider `x.mT` to transpose batches of matrices or `x.permute(*torch.arange("
    "x.ndim - 1, -1, -1))` to reverse the dimensions of a tensor.")


class _ReturnType(tuple):
    """A (values, indices) pair that prints like PyTorch's `torch.return_types.max(values=..., indices=...)`."""

    def __new__(cls, name, values, indices):
        self = super().__new__(cls, (values, indices))
        self._name = name
        return self

    values = property(lambda self: self[0])
    indices = property(lambda self: self[1])

    def __repr__(self):
        return f"torch.return_types.{self._name}(\nvalues={self[0]!r},\nindices={self[1]!r})"


class TensorOps:
    """Arithmetic, reductions, shape changes and indexing for `Tensor`."""

    _wrapped_number = False     # True for a Python number turned into a 0-d tensor by an operator

    # ---- arithmetic (a Python number on either side is wrapped into a tensor, as PyTorch does) ------------
    def __add__(self, other):
        return arithmetic.Add.apply(self, _as_tensor(other, self))

    __radd__ = __add__

    def __sub__(self, other):
        return arithmetic.Sub.apply(self, _as_tensor(other, self))

    def __rsub__(self, other):
        if _is_number(other):
            return arithmetic.Rsub.apply(self, other)
        return _as_tensor(other, self) - self

    def __mul__(self, other):
        return arithmetic.Mul.apply(self, _as_tensor(other, self))

    __rmul__ = __mul__

    def __truediv__(self, other):
        return arithmetic.Div.apply(self, _as_tensor(other, self))

    def __rtruediv__(self, other):
        return arithmetic.Reciprocal.apply(self) * other

    def __pow__(self, exponent):
        if isinstance(exponent, TensorOps):
            return arithmetic.PowTensor.apply(self, exponent)
        return arithmetic.Pow.apply(self, exponent)

    def __rpow__(self, base):
        if _is_number(base):
            return arithmetic.RPow.apply(self, base)
        return _as_tensor(base, self) ** self

    def __neg__(self):
        return arithmetic.Neg.apply(self)

    def __matmul__(self, other):
        return self.matmul(other)

    def __rmatmul__(self, other):
        return _as_tensor(other, self).matmul(self)

    def __abs__(self):
        return self.abs()

    def __iadd__(self, other):
        return self.add_(other)

    def __isub__(self, other):
        return self.sub_(other)

    def __imul__(self, other):
        return self.mul_(other)

    def __itruediv__(self, other):
        return self.div_(other)

    def add(self, other, alpha=1):
        return arithmetic.Add.apply(self, _as_tensor(other, self), alpha)

    def sub(self, other, alpha=1):
        return arithmetic.Sub.apply(self, _as_tensor(other, self), alpha)

    def mul(self, other):
        return self * other

    def div(self, other):
        return self / other

    def pow(self, exponent):
        return self ** exponent

    def neg(self):
        return -self

    # ---- comparisons give bool tensors and are never recorded ----------------------------------------------
    def _compare(self, other, op):
        from .ops._common import operands, wrap
        return wrap(op(*operands(self, _as_tensor(other, self))))

    def __lt__(self, other):
        return self._compare(other, np.less)

    def __le__(self, other):
        return self._compare(other, np.less_equal)

    def __gt__(self, other):
        return self._compare(other, np.greater)

    def __ge__(self, other):
        return self._compare(other, np.greater_equal)

    def __eq__(self, other):
        return self._compare(other, np.equal)

    def __ne__(self, other):
        return self._compare(other, np.not_equal)

    eq, ne, lt, le, gt, ge = __eq__, __ne__, __lt__, __le__, __gt__, __ge__

    # ---- elementwise functions -----------------------------------------------------------------------------
    def exp(self):
        return unary.Exp.apply(self)

    def log(self):
        return unary.Log.apply(self)

    def abs(self):
        return unary.Abs.apply(self)

    def sqrt(self):
        return unary.Sqrt.apply(self)

    def clamp(self, min=None, max=None):
        return unary.Clamp.apply(self, min, max)

    clip = clamp

    def relu(self):
        return unary.Relu.apply(self)

    def sigmoid(self):
        return unary.Sigmoid.apply(self)

    def tanh(self):
        return unary.Tanh.apply(self)

    # ---- reductions ----------------------------------------------------------------------------------------
    def sum(self, dim=None, keepdim=False):
        return reduction.Sum.apply(self) if dim is None else reduction.SumDim.apply(self, dim, keepdim)

    def mean(self, dim=None, keepdim=False):
        return reduction.Mean.apply(self) if dim is None else reduction.MeanDim.apply(self, dim, keepdim)

    def max(self, dim=None, keepdim=False):
        if dim is None:
            return reduction.MaxAll.apply(self)
        return _ReturnType("max", *reduction.MaxDim.apply(self, dim, keepdim))

    def min(self, dim=None, keepdim=False):
        if dim is None:
            return reduction.MinAll.apply(self)
        return _ReturnType("min", *reduction.MinDim.apply(self, dim, keepdim))

    def argmax(self, dim=None, keepdim=False):
        from .ops._common import wrap
        a = self._data
        if dim is None:
            return wrap(np.int64(a.argmax()))
        idx = a.argmax(axis=dim)
        return wrap(np.expand_dims(idx, dim) if keepdim else idx)

    def argmin(self, dim=None, keepdim=False):
        return (-self.detach()).argmax(dim, keepdim)

    def sort(self, dim=-1, descending=False):
        return _ReturnType("sort", *reduction.Sort.apply(self, dim, descending))

    def norm(self, p="fro", dim=None, keepdim=False):
        return reduction.Norm.apply(self, 2 if p == "fro" else p, dim, keepdim)

    # ---- matrix products -----------------------------------------------------------------------------------
    def mm(self, other):
        return linalg.Mm.apply(self, other)

    def mv(self, other):
        return linalg.Mv.apply(self, other)

    def dot(self, other):
        return linalg.Dot.apply(self, other)

    def matmul(self, other):
        """Dispatch on dimensions as PyTorch does: dot, mv, mm, a folded mm/mv, or bmm (see `ops/linalg.py`)."""
        return linalg.matmul(self, other)

    # ---- shape ---------------------------------------------------------------------------------------------
    def t(self):
        return shape.T.apply(self)

    @property
    def T(self):
        """All dims reversed (a transpose for a matrix); PyTorch deprecates it for other than 2-D tensors."""
        if self.dim() != 2:
            import warnings
            warnings.warn("Tensor.T is deprecated on 0-D tensors. This function is the identity in these cases."
                          if self.dim() == 0 else _T_WARNING, UserWarning, stacklevel=2)
        return self.permute(*reversed(range(self.dim())))

    def permute(self, *dims):
        return shape.Permute.apply(self, _shape_arg(dims))

    def transpose(self, dim0, dim1):
        return shape.Transpose.apply(self, dim0, dim1)

    def reshape(self, *shape_):
        new = _shape_arg(shape_)
        shape.check_shape(new, self._data.size)
        a = self._data.view()
        try:
            a.shape = new         # a view is possible: reshape is a view
        except AttributeError:
            return shape.UnsafeView.apply(self.clone(), new)
        except ValueError:
            raise RuntimeError(f"shape '{list(new)}' is invalid for input of size {self._data.size}") from None
        # PyTorch records a view of a non-contiguous tensor (still no copy) as a "reshape alias"
        return (shape.View if self._data.flags.c_contiguous else shape.ReshapeAlias).apply(self, new)

    def view(self, *shape_):
        return shape.View.apply(self, _shape_arg(shape_))

    def view_as(self, other):
        return self.view(other.shape)

    def flatten(self, start_dim=0, end_dim=-1):
        s = self.shape
        if len(s) == 0:
            return self.reshape(1)
        end = end_dim % len(s)
        return self.reshape(*s[:start_dim], -1, *s[end + 1:])

    def unsqueeze(self, dim):
        return shape.Unsqueeze.apply(self, dim)

    def squeeze(self, dim=None):
        return shape.Squeeze.apply(self) if dim is None else shape.SqueezeDim.apply(self, dim)

    def expand(self, *sizes):
        return shape.Expand.apply(self, _shape_arg(sizes))

    def expand_as(self, other):
        return self.expand(other.shape)

    def clone(self):
        return shape.Clone.apply(self)

    def to(self, dtype):
        if not isinstance(dtype, _dtype.dtype):     # .to("cpu") and the like
            return self
        return self if dtype is self.dtype else shape.ToCopy.apply(self, dtype)

    def float(self):
        return self.to(_dtype.float32)

    def double(self):
        return self.to(_dtype.float64)

    def long(self):
        return self.to(_dtype.int64)

    def bool(self):
        return self.to(_dtype.bool)

    def __getitem__(self, index):
        return indexing_read(self, index)

    # ---- in place: each one is also a recorded op, and bumps the version counter ---------------------------
    def add_(self, other, alpha=1):
        return self._inplace(arithmetic.Add, _as_tensor(other, self), alpha)

    def sub_(self, other, alpha=1):
        return self._inplace(arithmetic.Sub, _as_tensor(other, self), alpha)

    def mul_(self, other):
        return self._inplace(arithmetic.Mul, _as_tensor(other, self))

    def div_(self, other):
        return self._inplace(arithmetic.Div, _as_tensor(other, self))

    def clamp_(self, min=None, max=None):
        return self._inplace(unary.Clamp, min, max)

    def fill_(self, value):
        return self._inplace(unary.Fill, float(value) if self.dtype.is_floating_point else value)

    def zero_(self):
        return self._inplace(unary.Zero)

    def copy_(self, src):
        return self._inplace(unary.Copy, src)

    def normal_(self, mean=0.0, std=1.0):
        from ._creation import _generator
        return self._inplace_random(_generator().normal(mean, std, self._data.shape))

    def uniform_(self, a=0.0, b=1.0):
        from ._creation import _generator
        return self._inplace_random(_generator().uniform(a, b, self._data.shape))

    def _inplace_random(self, values):
        self._check_inplace()
        self._data[...] = values
        self._bump_version()
        return self


def _as_tensor(value, like):
    """A Python number as a 0-d tensor of the dtype PyTorch's promotion would give it next to `like`."""
    if isinstance(value, TensorOps):
        return value
    try:
        key = (value, type(value), like._data.dtype)
        return _WRAPPED[key]      # wrapped numbers are never modified, so one per value can be shared
    except (KeyError, TypeError):
        pass
    kind = like._data.dtype.kind
    if (type(value) is float and kind == "f") or (type(value) is int and kind in "fi"):
        t = Tensor._make(np.array(value, like._data.dtype))
    elif np.ndim(value) == 0:
        np_type = _dtype.promote((like.dtype, 2), (_dtype.scalar_dtype(value), 0)).np_type
        t = Tensor._make(np.array(value, np_type))
    else:
        return Tensor._make(np.asarray(value, like._data.dtype if kind in "fb" else None))
    t._wrapped_number = True
    if len(_WRAPPED) > 1024:
        _WRAPPED.clear()
    _WRAPPED[key] = t
    return t


_WRAPPED = {}


def _is_number(value):
    return isinstance(value, (int, float, np.number, np.bool_))


def _shape_arg(args):
    """Accept both `f(2, 3)` and `f((2, 3))`."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        return tuple(args[0])
    return tuple(args)


def indexing_read(t, index):
    """`t[index]` as PyTorch does it: ints, slices, None and `...` first, as views (Select, Slice, Unsqueeze);
    then, if the index also holds tensors, lists or masks, one Index op (a copy) with those."""
    items = index if isinstance(index, tuple) else (index,)
    # a 0-d integer tensor indexes like an int
    items = tuple(int(i) if isinstance(i, TensorOps) and i.dim() == 0 and i.dtype is _dtype.int64 else i
                  for i in items)
    at = next((k for k, i in enumerate(items) if i is Ellipsis), None)     # not `in`: tensors compare by ==
    if sum(_dims_indexed(i) for i in items if i is not Ellipsis) > t.dim():
        raise IndexError(f"too many indices for tensor of dimension {t.dim()}")
    if at is not None:
        fill = t.dim() - sum(_dims_indexed(i) for i in items if i is not Ellipsis)
        items = items[:at] + (slice(None),) * fill + items[at + 1:]
    out, dim, advanced = t, 0, []
    for item in items:
        if item is None:
            out = shape.Unsqueeze.apply(out, dim)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(item, slice):
            if item != slice(None) or isinstance(index, slice):    # PyTorch slices even t[:]
                out = indexing.Slice.apply(out, dim, item)
            advanced.append(slice(None))
            dim += 1
        elif isinstance(item, (int, np.integer)) and not isinstance(item, bool):
            out = indexing.Select.apply(out, dim, int(item))
        else:
            array = item._data if isinstance(item, TensorOps) else np.asarray(item)
            advanced.append(array)
            dim += _dims_indexed(array)
    if any(not isinstance(a, slice) for a in advanced):
        return indexing.Index.apply(out, tuple(advanced))
    return out if out is not t else shape.Alias.apply(t)


def _dims_indexed(item):
    """How many dims of the tensor an index item consumes: a mask one per its own dim, None none."""
    if item is None:
        return 0
    if isinstance(item, (TensorOps, np.ndarray)) and item.dtype in (_dtype.bool, np.bool_):
        return item.ndim
    return 1


def _load_ops():
    """Import the op modules, once Tensor exists (they build Tensors, and Tensor's methods call them)."""
    global arithmetic, unary, reduction, shape, linalg, indexing, Tensor
    from ._tensor import Tensor  # noqa: F811 - a plain Tensor, even next to a Parameter
    from .ops import arithmetic, indexing, linalg, reduction, shape, unary  # noqa: F811

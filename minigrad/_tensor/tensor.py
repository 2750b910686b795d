"""`Tensor`, the class a program uses: the state of `core/tensor.py` plus every method, by kind.

As in PyTorch, where `torch.Tensor` (torch/_tensor.py) is a Python class over the C++ `TensorBase`: the state and
what autograd needs of a tensor are `TensorBase` (minigrad/core/tensor.py); the methods that compute call the
built-in ops of `minigrad/ops/`, which sit above `TensorBase` (they make tensors), so they are written above
the ops and `Tensor` inherits them. The arithmetic operators (`x + y` is `Add.apply(x, y)`) are
`TensorArithmetic`, next to the ops they call in `ops/arithmetic.py`; this file holds the matrix products and
`backward()`, which starts the engine. The other kinds are each in a file of this folder: `pointwise.py`,
`reductions.py`, `shape.py`, `indexing.py`, `inplace.py` (and `inplace_shape.py`), `conversion.py`, and for the
rest of PyTorch's surface `elementwise.py` (hypot, lgamma, ...), `selection.py` (median, unique, ...), `layout.py`
(tensor_split, rot90, ...), `aliases.py` (PyTorch's second names: greater, subtract, swapaxes, ...),
`complex_api.py` (conj, mT, angle, ... on real tensors) and `index_write.py` (index_copy, put, take, ...).
"""
import weakref

import numpy as np

from ..compat import refused as _refused
from ..core.engine import backward as _backward
from ..core.graph import RemovableHandle, accumulator
from ..core.tensor import TensorBase, set_tensor_class
from ..ops import determinant, linalg, memory_format as _formats
from ..ops.unary import Where as _Where
from ..return_types import make as _named
from ..ops._common import as_operand as _as_tensor
from ..ops.arithmetic import TensorArithmetic
from .aliases import TensorAliases
from .complex_api import TensorComplexAPI
from .elementwise import TensorElementwise
from .layout import TensorLayout
from .selection import TensorSelection
from .conversion import TensorConvert
from .indexing import TensorIndexing
from .inplace import TensorInPlace
from .inplace_shape import TensorInPlaceShape
from .index_write import TensorIndexWrite
from .pointwise import TensorPointwise
from .printing import tensor_repr
from .reductions import TensorReductions
from .shape import TensorShape
from .views import TensorViews


class Tensor(TensorBase, TensorArithmetic, TensorPointwise, TensorReductions, TensorShape, TensorInPlace,
             TensorIndexing, TensorConvert, TensorViews, TensorAliases, TensorElementwise, TensorSelection,
             TensorLayout, TensorComplexAPI, TensorInPlaceShape, TensorIndexWrite):
    """An n-dimensional array that can record the operations applied to it. Mirrors `torch.Tensor`.

    Create tensors with `minigrad.tensor(...)`, `zeros`, `randn`, ... rather than with this class.
    """
    # what minigrad leaves out on purpose (x.to_sparse(), x.bfloat16(), ...) raises its sentence: compat/refused.py
    __getattr__ = _refused.attribute_getattr("torch.Tensor")

    # ---- matrix products -----------------------------------------------------------------------------------
    def __matmul__(self, other):
        return self.matmul(other)

    def __rmatmul__(self, other):
        return _as_tensor(other, self).matmul(self)

    def mm(self, other):
        return linalg.Mm.apply(self, other)

    def mv(self, other):
        return linalg.Mv.apply(self, other)

    def dot(self, other):
        return linalg.Dot.apply(self, other)

    def vdot(self, other):
        """The dot product of vectors, conjugating self (the same for real vectors); node VdotBackward0."""
        return linalg.Vdot.apply(self, other)

    def matmul(self, other):
        """Dispatch on dimensions as PyTorch does: dot, mv, mm, a folded mm/mv, or bmm (see `ops/linalg.py`)."""
        return linalg.matmul(self, other)

    def bmm(self, mat2):
        return linalg.Bmm.apply(self, mat2)

    def kron(self, other):
        """The Kronecker product: every element of self times a whole block `other`. Mirrors `torch.kron`."""
        return linalg.kron(self, other)

    def cross(self, other, dim=None):
        return linalg.cross(self, other, dim)

    # ---- functions of square matrices: inverse, determinants, powers (ops/determinant.py) --------------------
    def inverse(self):
        return determinant.Inverse.apply(self)

    def det(self):
        return determinant.Det.apply(self)

    def slogdet(self):
        """(sign, logabsdet): the sign of the determinant and the log of its absolute value."""
        return _named("slogdet", *determinant.Slogdet.apply(self))

    def logdet(self):
        """log det(self): nan where the determinant is negative, -inf where it is 0 (PyTorch's slogdet-based form)."""
        sign, logabsdet = self.slogdet()
        return _where(sign == -1, float("nan"), logabsdet)

    def matrix_power(self, n):
        """self multiplied by itself n times (n = 0: the identity; n < 0: powers of the inverse), by repeated
        squaring as ATen does it, so the graph is its chain of matrix products."""
        _check_matrix_power(self)
        a = self
        if n == 0:
            out = a.clone(memory_format=_formats.contiguous_format)
            return out.copy_(_eye_like(a))
        if n < 0:
            a, n = a.inverse(), -n
        if n == 1:
            return a.clone(memory_format=_formats.contiguous_format)
        if n == 2:
            return a.matmul(a)
        if n == 3:
            return a.matmul(a).matmul(a)
        z = result = None
        while n > 0:
            bit, n = n % 2, n // 2
            z = a if z is None else z.matmul(z)
            if bit:
                result = z if result is None else result.matmul(z)
        return result

    # ---- beta * self + alpha * (a product), one node each; the `_` forms write into self ---------------------
    def addmm(self, mat1, mat2, *, beta=1, alpha=1):
        return linalg.Addmm.apply(self, mat1, mat2, beta, alpha)

    def addmv(self, mat, vec, *, beta=1, alpha=1):
        return linalg.Addmv.apply(self, mat, vec, beta, alpha)

    def addr(self, vec1, vec2, *, beta=1, alpha=1):
        return linalg.Addr.apply(self, vec1, vec2, beta, alpha)

    def baddbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.Baddbmm.apply(self, batch1, batch2, beta, alpha)

    def addbmm(self, batch1, batch2, *, beta=1, alpha=1):
        return linalg.Addbmm.apply(self, batch1, batch2, beta, alpha)

    def addmm_(self, mat1, mat2, *, beta=1, alpha=1):
        rows, columns = mat1.shape[:1], mat2.shape[1:]
        if mat1.dim() == mat2.dim() == 2 and tuple(self.shape) != rows + columns:
            raise RuntimeError(f"Bad in-place call: input tensor size {list(self.shape)} and output tensor size "
                               f"{list(rows + columns)} should match")
        return self._inplace(linalg.Addmm, mat1, mat2, beta, alpha)

    def addmv_(self, mat, vec, *, beta=1, alpha=1):
        return self._inplace(linalg.Addmv, mat, vec, beta, alpha)

    def addr_(self, vec1, vec2, *, beta=1, alpha=1):
        return self._inplace(linalg.Addr, vec1, vec2, beta, alpha)

    def baddbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        return self._inplace(linalg.Baddbmm, batch1, batch2, beta, alpha)

    def addbmm_(self, batch1, batch2, *, beta=1, alpha=1):
        if self.dim() != 2:
            raise RuntimeError(f"2D tensor expected, got {self.dim()}D tensor for input")
        return self._inplace(linalg.Addbmm, batch1, batch2, beta, alpha)

    # ---- backward: where the engine starts (core/engine.py), and what it does at this tensor's node -------
    def retain_grad(self):
        """Ask backward to fill this non-leaf tensor's `.grad` too."""
        if not self._requires_grad:
            raise RuntimeError("can't retain_grad on Tensor that has requires_grad=False")
        if self.grad_fn is None:
            return
        if self.grad_fn._retained is None:
            self.grad_fn._retained = {}
        self.grad_fn._retained[self._output_nr] = weakref.ref(self)

    def register_hook(self, hook):
        """Call `hook(grad)` when this tensor's gradient is computed; a non-None result replaces the gradient.

        Returns a handle whose `.remove()` unregisters the hook.
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is None:
            return accumulator(self)._add_pre_hook(0, hook)
        return self.grad_fn._add_pre_hook(self._output_nr, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call `hook(tensor)` on this leaf after backward has added into its `.grad` (an optimizer step can
        run here, per parameter, as soon as its gradient is complete). The hook must return None.

        Returns a handle whose `.remove()` unregisters the hook.
        """
        if not self._requires_grad:
            raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
        if self.grad_fn is not None:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf tensors")
        node = accumulator(self)
        if node._post_accumulate_hooks is None:
            node._post_accumulate_hooks = []
        node._post_accumulate_hooks.append(hook)
        return RemovableHandle(node._post_accumulate_hooks, hook)

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None):
        """Compute the gradient of this tensor w.r.t. the graph's leaves. Mirrors `torch.Tensor.backward`.

        Args:
            gradient: d(something)/d(self), same shape as self; may be omitted only for a single-element tensor,
                where it defaults to 1. It is the `grad_output` that this tensor's `grad_fn` receives.
            retain_graph: keep the saved tensors so that backward can run through this graph again.
        """
        _backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def __repr__(self):
        return tensor_repr(self)


def _where(condition, number, tensor):
    """torch.where(condition, number, tensor), recorded as PyTorch's WhereBackward0."""
    return _Where.apply(condition._data, _as_tensor(number, tensor), tensor)


def _eye_like(a):
    n = a.shape[-1]
    return Tensor._make(np.broadcast_to(np.eye(n, dtype=a._data.dtype), a._data.shape))


def _check_matrix_power(a):
    """linalg.matrix_power takes integer matrices too (negative powers need the inverse, which checks the dtype)."""
    if a.dim() < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    if a.shape[-1] != a.shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but they are {a.shape[-2]} "
                           f"by {a.shape[-1]} matrices")


set_tensor_class(Tensor)      # every tensor that TensorBase._make creates, in any op, is one of these

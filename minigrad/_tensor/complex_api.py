"""The complex-number methods of `Tensor`, on minigrad's real tensors: a real number is its own conjugate, its
real part is itself and its angle is 0 or pi, so these are the identity, a transpose, or `angle`'s 0/pi.

Code written for real and complex tensors alike (`x.mH @ y`, `x.conj()`, `x.resolve_conj().numpy()`) runs
unchanged; `x.imag` and complex dtypes are refused (compat/refused.py).
"""
import warnings

import numpy as np

from ..compat.batched import like
from ..core.tensor import TensorBase
from ..ops import complex_parts


class TensorComplexAPI:
    """Methods of `Tensor` from PyTorch's complex-number API, for real tensors."""

    # ---- conjugates: a real tensor is its own (PyTorch returns the tensor itself, no node) --------------------
    def conj(self):
        return self

    def conj_physical(self):
        return self

    def conj_physical_(self):
        """Write the conjugate into self: the values stay, but it is an in-place op (ConjPhysicalBackward1)."""
        return self._inplace(complex_parts.ConjPhysical)

    def resolve_conj(self):
        return self

    def resolve_neg(self):
        return self

    def is_conj(self):
        return False

    def is_neg(self):
        return False

    # ---- parts and angle ---------------------------------------------------------------------------------------
    @property
    def real(self):
        return self

    def isreal(self):
        return like(TensorBase._make(np.ones(self._data.shape, bool)), self)

    def angle(self):
        """pi where the element is negative, 0 elsewhere (nan stays nan), in a float dtype. Mirrors `torch.angle`."""
        return complex_parts.Angle.apply(self)

    # ---- conjugate transposes: transposes -------------------------------------------------------------------
    @property
    def mT(self):       # noqa: N802 - PyTorch's name
        """The transpose of the last two dims (of each matrix in a batch)."""
        return self._matrix_transpose("tensor.mT", "Tensor.mT", "This function is the identity in these cases", 4373)

    @property
    def mH(self):       # noqa: N802
        """The conjugate transpose of each matrix: mT, for real tensors."""
        return self._matrix_transpose("tensor.mH", "Tensor.mH", "Consider using x.conj()", 4382)

    def adjoint(self):
        return self._matrix_transpose("tensor.adjoint()", "adjoint()", "Consider using x.conj()", 4390)

    @property
    def H(self):        # noqa: N802
        """The conjugate transpose of a matrix (2-D only; `mH` for batches)."""
        if self.dim() not in (0, 2):
            hint = " For batches of matrices, consider using tensor.mH" if self.dim() > 2 else ""
            raise RuntimeError(f"tensor.H is only supported on matrices (2-D tensors). Got {self.dim()}-D tensor."
                               + hint)
        return self._matrix_transpose("tensor.H", "Tensor.H", "Consider using x.conj()", 4335)

    def _matrix_transpose(self, name, warned, advice, line):
        if self.dim() == 0:
            warnings.warn(f"{warned} is deprecated on 0-D tensors. {advice}. (Triggered internally at "
                          f"/__w/pytorch/pytorch/aten/src/ATen/native/TensorShape.cpp:{line}.)", UserWarning,
                          stacklevel=3)
            return self
        if self.dim() < 2:
            raise RuntimeError(f"{name} is only supported on matrices or batches of matrices. Got {self.dim()}-D "
                               "tensor.")
        return self.transpose(-2, -1)

"""The building blocks of the op table: how inputs are drawn (`N`, `P`, `A`, ...) and what a `Case` holds."""
import warnings
from dataclasses import dataclass, field

import numpy as np

FLOAT = "float"      # the dtype under test


@dataclass(frozen=True)
class Arg:
    shape: tuple
    kind: str = "normal"
    dtype: str = FLOAT
    values: tuple = None
    high: int = 3
    const: bool = False        # a float input that does not require grad

    def requires_grad(self, array):
        return array.dtype.kind == "f" and not self.const

    def draw(self, rng, float_dtype):
        dtype = float_dtype if self.dtype == FLOAT else self.dtype
        if self.values is not None:
            return np.array(self.values, dtype=dtype)
        if self.kind == "normal":
            a = rng.standard_normal(self.shape)
        elif self.kind == "positive":
            a = rng.uniform(0.5, 2.0, self.shape)
        elif self.kind == "away":
            # |x| in [0.1, 0.4] or [0.6, 1.5]: never 0 and never at the clamp bounds ±0.5
            mag = np.where(rng.random(self.shape) < 0.5, rng.uniform(0.1, 0.4, self.shape),
                           rng.uniform(0.6, 1.5, self.shape))
            a = mag * rng.choice([-1.0, 1.0], self.shape)
        elif self.kind == "int":
            a = rng.integers(-3, 4, self.shape)
        elif self.kind == "index":
            a = rng.integers(0, self.high, self.shape)
        elif self.kind == "bool":
            a = rng.random(self.shape) < 0.5
        else:
            raise ValueError(self.kind)
        return np.asarray(a, dtype=dtype)


def N(*shape, dtype=FLOAT, const=False):
    return Arg(shape, "normal", dtype, const=const)


def P(*shape, dtype=FLOAT):
    return Arg(shape, "positive", dtype)


def A(*shape, dtype=FLOAT):
    return Arg(shape, "away", dtype)


def I(*shape):  # noqa: E743
    return Arg(shape, "int", "int64")


def Ix(*shape, high):
    return Arg(shape, "index", "int64", high=high)


def B(*shape):
    return Arg(shape, "bool", "bool")


def C(values, dtype=FLOAT):
    return Arg(np.shape(values), "constant", dtype, values=values)


@dataclass(frozen=True)
class Case:
    id: str
    fn: object
    args: tuple
    ref: object
    dtype: str = None          # expected result dtype, when numpy's differs from torch's
    grad: bool = True
    gradcheck: bool = True     # False at points where the op is not differentiable (ties)
    gradgrad: str = None       # why the row skips gradgradcheck: only where torch's op is not twice differentiable
    tags: tuple = field(default=())


def _setitem(index, value):
    def ref(x, *rest):
        y = x.copy()
        y[index(x, *rest) if callable(index) else index] = value(*rest) if callable(value) else value
        return y
    return ref


def _sort(x, dim=-1, descending=False):
    idx = np.argsort(-x if descending else x, axis=dim, kind="stable")
    return np.take_along_axis(x, idx, axis=dim), idx


def _max_dim(x, dim, keepdim=False, pick=np.argmax):
    idx = np.expand_dims(pick(x, axis=dim), dim)
    values = np.take_along_axis(x, idx, axis=dim)
    return (values, idx) if keepdim else (values.squeeze(dim), idx.squeeze(dim))


def _norm(x, p=2, dim=None, keepdim=False):
    if p == float("inf"):
        return np.abs(x).max(axis=dim, keepdims=keepdim)
    return (np.abs(x) ** p).sum(axis=dim, keepdims=keepdim) ** (1 / p)


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))

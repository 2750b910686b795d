"""The math functions and reductions beyond the basics (sin, cos, ..., std, var, prod, cumsum, topk) methods of `Tensor`.

Each one applies a built-in `Function` from `minigrad/ops/`.
"""


class TensorMath:
    """Methods of `Tensor`: math functions and reductions beyond the basics (sin, cos, ..., std, var, prod, cumsum, topk)."""


def _load_ops():
    """Import the op modules once Tensor exists (see `_tensor_ops._load_ops`)."""

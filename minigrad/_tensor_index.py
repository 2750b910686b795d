"""The shape and indexing methods beyond the basics (split, chunk, flip, roll, gather, scatter, ...) methods of `Tensor`.

Each one applies a built-in `Function` from `minigrad/ops/`.
"""


class TensorIndexing:
    """Methods of `Tensor`: shape and indexing methods beyond the basics (split, chunk, flip, roll, gather, scatter, ...)."""


def _load_ops():
    """Import the op modules once Tensor exists (see `_tensor_ops._load_ops`)."""

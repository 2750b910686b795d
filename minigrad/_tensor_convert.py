"""The dtype and device conversions (.to, .float, .int, .cpu, .cuda, .device) methods of `Tensor`.

Each one applies a built-in `Function` from `minigrad/ops/`.
"""


class TensorConvert:
    """Methods of `Tensor`: dtype and device conversions (.to, .float, .int, .cpu, .cuda, .device)."""


def _load_ops():
    """Import the op modules once Tensor exists (see `_tensor_ops._load_ops`)."""

"""The functional forms of the convolution, pooling, normalization, embedding and dropout layers
(`F.conv2d`, `F.max_pool2d`, `F.batch_norm`, ...). `torch.nn.functional` re-exports them.

Each function checks its arguments as PyTorch does (same errors, same order) and then applies one op, a
`Function` with PyTorch's node name: the convolution and im2col in `_conv_functions.py`, pooling in
`_pool_functions.py`, padding in `_pad_functions.py`, normalization in `_norm_functions.py`, the embedding
lookup in `_embedding_functions.py`.
"""
from ._functional_conv import conv2d, fold, pad, unfold
from ._functional_norm import batch_norm, dropout, embedding, layer_norm
from ._functional_pool import adaptive_avg_pool2d, avg_pool2d, max_pool2d

__all__ = ["conv2d", "unfold", "fold", "pad", "max_pool2d", "avg_pool2d", "adaptive_avg_pool2d", "dropout",
           "embedding", "layer_norm", "batch_norm"]

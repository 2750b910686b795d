"""The functional forms of the convolution, pooling, normalization, embedding and dropout layers
(`F.conv2d`, `F.max_pool2d`, `F.batch_norm`, ...). `torch.nn.functional` re-exports them."""

__all__ = []

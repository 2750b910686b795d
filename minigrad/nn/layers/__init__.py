"""Layers beyond Linear: convolution, pooling, normalization, embedding, dropout. Mirrors parts of `torch.nn`."""
from .conv import Conv2d
from .dropout import Dropout
from .normalization import BatchNorm1d, BatchNorm2d, LayerNorm
from .pooling import AdaptiveAvgPool2d, AvgPool2d, MaxPool2d
from .sparse import Embedding

__all__ = ["Conv2d", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d", "Dropout", "Embedding", "LayerNorm",
           "BatchNorm1d", "BatchNorm2d"]

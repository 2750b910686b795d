"""Layers beyond Linear: convolution, pooling, normalization, embedding, dropout. Mirrors parts of `torch.nn`."""

__all__ = []

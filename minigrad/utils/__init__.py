"""Utilities: `utils.data`, the datasets and data loaders of a training loop. Mirrors `torch.utils`."""
from . import data

__all__ = ["data"]

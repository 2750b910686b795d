"""Utilities: `utils.data` (datasets and data loaders) and `utils.checkpoint` (activation checkpointing). Mirrors
`torch.utils`."""
from . import checkpoint, data

__all__ = ["checkpoint", "data"]

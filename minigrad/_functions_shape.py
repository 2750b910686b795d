"""Module-level spellings (`torch.sin(x)`, ...) of the shape methods added for the tutorials' PyTorch."""

__all__ = []

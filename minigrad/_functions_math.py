"""Module-level spellings (`torch.sin(x)`, ...) of the math methods added for the tutorials' PyTorch."""

__all__ = []

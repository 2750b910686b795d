"""`Dropout`: zero random elements in training, to regularise (`F.dropout`)."""
from .. import functional as F
from ..module import Module

__all__ = ["Dropout"]


class Dropout(Module):
    """In training, zero each element with probability p and scale the others by 1 / (1 - p), so the expected
    value is unchanged; in eval mode, pass the input through. Mirrors `torch.nn.Dropout`.

    Example:
        >>> drop = nn.Dropout(0.5)
        >>> drop.eval()(torch.ones(3))
        tensor([1., 1., 1.])
    """

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"

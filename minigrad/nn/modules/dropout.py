"""Dropout layers: zero random elements (`Dropout`) or whole channels (`Dropout1d/2d/3d`) in training, to
regularise; `AlphaDropout` and `FeatureAlphaDropout` for SELU networks. Each calls its `F.` function."""
from .. import functional as F
from ..module import Module

__all__ = ["Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout"]


class _DropoutNd(Module):
    """What every dropout layer holds: the probability `p` and whether to work in place."""

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p, self.inplace = p, inplace

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """In training, zero each element with probability p and scale the others by 1 / (1 - p), so the expected
    value is unchanged; in eval mode, pass the input through. Mirrors `torch.nn.Dropout`.

    Example:
        >>> drop = nn.Dropout(0.5)
        >>> drop.eval()(torch.ones(3))
        tensor([1., 1., 1.])
    """

    def forward(self, input):
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout1d(_DropoutNd):
    """Zero whole channels of (N, C, L) or (C, L) inputs. Mirrors `torch.nn.Dropout1d`."""

    def forward(self, input):
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """Zero whole channels of (N, C, H, W) inputs (a 3-D input is read as (N, C, L)). Mirrors `torch.nn.Dropout2d`."""

    def forward(self, input):
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """Zero whole channels of (N, C, D, H, W) or (C, D, H, W) inputs. Mirrors `torch.nn.Dropout3d`."""

    def forward(self, input):
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Alpha dropout (see `F.alpha_dropout`), for SELU networks. Mirrors `torch.nn.AlphaDropout`, whose forward
    never works in place, whatever `inplace` says."""

    def forward(self, input):
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels. Mirrors `torch.nn.FeatureAlphaDropout` (never in place either)."""

    def forward(self, input):
        return F.feature_alpha_dropout(input, self.p, self.training)

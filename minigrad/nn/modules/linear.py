"""`Linear` (y = x W^T + b), and the shape-only layers `Identity`, `Flatten` and `Unflatten`."""
import math

from ..._tensor import creation as _creation
from .. import functional as F
from .. import init
from ..module import Module
from ..parameter import Parameter


class Linear(Module):
    """Apply y = x W^T + b to the last dimension of the input. Mirrors `torch.nn.Linear`.

    Args:
        in_features: size of each input sample.
        out_features: size of each output sample.
        bias: whether to learn an additive bias. Default: True.

    Attributes:
        weight: Parameter of shape (out_features, in_features), initialised from U(-k, k), k = 1/sqrt(in_features)
            (that is `kaiming_uniform_(a=sqrt(5))`, PyTorch's default).
        bias: Parameter of shape (out_features,), from the same U(-k, k); or None.

    Example:
        >>> layer = nn.Linear(3, 2)
        >>> layer(torch.ones(4, 3)).shape
        torch.Size([4, 2])
    """

    def __init__(self, in_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = Parameter(_creation.empty(out_features, in_features, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draw fresh weights from PyTorch's default distribution."""
        reset_weight_and_bias(self.weight, self.bias)

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)

    def extra_repr(self):
        return f"in_features={self.in_features}, out_features={self.out_features}, bias={self.bias is not None}"


class Bilinear(Module):
    """y = x1ᵀ A x2 + b for each out feature. Mirrors `torch.nn.Bilinear`.

    Attributes:
        weight: (out_features, in1_features, in2_features), from U(-k, k), k = 1 / sqrt(in1_features);
        bias: (out_features,), from the same U(-k, k); or None.

    Example:
        >>> nn.Bilinear(3, 4, 5)(torch.ones(2, 3), torch.ones(2, 4)).shape
        torch.Size([2, 5])
    """

    def __init__(self, in1_features, in2_features, out_features, bias=True, device=None, dtype=None):
        super().__init__()
        self.in1_features, self.in2_features, self.out_features = in1_features, in2_features, out_features
        self.weight = Parameter(_creation.empty(out_features, in1_features, in2_features, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_features, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        bound = 1 / math.sqrt(self.weight.size(1))
        init.uniform_(self.weight, -bound, bound)
        if self.bias is not None:
            init.uniform_(self.bias, -bound, bound)

    def forward(self, input1, input2):
        return F.bilinear(input1, input2, self.weight, self.bias)

    def extra_repr(self):
        return (f"in1_features={self.in1_features}, in2_features={self.in2_features}, "
                f"out_features={self.out_features}, bias={self.bias is not None}")


class Identity(Module):
    """Return the input unchanged (a placeholder layer). Mirrors `torch.nn.Identity`."""

    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class Flatten(Module):
    """Flatten dimensions start_dim..end_dim into one: (N, 8, 8) -> (N, 64) by default. Mirrors `torch.nn.Flatten`."""

    def __init__(self, start_dim=1, end_dim=-1):
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input):
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self):
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Unflatten(Module):
    """Split dimension `dim` into `unflattened_size`: (N, 64) -> (N, 1, 8, 8). Mirrors `torch.nn.Unflatten`.

    Example:
        >>> nn.Unflatten(1, (2, 3))(torch.zeros(4, 6)).shape
        torch.Size([4, 2, 3])
    """

    def __init__(self, dim, unflattened_size):
        super().__init__()
        if not isinstance(unflattened_size, (tuple, list)):
            raise TypeError("unflattened_size must be a tuple of ints, but found type "
                            f"{type(unflattened_size).__name__}")
        for idx, elem in enumerate(unflattened_size):
            if not isinstance(elem, int):
                raise TypeError(f"unflattened_size must be tuple of ints, but found element of type "
                                f"{type(elem).__name__} at pos {idx}")
        self.dim = dim
        self.unflattened_size = unflattened_size

    def forward(self, input):
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self):
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


def reset_weight_and_bias(weight, bias):
    """PyTorch's default initialisation of a layer (Linear, Conv2d): kaiming_uniform_ with a = sqrt(5) for the
    weight, then the bias uniform in +-1/sqrt(fan_in), drawn in that order from the global generator."""
    init.kaiming_uniform_(weight, a=math.sqrt(5))
    if bias is not None:
        fan_in, _ = init._calculate_fan_in_and_fan_out(weight)
        bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
        init.uniform_(bias, -bound, bound)

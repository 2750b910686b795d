"""`Conv1d` and `Conv2d`: a bank of learned filters slid over a sequence or an image (`F.conv1d`, `F.conv2d`, built
on im2col: see nn/functional/conv.py); `ConvTranspose1d` and `ConvTranspose2d`, their adjoints, which paint a
kernel-sized patch per input position (nn/functional/conv_transpose.py). What they share is `_ConvNd`, as in
`torch.nn.modules.conv`."""
from ..._tensor import creation as _creation
from .. import functional as F
from ..functional.arguments import pair
from .linear import reset_weight_and_bias
from ..module import Module
from ..parameter import Parameter

__all__ = ["Conv1d", "Conv2d", "ConvTranspose1d", "ConvTranspose2d"]

_PADDING_MODES = {"zeros", "reflect", "replicate", "circular"}


def _single(value):
    """An int as a 1-tuple, a sequence as a tuple (torch's `_single`)."""
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


class _ConvNd(Module):
    """The layer of `Conv1d` and `Conv2d`: the arguments, the parameters and their init, the forward through
    `F.pad` for the padding modes other than zeros, the repr. A subclass names its `_ntuple` and its `_conv`."""

    _transposed = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None, output_padding=0):
        super().__init__()
        ntuple = self._ntuple
        kernel_size, stride, dilation = ntuple(kernel_size), ntuple(stride), ntuple(dilation)
        padding = padding if isinstance(padding, str) else ntuple(padding)
        _check_arguments(in_channels, out_channels, stride, padding, groups, padding_mode)
        self.in_channels, self.out_channels = in_channels, out_channels
        self.kernel_size, self.stride, self.padding, self.dilation = kernel_size, stride, padding, dilation
        self.transposed, self.output_padding = self._transposed, ntuple(output_padding)
        self.groups, self.padding_mode = groups, padding_mode
        # what F.pad gets for the padding modes other than zeros: (left, right, top, bottom)
        self._reversed_padding_repeated_twice = _reversed_padding(padding, kernel_size, dilation)
        # a transposed convolution's weight has the in channels first: (in, out / groups, k...)
        outer, inner = (in_channels, out_channels // groups) if self._transposed else (out_channels,
                                                                                      in_channels // groups)
        self.weight = Parameter(_creation.empty(outer, inner, *kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self):
        """Draw fresh weights from PyTorch's default distribution."""
        reset_weight_and_bias(self.weight, self.bias)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return self._conv(padded, weight, bias, self.stride, self._ntuple(0), self.dilation, self.groups)
        return self._conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input):
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self):
        s = f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}"
        if self.padding != (0,) * len(self.padding):
            s += f", padding={self.padding}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += f", output_padding={self.output_padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += f", padding_mode={self.padding_mode}"
        return s


class Conv1d(_ConvNd):
    """Apply a 1-D convolution (a cross-correlation) with `out_channels` learned filters. Mirrors `torch.nn.Conv1d`.

    Args: those of `Conv2d`, with one value each for kernel_size, stride, padding and dilation.

    Attributes:
        weight: (out_channels, in_channels / groups, k), from U(-b, b), b = 1 / sqrt(in_channels / groups * k);
        bias: (out_channels,), from the same U(-b, b); or None.

    Example:
        >>> nn.Conv1d(4, 8, 3, padding=1)(torch.randn(2, 4, 10)).shape
        torch.Size([2, 8, 10])
    """
    _ntuple = staticmethod(_single)
    _conv = staticmethod(F.conv1d)


class Conv2d(_ConvNd):
    """Apply a 2-D convolution (a cross-correlation) with `out_channels` learned filters. Mirrors `torch.nn.Conv2d`.

    Args:
        in_channels, out_channels: channels of the input and of the output.
        kernel_size, stride (1), padding (0; or "same" / "valid"), dilation (1): an int or a pair.
        groups: split the channels into this many independent convolutions (in and out channels divisible by it).
        bias: learn one additive bias per output channel. Default: True.
        padding_mode: "zeros" (default), "reflect" or "replicate" ("circular" is not supported by minigrad's pad).

    Attributes:
        weight: (out_channels, in_channels / groups, kh, kw), from kaiming_uniform_(a=sqrt(5)), i.e.
            U(-k, k), k = 1 / sqrt(fan_in), fan_in = in_channels / groups * kh * kw (PyTorch's default);
        bias: (out_channels,), from the same U(-k, k); or None.

    Example:
        >>> conv = nn.Conv2d(1, 6, 5)
        >>> conv
        Conv2d(1, 6, kernel_size=(5, 5), stride=(1, 1))
        >>> conv(torch.randn(1, 1, 32, 32)).shape
        torch.Size([1, 6, 28, 28])
    """

    _ntuple = staticmethod(pair)
    _conv = staticmethod(F.conv2d)


class _ConvTransposeNd(_ConvNd):
    """The layer of `ConvTranspose1d` and `ConvTranspose2d`: `_ConvNd` with the weight's channels swapped, an
    `output_padding`, zeros padding only, and a forward that may be asked for an `output_size`."""
    _transposed = True

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, output_padding=0, groups=1,
                 bias=True, dilation=1, padding_mode="zeros", device=None, dtype=None):
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {type(self).__name__}')
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, groups, bias,
                         padding_mode, device, dtype, output_padding)

    def forward(self, input, output_size=None):
        output_padding = self._output_padding(input, output_size)
        return self._conv(input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups,
                          self.dilation)

    def _output_padding(self, input, output_size):
        """The output_padding that gives `output_size` (torch's `_ConvTransposeNd._output_padding`)."""
        if output_size is None:
            return self.output_padding
        dims = len(self.kernel_size)
        output_size = list(output_size)[-dims:]
        spatial = input.shape[-dims:]
        smallest = [(spatial[d] - 1) * self.stride[d] - 2 * self.padding[d] + self.dilation[d] *
                    (self.kernel_size[d] - 1) + 1 for d in range(dims)]
        largest = [s + self.stride[d] - 1 for d, s in enumerate(smallest)]
        for size, low, high in zip(output_size, smallest, largest):
            if not low <= size <= high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {smallest} "
                                 f"to {largest} (for an input of {spatial})")
        return tuple(size - low for size, low in zip(output_size, smallest))


class ConvTranspose1d(_ConvTransposeNd):
    """Apply a 1-D transposed convolution: each input position adds a learned kernel-sized patch to the output.
    Mirrors `torch.nn.ConvTranspose1d`.

    Attributes:
        weight: (in_channels, out_channels / groups, k), from U(-b, b), b = 1 / sqrt(out_channels / groups * k);
        bias: (out_channels,), from the same U(-b, b); or None.
    """
    _ntuple = staticmethod(_single)
    _conv = staticmethod(F.conv_transpose1d)


class ConvTranspose2d(_ConvTransposeNd):
    """Apply a 2-D transposed convolution (the upsampling layer of decoders and GANs): each input pixel adds a
    learned kernel-sized patch to the output. Mirrors `torch.nn.ConvTranspose2d`.

    Args: those of `Conv2d`, and output_padding (0): rows and columns added at the end, to pick one of the output
    sizes a stride allows (or pass `output_size=` to forward).

    Attributes:
        weight: (in_channels, out_channels / groups, kh, kw), from PyTorch's default kaiming_uniform_(a=sqrt(5)),
            whose fan_in is out_channels / groups * kh * kw;  bias: (out_channels,); or None.

    Example:
        >>> nn.ConvTranspose2d(16, 8, 4, stride=2, padding=1)(torch.randn(1, 16, 7, 7)).shape
        torch.Size([1, 8, 14, 14])
    """
    _ntuple = staticmethod(pair)
    _conv = staticmethod(F.conv_transpose2d)


def _check_arguments(in_channels, out_channels, stride, padding, groups, padding_mode):
    """The ValueErrors of PyTorch's `_ConvNd.__init__`, in its order."""
    if groups <= 0:
        raise ValueError("groups must be a positive integer")
    if in_channels % groups != 0:
        raise ValueError("in_channels must be divisible by groups")
    if out_channels % groups != 0:
        raise ValueError("out_channels must be divisible by groups")
    if isinstance(padding, str):
        valid_padding_strings = {"same", "valid"}     # printed as a set, in the set's order, as PyTorch does
        if padding not in valid_padding_strings:
            raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
        if padding == "same" and any(s != 1 for s in stride):
            raise ValueError("padding='same' is not supported for strided convolutions")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"padding_mode must be one of {_PADDING_MODES}, but got padding_mode='{padding_mode}'")


def _reversed_padding(padding, kernel_size, dilation):
    """F.pad's list for `padding`: last dim first, each amount twice ('same': the extra one on the right)."""
    if padding == "valid":
        return [0, 0] * len(kernel_size)
    if padding == "same":
        out = []
        for d, k in reversed(list(zip(dilation, kernel_size))):
            total = d * (k - 1)
            out += [total // 2, total - total // 2]
        return out
    return tuple(p for p in reversed(padding) for _ in range(2))

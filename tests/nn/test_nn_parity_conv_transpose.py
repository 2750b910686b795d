"""Parity with real PyTorch for nn.ConvTranspose1d and nn.ConvTranspose2d (issue 26): the weights drawn under
`manual_seed` (bit for bit: the fan-in comes from the weight's second dim, out_channels / groups), reprs,
parameters and state_dict keys, forward with `output_size`, unbatched inputs, gradients of input, weight and bias,
and the layers' misuses. The functions themselves (values, graphs, second derivatives) are rows of
tests/core/op_table_conv_transpose.py."""
import pytest

LAYERS = {
    "2d_default": ("ConvTranspose2d", (4, 6, 3), {}),
    "2d_stride": ("ConvTranspose2d", (4, 6, 3), dict(stride=2)),
    "2d_output_padding": ("ConvTranspose2d", (4, 6, 3), dict(stride=2, padding=1, output_padding=1)),
    "2d_dilation": ("ConvTranspose2d", (4, 6, 3), dict(dilation=2, padding=1)),
    "2d_groups_rect": ("ConvTranspose2d", (4, 6, (3, 2)), dict(stride=(2, 1), groups=2, bias=False)),
    "2d_dcgan_generator": ("ConvTranspose2d", (8, 4, 4), dict(stride=2, padding=1, bias=False)),
    "1d": ("ConvTranspose1d", (3, 2, 4), dict(stride=3, padding=1)),
    "1d_float64": ("ConvTranspose1d", (2, 4, 2), dict(dilation=2, dtype="float64")),
}


@pytest.mark.parametrize("name", list(LAYERS))
def test_layer(parity, name):
    cls, args, kwargs = LAYERS[name]

    def example(lib):
        lib.manual_seed(0)
        options = dict(kwargs, dtype=getattr(lib, kwargs["dtype"])) if "dtype" in kwargs else kwargs
        layer = getattr(lib.nn, cls)(*args, **options)
        spatial = (5, 5) if cls.endswith("2d") else (7,)
        x = lib.randn(2, args[0], *spatial, dtype=layer.weight.dtype, requires_grad=True)
        y = layer(x)
        (y * y.detach().sign()).sum().backward()
        grads = [x.grad] + [p.grad for p in layer.parameters()]
        return [repr(layer), [(n, tuple(p.shape)) for n, p in layer.named_parameters()], list(layer.state_dict()),
                layer.weight, y, y.grad_fn.name(), grads, layer(x[0]).shape]
    parity(example)


def test_output_size_picks_the_output_padding(parity):
    def example(lib):
        lib.manual_seed(0)
        layer = lib.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1)
        x = lib.randn(1, 4, 5, 5)
        return [layer(x, output_size=[10, 10]).shape, layer(x, output_size=(1, 6, 9, 10)).shape, layer(x).shape]
    parity(example)


@pytest.mark.parametrize("expression", [
    "lib.nn.ConvTranspose2d(2, 3, 2, padding_mode='reflect')",
    "lib.nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1)(lib.ones(1, 4, 5, 5), output_size=[20, 20])",
    "lib.nn.ConvTranspose2d(3, 6, 3, groups=2)",
    "lib.nn.ConvTranspose1d(4, 2, 3)(lib.ones(1, 3, 5))",
])
def test_misuse(parity, expression):
    parity(lambda lib: eval(expression))

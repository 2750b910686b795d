"""Parity with real PyTorch for F.interpolate and nn.Upsample (issue 26) beyond the op-table rows
(tests/core/op_table_layers_sampling.py): a grid of modes, sizes and scale factors compared value for value with
their gradients and second derivatives, the nodes' saved arguments, the layers' reprs and options."""
import itertools

import pytest

MODES = {"nearest": (3, 4, 5), "nearest-exact": (3, 4, 5), "linear": (3,), "bilinear": (4,), "bicubic": (4,),
         "trilinear": (5,), "area": (3, 4)}
RESIZES = [dict(scale_factor=2), dict(scale_factor=1.5), dict(scale_factor=0.7), dict(scale_factor=3.3),
           dict(size=5), dict(size=2), dict(scale_factor=1.7, recompute_scale_factor=True),
           dict(scale_factor=1)]
SPATIAL = {3: (7,), 4: (4, 6), 5: (3, 2, 4)}


def _grid():
    for mode, dims in MODES.items():
        for ndim, resize in itertools.product(dims, RESIZES):
            corners = (False, True) if mode in ("linear", "bilinear", "bicubic", "trilinear") else (None,)
            for align_corners in corners:
                name = f"{mode}-{ndim}d-{'-'.join(f'{k}={v}' for k, v in resize.items())}-align={align_corners}"
                yield pytest.param(mode, ndim, resize, align_corners, id=name)


@pytest.mark.parametrize("mode, ndim, resize, align_corners", list(_grid()))
def test_interpolate_values_and_gradients_are_torchs(mode, ndim, resize, align_corners, parity):
    def example(L):
        L.manual_seed(0)
        x = L.randn(2, 2, *SPATIAL[ndim], requires_grad=True)
        kwargs = {} if align_corners is None else {"align_corners": align_corners}
        y = L.nn.functional.interpolate(x, mode=mode, **resize, **kwargs)
        (y * L.linspace(-1, 1, y.numel()).view(y.shape)).sum().backward()
        return y, x.grad
    parity(example)


@pytest.mark.parametrize("mode, ndim", [("nearest", 3), ("nearest-exact", 4), ("linear", 3), ("bilinear", 4),
                                        ("bicubic", 4), ("trilinear", 5)])
def test_interpolate_second_derivative_and_saved_arguments_are_torchs(mode, ndim, parity):
    """The gradient of a gradient: torch's UpsampleXBackwardBackward0 node (interpolation is linear, so it is the
    forward again), and what each node saved."""
    def example(L):
        L.manual_seed(1)
        x = L.randn(1, 2, *SPATIAL[ndim], dtype=L.float64, requires_grad=True)
        kwargs = {"align_corners": True} if mode not in ("nearest", "nearest-exact") else {}
        y = L.nn.functional.interpolate(x, scale_factor=2.5, mode=mode, **kwargs)
        seed = L.randn(*y.shape, dtype=L.float64, requires_grad=True)
        (gx,) = L.autograd.grad(y, x, seed, create_graph=True)
        (gx * gx).sum().backward()
        saved = {name: getattr(y.grad_fn, name) for name in dir(y.grad_fn) if name.startswith("_saved_")}
        saved_twice = {name: getattr(gx.grad_fn, name) for name in dir(gx.grad_fn) if name.startswith("_saved_")}
        return y, gx, seed.grad, gx.grad_fn.name(), saved, saved_twice
    parity(example)


def test_interpolate_size_given_saves_no_scales(parity):
    def example(L):
        x = L.ones(1, 1, 2, 3, requires_grad=True)
        y = L.nn.functional.interpolate(x, size=(4, 4), mode="bilinear")
        return y.grad_fn._saved_scales_h, y.grad_fn._saved_scales_w, y.grad_fn._saved_output_size
    parity(example)


def test_interpolate_keeps_float64_and_uint8(parity):
    def example(L):
        x = L.arange(12, dtype=L.float64).view(1, 2, 6)
        u = L.arange(6, dtype=L.uint8).view(1, 1, 2, 3)
        return (L.nn.functional.interpolate(x, scale_factor=0.5, mode="linear"),
                L.nn.functional.interpolate(u, scale_factor=2, mode="nearest-exact"))
    parity(example, rtol=1e-12, atol=1e-14)


def test_interpolate_empty_batch(parity):
    def example(L):
        return L.nn.functional.interpolate(L.ones(0, 2, 3, 3), size=(4, 5), mode="bicubic").shape
    parity(example)


# ---- the layers -------------------------------------------------------------------------------------------------
LAYERS = [
    ("scale", lambda nn: nn.Upsample(scale_factor=2)),
    ("scale_tuple", lambda nn: nn.Upsample(scale_factor=(2, 3), mode="bilinear")),
    ("size", lambda nn: nn.Upsample(size=(3, 4), mode="bicubic", align_corners=True)),
    ("size_int", lambda nn: nn.Upsample(size=5, mode="nearest-exact")),
    ("recompute", lambda nn: nn.Upsample(scale_factor=1.5, mode="bilinear", recompute_scale_factor=True)),
    ("zero_scale_is_none", lambda nn: nn.Upsample(scale_factor=0)),
    ("nothing", lambda nn: nn.Upsample()),
    ("nearest2d", lambda nn: nn.UpsamplingNearest2d(scale_factor=2)),
    ("nearest2d_size", lambda nn: nn.UpsamplingNearest2d(size=(3, 5))),
    ("bilinear2d", lambda nn: nn.UpsamplingBilinear2d(scale_factor=2.5)),
]


@pytest.mark.parametrize("make", [pytest.param(make, id=name) for name, make in LAYERS])
def test_upsample_layer_repr_and_options_are_torchs(make, parity):
    def example(L):
        layer = make(L.nn)
        options = {k: v for k, v in vars(layer).items() if not k.startswith("_") and k != "training"}
        return repr(layer), repr(L.nn.Sequential(layer)), sorted(options.items()), list(layer.state_dict())
    parity(example)


@pytest.mark.parametrize("make", [pytest.param(make, id=name) for name, make in LAYERS if name != "nothing"])
def test_upsample_layer_forward_is_torchs(make, parity):
    def example(L):
        L.manual_seed(2)
        x = L.randn(1, 2, 3, 4, requires_grad=True)
        y = make(L.nn)(x)
        y.sum().backward()
        return y, x.grad
    parity(example)

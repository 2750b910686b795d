"""Parity with real PyTorch for nn.Conv1d, nn.GroupNorm and nn.InstanceNorm1d/2d/3d (issue 26): the weights drawn
under `manual_seed` (bit for bit), reprs, parameters and state_dict keys, running statistics over training steps,
eval mode, unbatched inputs, second derivatives, and the layers' warnings. The functions themselves (values,
graphs, gradients, misuses) are rows of tests/core/op_table_layers_sampling.py."""
import pytest


def _layer_facts(layer):
    """What a learner sees of a layer: its repr, its parameters and buffers, its state_dict and its options."""
    options = {k: v for k, v in vars(layer).items() if not k.startswith("_") and k != "training"}
    return (repr(layer), [(n, tuple(p.shape), p.requires_grad) for n, p in layer.named_parameters()],
            [(n, None if b is None else tuple(b.shape)) for n, b in layer.named_buffers()], list(layer.state_dict()),
            sorted(options.items()))


# ---- Conv1d ---------------------------------------------------------------------------------------------------
CONV1D = {
    "default": dict(args=(4, 6, 3)),
    "stride_padding": dict(args=(4, 6, 3), kwargs=dict(stride=2, padding=1)),
    "tuple_args": dict(args=(2, 4, (5,)), kwargs=dict(stride=(2,), padding=(2,), dilation=(1,))),
    "dilation_groups": dict(args=(4, 8, 3), kwargs=dict(dilation=2, groups=2, padding=2)),
    "no_bias": dict(args=(3, 5, 2), kwargs=dict(bias=False)),
    "same": dict(args=(3, 3, 3), kwargs=dict(padding="same", dilation=2)),
    "same_even_kernel_replicate": dict(args=(2, 3, 4), kwargs=dict(padding="same", padding_mode="replicate")),
    "valid": dict(args=(2, 3, 3), kwargs=dict(padding="valid")),
    "reflect": dict(args=(2, 3, 3), kwargs=dict(padding=2, padding_mode="reflect")),
    "replicate": dict(args=(2, 4, 3), kwargs=dict(padding=1, padding_mode="replicate", bias=False)),
    "depthwise": dict(args=(3, 6, 3), kwargs=dict(groups=3)),
    "float64": dict(args=(2, 3, 3), kwargs=dict(dtype="float64")),
}


def _conv1d(L, case):
    kwargs = dict(case.get("kwargs", {}))
    if "dtype" in kwargs:
        kwargs["dtype"] = getattr(L, kwargs["dtype"])
    return L.nn.Conv1d(*case["args"], **kwargs)


@pytest.mark.parametrize("case", CONV1D, ids=list(CONV1D))
def test_conv1d_weights_repr_and_state_are_torchs(case, parity):
    def example(L):
        L.manual_seed(0)
        layer = _conv1d(L, CONV1D[case])
        return _layer_facts(layer), layer.weight, layer.bias, layer._reversed_padding_repeated_twice
    parity(example, rtol=0, atol=0)


@pytest.mark.parametrize("case", CONV1D, ids=list(CONV1D))
def test_conv1d_forward_and_gradients_are_torchs(case, parity):
    def example(L):
        L.manual_seed(1)
        layer = _conv1d(L, CONV1D[case])
        x = L.randn(2, layer.in_channels, 9, dtype=layer.weight.dtype, requires_grad=True)
        y = layer(x)
        (y * L.linspace(-1, 1, y.numel(), dtype=y.dtype).view(y.shape)).sum().backward()
        return y, x.grad, layer.weight.grad, layer.bias if layer.bias is None else layer.bias.grad
    parity(example)


def test_conv1d_unbatched_input_and_reset_parameters(parity):
    def example(L):
        L.manual_seed(2)
        layer = L.nn.Conv1d(2, 3, 3, padding=1)
        first = layer.weight.clone()
        layer.reset_parameters()            # draws again, from where the generator is now
        y = layer(L.randn(2, 5))
        return first, layer.weight, layer.bias, y
    parity(lambda L: example(L)[:3], rtol=0, atol=0)       # the weights bit for bit
    parity(lambda L: example(L)[3])                        # the output to rounding (another order of sums)


def test_conv1d_in_a_sequential_repr(parity):
    def example(L):
        net = L.nn.Sequential(L.nn.Conv1d(1, 4, 5, padding="same"), L.nn.GroupNorm(2, 4), L.nn.ReLU(),
                              L.nn.Conv1d(4, 2, 3, stride=2, bias=False), L.nn.InstanceNorm1d(2, affine=True))
        return repr(net), list(net.state_dict())
    parity(example)


# ---- GroupNorm ------------------------------------------------------------------------------------------------
GROUP_NORM = {
    "default": dict(args=(2, 4)),
    "eps": dict(args=(3, 6), kwargs=dict(eps=0.01)),
    "no_affine": dict(args=(1, 3), kwargs=dict(affine=False)),
    "no_bias": dict(args=(2, 2), kwargs=dict(bias=False)),
    "one_channel_per_group": dict(args=(4, 4)),
}


@pytest.mark.parametrize("case", GROUP_NORM, ids=list(GROUP_NORM))
def test_group_norm_layer_is_torchs(case, parity):
    def example(L):
        spec = GROUP_NORM[case]
        layer = L.nn.GroupNorm(*spec["args"], **spec.get("kwargs", {}))
        L.manual_seed(3)
        x = L.randn(3, layer.num_channels, 5, requires_grad=True)
        y = layer(x)
        (y * L.linspace(-1, 1, y.numel()).view(y.shape)).sum().backward()
        grads = [None if p is None else p.grad for p in (layer.weight, layer.bias)]
        return _layer_facts(layer), layer.weight, layer.bias, y, x.grad, grads
    parity(example)


def test_group_norm_float64_and_4d_input(parity):
    def example(L):
        layer = L.nn.GroupNorm(2, 4, dtype=L.float64)
        L.manual_seed(4)
        x = L.randn(2, 4, 3, 3, dtype=L.float64)
        return layer(x), layer.weight.dtype
    parity(example)


# ---- InstanceNorm1d / 2d / 3d -----------------------------------------------------------------------------------
INSTANCE_NORM = {
    "1d_default": ("InstanceNorm1d", 3, {}, (2, 3, 6)),
    "1d_affine": ("InstanceNorm1d", 3, dict(affine=True), (2, 3, 6)),
    "1d_affine_no_bias": ("InstanceNorm1d", 3, dict(affine=True, bias=False), (2, 3, 6)),
    "1d_tracking": ("InstanceNorm1d", 3, dict(track_running_stats=True), (2, 3, 6)),
    "1d_tracking_momentum": ("InstanceNorm1d", 3, dict(track_running_stats=True, momentum=0.5, eps=1e-3), (4, 3, 5)),
    "1d_tracking_momentum_none": ("InstanceNorm1d", 3, dict(track_running_stats=True, momentum=None), (2, 3, 6)),
    "1d_unbatched_tracking": ("InstanceNorm1d", 3, dict(track_running_stats=True, affine=True), (3, 6)),
    "2d_affine_tracking": ("InstanceNorm2d", 2, dict(affine=True, track_running_stats=True), (2, 2, 3, 4)),
    "2d_unbatched": ("InstanceNorm2d", 2, {}, (2, 3, 4)),
    "3d_tracking": ("InstanceNorm3d", 2, dict(track_running_stats=True), (2, 2, 2, 3, 2)),
}


@pytest.mark.parametrize("case", INSTANCE_NORM, ids=list(INSTANCE_NORM))
def test_instance_norm_layer_trains_and_evaluates_as_torch(case, parity):
    """Three training steps (the running statistics move, num_batches_tracked stays 0, as in torch), then eval mode
    (the running statistics are used if tracked), then the gradients of both."""
    def example(L):
        name, features, kwargs, shape = INSTANCE_NORM[case]
        layer = getattr(L.nn, name)(features, **kwargs)
        L.manual_seed(5)
        steps = []
        for _ in range(3):
            x = (L.randn(*shape) * 2 + 1).requires_grad_()
            y = layer(x)
            (y * L.linspace(-1, 1, y.numel()).view(y.shape)).sum().backward()
            steps.append((y, x.grad, layer.running_mean, layer.running_var, layer.num_batches_tracked))
        layer.eval()
        x = L.randn(*shape, requires_grad=True)
        y = layer(x)
        y.sum().backward()
        grads = [None if p is None else p.grad for p in (layer.weight, layer.bias)]
        return _layer_facts(layer), steps, y, x.grad, grads
    parity(example)


def test_instance_norm_state_dict_round_trip(parity):
    def example(L):
        source = L.nn.InstanceNorm1d(2, affine=True, track_running_stats=True)
        L.manual_seed(6)
        source(L.randn(3, 2, 5))
        target = L.nn.InstanceNorm1d(2, affine=True, track_running_stats=True)
        result = target.load_state_dict(source.state_dict())
        target.eval()
        return str(result), target.running_mean, target.running_var, target(L.ones(1, 2, 3) * 2)
    parity(example)


def test_instance_norm_reset_running_stats(parity):
    def example(L):
        layer = L.nn.InstanceNorm2d(2, track_running_stats=True)
        L.manual_seed(7)
        layer(L.randn(2, 2, 3, 3))
        moved = layer.running_mean.clone(), layer.running_var.clone()
        layer.reset_running_stats()
        return moved, layer.running_mean, layer.running_var, layer.num_batches_tracked
    parity(example)


def test_instance_norm_running_stats_in_float64(parity):
    def example(L):
        layer = L.nn.InstanceNorm1d(2, track_running_stats=True, dtype=L.float64)
        L.manual_seed(8)
        layer(L.randn(4, 2, 3, dtype=L.float64))
        return layer.running_mean, layer.running_var
    parity(example, rtol=1e-12, atol=1e-14)


# ---- second derivatives: a gradient penalty through all three layers ---------------------------------------------
def test_second_derivatives_through_conv1d_group_and_instance_norm(parity):
    def example(L):
        L.manual_seed(9)
        net = L.nn.Sequential(L.nn.Conv1d(2, 4, 3, padding=1, dtype=L.float64), L.nn.GroupNorm(2, 4, dtype=L.float64),
                              L.nn.Tanh(), L.nn.Conv1d(4, 2, 3, dilation=2, dtype=L.float64),
                              L.nn.InstanceNorm1d(2, affine=True, dtype=L.float64))
        x = L.randn(3, 2, 8, dtype=L.float64, requires_grad=True)
        out = (net(x) * L.linspace(-1, 1, 3 * 2 * 4, dtype=L.float64).view(3, 2, 4)).sum()
        (gx,) = L.autograd.grad(out, x, create_graph=True)
        penalty = (gx * gx).sum()
        penalty.backward()
        # (gx's own node differs: torch's is one ConvolutionBackwardBackward0, minigrad's gradient is made of
        # col2im and matrix products, see nn/functional/conv.py; its values and derivatives are compared)
        return out, gx.detach(), penalty, [p.grad for p in net.parameters()], x.grad
    parity(example, rtol=1e-9, atol=1e-11)


def test_forward_mode_tangents_are_torchs(parity):
    def example(L):
        L.manual_seed(10)
        F = L.nn.functional
        x, t = L.randn(2, 4, 6, dtype=L.float64), L.randn(2, 4, 6, dtype=L.float64)
        w = L.randn(4, 2, 3, dtype=L.float64)
        fns = [lambda x: F.conv1d(x, w, padding=1, groups=2), lambda x: F.group_norm(x, 2),
               lambda x: F.instance_norm(x), lambda x: F.conv1d(F.group_norm(x, 4), w, groups=2, padding="same")]
        return [L.func.jvp(fn, (x,), (t,)) for fn in fns]
    parity(example, rtol=1e-9, atol=1e-11)

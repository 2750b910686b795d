"""torch.nn.utils against real torch: gradient clipping (norm types, the returned total norm, the gradients after),
parameters <-> vector, parametrize (forward and backward through a parametrization, right_inverse, caching, the
reprs, state_dict keys, removal), weight_norm and spectral_norm (seeded, so the same random u and v), the older
hook-based weight_norm; and Module.set_submodule, nn.DataParallel on the CPU. Errors and warnings in torch's
words."""
import math
import subprocess
import sys

import pytest

# minigrad.nn.utils cannot import these (they need nn.modules, whose rnn.py imports nn.utils): until minigrad.nn
# does (see test_parametrize_is_an_attribute_after_import_minigrad), import them here so that
# `lib.nn.utils.parametrize` is there for the examples
import minigrad.nn.utils.parametrizations  # noqa: F401,E402
import minigrad.nn.utils.parametrize  # noqa: F401,E402


def net_with_grads(lib, scale=1.0, nonfinite=None):
    """A small net whose gradients are set by a seeded backward (the bias of the last layer left without one)."""
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Tanh(), lib.nn.Linear(4, 2, bias=False))
    extra = lib.nn.Parameter(lib.ones(2))
    x = lib.randn(5, 3)
    (net(x) * scale).pow(2).sum().backward()
    if nonfinite is not None:
        net[0].weight.grad[1, 2] = nonfinite
    return [*net.parameters(), extra]


def grads(params):
    return [p.grad for p in params]


NORMS = [2.0, 1, float("inf"), 0.5, 3.0, "inf"]


@pytest.mark.parametrize("norm_type", NORMS, ids=[str(n) for n in NORMS])
@pytest.mark.parametrize("max_norm", [0.5, 1e3])
def test_clip_grad_norm_matches_torch(parity, norm_type, max_norm):
    def example(lib):
        params = net_with_grads(lib, scale=3.0)
        total = lib.nn.utils.clip_grad_norm_(params, max_norm, norm_type=norm_type)
        return total, grads(params)
    parity(example)


@pytest.mark.parametrize("foreach", [None, True, False])
def test_clip_grad_norm_accepts_foreach_and_a_single_tensor(parity, foreach):
    def example(lib):
        params = net_with_grads(lib)
        total = lib.nn.utils.clip_grad_norm_(params[0], 0.1, foreach=foreach)
        return total, grads(params)
    parity(example)


def test_clip_grad_norm_edge_cases(parity):
    def example(lib):
        U = lib.nn.utils
        empty_list = U.clip_grad_norm_([], 1.0)
        empty_generator = U.clip_grad_norm_((p for p in []), 1.0)
        no_grads = U.clip_grad_norm_([lib.nn.Parameter(lib.ones(2))], 1.0)
        deprecated = U.clip_grad_norm(net_with_grads(lib), 0.2)
        nonfinite = U.clip_grad_norm_(net_with_grads(lib, nonfinite=float("nan")), 1.0)
        return empty_list, empty_generator, no_grads, deprecated, nonfinite
    parity(example)


def test_clip_grad_norm_error_if_nonfinite(parity):
    for value in (float("inf"), float("nan")):
        parity(lambda lib: lib.nn.utils.clip_grad_norm_(net_with_grads(lib, nonfinite=value), 1.0,
                                                        norm_type=3.0, error_if_nonfinite=True))


def test_get_total_norm_and_clip_grads_with_norm(parity):
    def example(lib):
        params = net_with_grads(lib)
        total = lib.nn.utils.get_total_norm([p.grad for p in params if p.grad is not None], norm_type=1.0)
        lib.nn.utils.clip_grads_with_norm_(params, 0.3, total)
        return total, grads(params), lib.nn.utils.get_total_norm(lib.ones(3) * 2)
    parity(example)


@pytest.mark.parametrize("clip_value", [0.05, 1, 100.0])
def test_clip_grad_value_matches_torch(parity, clip_value):
    def example(lib):
        params = net_with_grads(lib, scale=2.0)
        returned = lib.nn.utils.clip_grad_value_(params, clip_value)
        lib.nn.utils.clip_grad_value_(params[0], clip_value / 2)
        return returned, grads(params)
    parity(example)


def test_parameters_to_vector_and_back(parity):
    def example(lib):
        U = lib.nn.utils
        lib.manual_seed(0)
        net = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.Linear(4, 2))
        vec = U.parameters_to_vector(net.parameters())
        (vec * lib.arange(vec.numel())).sum().backward()
        U.vector_to_parameters(lib.arange(26.0) / 10, net.parameters())
        try:
            U.vector_to_parameters([1.0], net.parameters())
        except TypeError as exc:
            error = str(exc)
        return vec, [p.grad for p in net.parameters()], list(net.parameters()), error
    parity(example)


# ---- parametrize -------------------------------------------------------------------------------------------------
def symmetric(lib):
    class Symmetric(lib.nn.Module):
        def forward(self, X):
            return X.triu() + X.triu(1).transpose(-1, -2)

        def right_inverse(self, A):
            return A.triu()
    return Symmetric()


def scaled(lib, factor):
    class Scale(lib.nn.Module):
        def __init__(self):
            super().__init__()
            self.factor = factor

        def forward(self, X):
            return X * self.factor

        def right_inverse(self, Y):
            return Y / self.factor
    return Scale()


def test_parametrized_forward_backward_and_what_prints(parity):
    def example(lib):
        P = lib.nn.utils.parametrize
        lib.manual_seed(0)
        layer = lib.nn.Linear(3, 3)
        before = P.type_before_parametrizations(layer).__name__
        P.register_parametrization(layer, "weight", symmetric(lib))
        P.register_parametrization(layer, "weight", scaled(lib, 2.0))
        x = lib.randn(2, 3)
        out = layer(x)
        out.pow(2).sum().backward()
        original = layer.parametrizations.weight.original
        return (out, layer.weight, original, original.grad, repr(layer), list(layer.state_dict()), type(layer).__name__,
                P.type_before_parametrizations(layer).__name__, before, P.is_parametrized(layer),
                P.is_parametrized(layer, "weight"), P.is_parametrized(layer, "bias"),
                [name for name, _ in layer.named_parameters()], isinstance(layer, lib.nn.Linear),
                layer.weight.grad_fn.name())
    parity(example)


def test_assigning_a_parametrized_tensor_goes_through_right_inverse(parity):
    def example(lib):
        P = lib.nn.utils.parametrize
        layer = P.register_parametrization(lib.nn.Linear(3, 3), "weight", symmetric(lib))
        original = layer.parametrizations.weight.original
        target = lib.arange(9.0).reshape(3, 3)
        layer.weight = target + target.T
        same_parameter = original is layer.parametrizations.weight.original
        return layer.weight, original, same_parameter, isinstance(original, lib.nn.Parameter)
    parity(example)


def test_cached_computes_once(parity):
    def example(lib):
        P = lib.nn.utils.parametrize
        calls = []

        class Counted(lib.nn.Module):
            def forward(self, X):
                calls.append(1)
                return X * 2
        layer = P.register_parametrization(lib.nn.Linear(2, 2), "weight", Counted())
        base = len(calls)                  # the calls of the registration's checks
        with P.cached():
            first, second = layer.weight, layer.weight
            with P.cached():
                third = layer.weight
        outside = layer.weight
        return len(calls) - base, first is second, first is third, outside is first
    parity(example)


@pytest.mark.parametrize("leave_parametrized", [True, False])
def test_remove_parametrizations(parity, leave_parametrized):
    def example(lib):
        P = lib.nn.utils.parametrize
        lib.manual_seed(0)
        layer = P.register_parametrization(lib.nn.Linear(3, 3), "weight", scaled(lib, 3.0))
        P.register_parametrization(layer, "bias", scaled(lib, 0.5))
        P.remove_parametrizations(layer, "weight", leave_parametrized=leave_parametrized)
        middle = (type(layer).__name__, repr(layer), list(layer.state_dict()))
        P.remove_parametrizations(layer, "bias", leave_parametrized=leave_parametrized)
        return (middle, type(layer).__name__, repr(layer), list(layer.state_dict()), layer.weight, layer.bias,
                isinstance(layer.weight, lib.nn.Parameter), hasattr(layer, "parametrizations"))
    parity(example)


def test_parametrized_state_dict_round_trip(parity):
    def example(lib):
        P = lib.nn.utils.parametrize
        lib.manual_seed(0)
        source = P.register_parametrization(lib.nn.Linear(3, 3), "weight", symmetric(lib))
        lib.manual_seed(1)
        target = P.register_parametrization(lib.nn.Linear(3, 3), "weight", symmetric(lib))
        result = target.load_state_dict(source.state_dict())
        return repr(result), target.weight, source.weight
    parity(example)


def _wrong_dtype(lib):
    class ToDouble(lib.nn.Module):
        def forward(self, X):
            return X.double()
    return ToDouble()


def _wrong_shape(lib):
    class Flat(lib.nn.Module):
        def forward(self, X):
            return X.flatten()
    return Flat()


def _no_inverse(lib):
    class Twice(lib.nn.Module):
        def forward(self, X):
            return X * 2
    return Twice()


@pytest.mark.parametrize("case", ["no_such_tensor", "dtype", "shape", "appended_shape", "remove_unparametrized",
                                  "assign_without_right_inverse", "unsafe_shape"])
def test_parametrize_errors_in_torchs_words(parity, case):
    def example(lib):
        P = lib.nn.utils.parametrize
        layer = lib.nn.Linear(2, 2)
        if case == "no_such_tensor":
            P.register_parametrization(layer, "kernel", symmetric(lib))
        elif case == "dtype":
            P.register_parametrization(layer, "weight", _wrong_dtype(lib))
        elif case == "shape":
            P.register_parametrization(layer, "weight", _wrong_shape(lib))
        elif case == "appended_shape":
            P.register_parametrization(layer, "weight", symmetric(lib))
            P.register_parametrization(layer, "weight", _wrong_shape(lib))
        elif case == "remove_unparametrized":
            P.remove_parametrizations(layer, "weight")
        elif case == "assign_without_right_inverse":
            P.register_parametrization(layer, "weight", _no_inverse(lib))
            layer.weight = lib.ones(2, 2)
        else:
            P.register_parametrization(layer, "weight", _wrong_shape(lib), unsafe=True)
            return layer.weight.shape, repr(layer)
    parity(example)


# ---- weight_norm, spectral_norm ----------------------------------------------------------------------------------
def conv_weight_layer(lib):
    lib.manual_seed(0)
    return lib.nn.Conv2d(2, 3, 3)


@pytest.mark.parametrize("dim", [0, 1, 3, None, -1])
def test_weight_norm_parametrization_values_and_gradients(parity, dim):
    def example(lib):
        layer = lib.nn.utils.parametrizations.weight_norm(conv_weight_layer(lib), dim=dim)
        g, v = layer.parametrizations.weight.original0, layer.parametrizations.weight.original1
        x = lib.randn(1, 2, 5, 5)
        out = layer(x)
        (out * out.detach().sin()).sum().backward()
        return (out, layer.weight, g, g.grad, v.grad, layer.weight.grad_fn.name(), repr(layer),
                list(layer.state_dict()))
    parity(example)


def test_weight_norm_second_order_gradients(parity):
    def example(lib):
        lib.manual_seed(0)
        layer = lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(3, 2))
        g, v = layer.parametrizations.weight.original0, layer.parametrizations.weight.original1
        loss = layer(lib.randn(4, 3)).pow(2).sum()
        dg, dv = lib.autograd.grad(loss, (g, v), create_graph=True)
        (dg.sum() + (dv * dv).sum()).backward()
        return dg, dv, g.grad, v.grad
    parity(example, rtol=1e-3, atol=1e-5)


@pytest.mark.parametrize("layer", ["linear", "conv", "conv_dim1"])
def test_spectral_norm_matches_torch_with_the_same_random_vectors(parity, layer):
    def example(lib):
        lib.manual_seed(0)
        if layer == "linear":
            module = lib.nn.utils.parametrizations.spectral_norm(lib.nn.Linear(5, 4))
        else:
            module = lib.nn.utils.parametrizations.spectral_norm(lib.nn.Conv2d(2, 3, 3), n_power_iterations=2,
                                                                 dim=1 if layer == "conv_dim1" else None)
        sn = module.parametrizations.weight[0]
        u0, v0 = sn._u.clone(), sn._v.clone()
        x = lib.randn(2, 5) if layer == "linear" else lib.randn(1, 2, 4, 4)
        out = module(x)
        out.sum().backward()
        module.eval()
        evaluated = module(x)
        return (u0, v0, out, evaluated, sn._u, module.parametrizations.weight.original.grad, repr(module),
                list(module.state_dict()))
    parity(example)


@pytest.mark.parametrize("case", ["no_weight", "dim", "iterations"])
def test_spectral_norm_errors(parity, case):
    def example(lib):
        sn = lib.nn.utils.parametrizations.spectral_norm
        if case == "no_weight":
            sn(lib.nn.ReLU())
        elif case == "dim":
            sn(lib.nn.Linear(2, 2), dim=2)
        else:
            sn(lib.nn.Linear(2, 2), n_power_iterations=0)
    parity(example)


def test_old_weight_norm_hook(parity):
    def example(lib):
        U = lib.nn.utils
        lib.manual_seed(0)
        layer = U.weight_norm(lib.nn.Linear(3, 2))
        keys = list(layer.state_dict())
        x = lib.randn(4, 3)
        out = layer(x)
        out.pow(2).sum().backward()
        grads_ = (layer.weight_g.grad, layer.weight_v.grad, layer.weight_g.shape)
        try:
            U.weight_norm(layer)
        except RuntimeError as exc:
            twice = str(exc)
        U.remove_weight_norm(layer)
        try:
            U.remove_weight_norm(layer)
        except ValueError as exc:
            missing = str(exc)
        whole = U.weight_norm(lib.nn.Linear(3, 2), dim=None).weight_g.shape
        return (keys, out, grads_, twice, list(layer.state_dict()), layer.weight, missing, whole, repr(layer),
                layer(x))
    parity(example)


# ---- Module.set_submodule, DataParallel --------------------------------------------------------------------------
def nested(lib):
    lib.manual_seed(0)
    return lib.nn.Sequential(lib.nn.Sequential(lib.nn.Linear(2, 2), lib.nn.ReLU()), lib.nn.Linear(2, 1))


@pytest.mark.parametrize("target, strict", [("0.1", False), ("0.1", True), ("0.new", False), ("0.new", True),
                                            ("1", True), ("", False), ("0.0.weight", False), ("2.x", False),
                                            ("0.training", False)])
def test_set_submodule(parity, target, strict):
    def example(lib):
        net = nested(lib)
        net.set_submodule(target, lib.nn.Tanh(), strict=strict)
        return repr(net)
    parity(example)


def test_set_submodule_needs_a_module(parity):
    parity(lambda lib: nested(lib).set_submodule("0.1", 3))


def test_data_parallel_on_the_cpu(parity):
    def example(lib):
        net = nested(lib)
        wrapped = lib.nn.DataParallel(net)
        x = lib.randn(3, 2)
        out = wrapped(x)
        out.sum().backward()
        return (repr(wrapped), list(wrapped.state_dict()), wrapped.module is net, wrapped.device_ids, out,
                [p.grad for p in wrapped.parameters()], hasattr(wrapped, "dim"))
    parity(example)


def test_nn_utils_names(torch):
    import minigrad
    for name in ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm",
                 "parameters_to_vector", "vector_to_parameters", "parametrize", "parametrizations", "weight_norm",
                 "remove_weight_norm"]:
        assert hasattr(torch.nn.utils, name), name
        assert hasattr(minigrad.nn.utils, name), f"minigrad.nn.utils has no {name}"
    assert math.isclose(float(minigrad.nn.utils.clip_grad_norm_(minigrad.ones(4, requires_grad=True), 1.0)), 0.0)


def test_weight_norm_forward_mode(parity):
    def example(lib):
        import copy
        lib.manual_seed(0)
        v, g, tv, tg = lib.randn(3, 4, 2), lib.rand(3, 1, 1), lib.randn(3, 4, 2), lib.randn(3, 1, 1)
        g1, tg1 = lib.rand(1, 4, 1), lib.randn(1, 4, 1)
        fw = lib.autograd.forward_ad
        weight_norms = lib.nn.utils.parametrizations._WeightNorm(1), lib.nn.utils.parametrizations._WeightNorm(0)
        with fw.dual_level():
            out = weight_norms[0](fw.make_dual(g1, tg1), fw.make_dual(v, tv))    # the composite: has a jvp
            primal, tangent = fw.unpack_dual(out)
            try:
                weight_norms[1](fw.make_dual(g, tg), fw.make_dual(v, tv))          # one node: torch has no jvp
            except NotImplementedError as exc:
                error = str(exc)
        layer = lib.nn.utils.parametrizations.weight_norm(lib.nn.Linear(2, 2))
        clone = copy.deepcopy(layer)
        return primal, tangent, error, type(clone).__name__, clone.weight, list(clone.state_dict())
    parity(example)


def test_parametrize_is_an_attribute_after_import_minigrad():
    program = "import minigrad; minigrad.nn.utils.parametrizations.weight_norm; minigrad.nn.utils.parametrize.cached"
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr

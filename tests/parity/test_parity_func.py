"""`torch.func` on both libraries: grad, grad_and_value, vjp, jacrev, hessian, vmap and functional_call give
torch's values, shapes and errors, including PyTorch's per-sample-gradients and model-ensembling patterns."""
import importlib
import warnings

import pytest


try:        # torch.func warns once per process from inside torch (torch.jit.script is deprecated): not in a case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch.func
        torch.func.vmap(torch.func.grad(lambda t: t.sum()))(torch.ones(2, 2))
        torch.func.hessian(lambda t: (t ** 3).sum())(torch.ones(2))
except ImportError:
    pass


def func(lib):
    return importlib.import_module(lib.__name__ + ".func")


def scale_function(lib, style="separate", rule=None):
    """A custom Function doubling its input, in the combined or separate style, with or without a vmap rule."""
    if style == "combined":
        class Double(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                return x * 2

            @staticmethod
            def backward(ctx, g):
                return g * 2
        return Double

    class Double(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, g):
            return g * 2
    if rule in ("generate", "both"):
        Double.generate_vmap_rule = True
    if rule in ("own", "both"):
        Double.vmap = staticmethod(lambda info, in_dims, x: (x * 2, in_dims[0]))
    return Double


CASES = {
    "grad": lambda lib, F, x: F.grad(lambda t: (t.sin() * t).sum())(x),
    "grad_of_grad": lambda lib, F, x: F.grad(F.grad(lambda t: (t ** 3).sum()))(lib.tensor(2.0)),
    "grad_and_value": lambda lib, F, x: F.grad_and_value(lambda t: (t.sin() * t).sum())(x),
    "grad_argnums": lambda lib, F, x: F.grad(lambda a, b: (a * b).sum(), argnums=(0, 1))(x, x * 2),
    "grad_of_a_dict": lambda lib, F, x: F.grad(lambda p: (p["w"] * p["b"]).sum())({"w": x, "b": x + 1}),
    "grad_has_aux": lambda lib, F, x: F.grad(lambda t: ((t * 2).sum(), t.mean()), has_aux=True)(x),
    "vjp": lambda lib, F, x: (lambda out, fn: (out, fn(lib.ones(3))))(*F.vjp(lib.sin, x)),
    "jacrev": lambda lib, F, x: F.jacrev(lib.sin)(x),
    "jacrev_argnums": lambda lib, F, x: F.jacrev(lambda a, b: a * b, argnums=(0, 1))(x, x),
    "jacrev_of_a_matrix_function": lambda lib, F, x: F.jacrev(lambda m: m @ m)(x.reshape(3, 1) * x),
    "hessian": lambda lib, F, x: F.hessian(lambda t: (t ** 3).sum() + (t[0] * t[1]))(x),
    "vmap_dot": lambda lib, F, x: F.vmap(lib.dot)(lib.ones(5, 3), lib.arange(15.0).reshape(5, 3)),
    "vmap_in_dims_none": lambda lib, F, x: F.vmap(lambda a, b: a * b, in_dims=(0, None))(lib.ones(4, 2),
                                                                                          lib.tensor([2.0, 3.0])),
    "vmap_in_dims_1": lambda lib, F, x: F.vmap(lambda a: a.sum(0), in_dims=1)(lib.arange(6.0).reshape(2, 3)),
    "vmap_out_dims_1": lambda lib, F, x: F.vmap(lambda a: a * 2, out_dims=1)(lib.arange(6.0).reshape(2, 3)),
    "vmap_nested": lambda lib, F, x: F.vmap(F.vmap(lambda a: a * 2))(lib.arange(6.0).reshape(2, 3)),
    "vmap_tuple_output": lambda lib, F, x: F.vmap(lambda a: (a, a.sum()))(lib.ones(2, 3)),
    "vmap_of_grad": lambda lib, F, x: F.vmap(F.grad(lambda t: (t ** 2).sum()))(lib.arange(6.0).reshape(2, 3)),
    "randomness_same": lambda lib, F, x: (lib.manual_seed(0), F.vmap(lambda a: a + lib.rand(()),
                                                                      randomness="same")(lib.zeros(3)))[1],
    "randomness_different": lambda lib, F, x: (lib.manual_seed(0), F.vmap(lambda a: a + lib.rand(()),
                                                                           randomness="different")(lib.zeros(3)))[1],
    "vmap_custom_generate_vmap_rule": lambda lib, F, x: F.vmap(scale_function(lib, rule="generate").apply)(
        lib.ones(3, 2)),
    "vmap_custom_own_rule": lambda lib, F, x: F.vmap(scale_function(lib, rule="own").apply, in_dims=1)(
        lib.ones(3, 2)),
    "grad_custom_without_a_rule": lambda lib, F, x: F.grad(lambda t: scale_function(lib).apply(t).sum())(x),
    # errors, in torch's words
    "vmap_custom_without_a_rule": lambda lib, F, x: F.vmap(scale_function(lib).apply)(lib.ones(3, 2)),
    "vmap_custom_with_two_rules": lambda lib, F, x: F.vmap(scale_function(lib, rule="both").apply)(lib.ones(3, 2)),
    "grad_custom_combined_style": lambda lib, F, x: F.grad(lambda t: scale_function(lib, "combined").apply(t).sum())(
        x),
    "jacfwd_custom_without_a_rule": lambda lib, F, x: F.jacfwd(scale_function(lib).apply)(x),
    "grad_of_a_vector": lambda lib, F, x: F.grad(lambda t: t * 2)(x),
    "grad_of_a_number": lambda lib, F, x: F.grad(lambda t: 3)(x),
    "grad_bad_argnum": lambda lib, F, x: F.grad(lambda t: t.sum(), argnums=2)(x),
    "grad_has_aux_without_a_tuple": lambda lib, F, x: F.grad(lambda t: t.sum(), has_aux=True)(x),
    "vjp_has_aux_without_a_tuple": lambda lib, F, x: F.vjp(lambda t: t, x, has_aux=True),
    "vjp_of_a_number": lambda lib, F, x: F.jacrev(lambda t: (t, 3))(x),
    "vmap_sizes_differ": lambda lib, F, x: F.vmap(lambda a, b: a + b)(lib.ones(2, 3), lib.ones(3, 3)),
    "vmap_random_in_error_mode": lambda lib, F, x: F.vmap(lambda t: lib.rand(1))(lib.ones(2)),
    "vmap_in_dim_out_of_range": lambda lib, F, x: F.vmap(lambda t: t, in_dims=1)(lib.ones(2)),
    "vmap_returns_a_number": lambda lib, F, x: F.vmap(lambda t: 3)(lib.ones(2)),
    "vmap_bad_randomness": lambda lib, F, x: F.vmap(lambda t: t, randomness="x")(x),
}


@pytest.mark.parametrize("name", list(CASES))
def test_func(parity, name):
    def example(lib):
        return CASES[name](lib, func(lib), lib.tensor([1.0, 2.0, 3.0]))
    parity(example)


def test_per_sample_gradients(parity):
    """PyTorch's "Per-sample-gradients" tutorial: vmap(grad(loss)) over functional_call, against the summed
    gradient of the ordinary backward."""
    def example(lib):
        F = func(lib)
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 8), lib.nn.ReLU(), lib.nn.Linear(8, 2))
        params = {k: v.detach() for k, v in model.named_parameters()}
        buffers = {k: v.detach() for k, v in model.named_buffers()}
        data, targets = lib.randn(6, 4), lib.tensor([0, 1, 1, 0, 1, 0])

        def compute_loss(params, buffers, sample, target):
            pred = F.functional_call(model, (params, buffers), (sample.unsqueeze(0),))
            return lib.nn.functional.cross_entropy(pred, target.unsqueeze(0))
        per_sample = F.vmap(F.grad(compute_loss), in_dims=(None, None, 0, 0))(params, buffers, data, targets)
        lib.nn.functional.cross_entropy(model(data), targets, reduction="sum").backward()
        return per_sample, model[0].weight.grad, [p.grad is None for p in params.values()]
    parity(example)


def test_model_ensembling(parity):
    """PyTorch's "Model ensembling" tutorial: stack_module_state, then vmap over functional_call."""
    def example(lib):
        F = func(lib)
        lib.manual_seed(0)
        models = [lib.nn.Linear(3, 2) for _ in range(4)]
        params, buffers = F.stack_module_state(models)
        base = models[0]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = F.vmap(lambda p, b, x: F.functional_call(base, (p, b), (x,)), in_dims=(0, 0, None))(
                params, buffers, lib.ones(5, 3))
        # detached: under vmap torch's graph ends in its batched Linear (AddBackward0), minigrad's in the stack
        # of the per-model results (StackBackward0); the values and gradients are what count
        out.sum().backward()
        return out.detach(), {k: v.requires_grad for k, v in params.items()}, base.weight, params["weight"].grad
    parity(example)


def test_functional_call_puts_the_parameters_back(parity):
    def example(lib):
        F = func(lib)
        lib.manual_seed(0)
        layer = lib.nn.Linear(2, 1)
        before = layer.weight
        out = F.functional_call(layer, {"weight": lib.ones(1, 2), "bias": lib.zeros(1)}, lib.tensor([[1.0, 2.0]]))
        errors = []
        try:
            F.functional_call(layer, {"weight": lib.ones(1, 2)}, (lib.ones(1, 2),), strict=True)
        except RuntimeError as e:
            errors.append(str(e))
        return out, layer.weight is before, errors
    parity(example)


@pytest.mark.parametrize("in_dim, out_dim", [(0, 0), (1, 0), (0, 1), (2, 1)])
def test_vmap_is_a_stack_of_the_samples(in_dim, out_dim):
    """A property, on minigrad alone: vmap(f)(x) is f applied to each slice along in_dim, stacked along out_dim
    (for functions of one sample that reduce, broadcast, multiply by a matrix and return two outputs)."""
    import numpy as np
    import minigrad
    F = minigrad.func
    x = minigrad.tensor(np.random.default_rng(in_dim * 10 + out_dim).standard_normal((3, 4, 5)))
    w = minigrad.tensor(np.random.default_rng(7).standard_normal((5, 2)))

    def f(t):
        return (t.tanh() * t.sum()).softmax(-1) @ w[: t.shape[-1]], t.exp().mean(0)
    got = F.vmap(f, in_dims=in_dim, out_dims=out_dim)(x)
    samples = [f(x.select(in_dim, i)) for i in range(x.shape[in_dim])]
    for k in range(2):
        want = minigrad.stack([s[k] for s in samples], dim=out_dim)
        assert got[k].shape == want.shape
        assert np.allclose(got[k].numpy(), want.numpy(), rtol=1e-12, atol=1e-14)

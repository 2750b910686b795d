"""Forward-mode AD on both libraries: `torch.autograd.forward_ad` (dual tensors, levels, custom Functions' jvp),
`torch.func.jvp`, `jacfwd` and `hessian` (forward over reverse) give torch's values, reprs and errors."""
import importlib
import warnings

import pytest

try:        # torch.func and forward AD warn once per process from inside torch (torch.jit.script is deprecated)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch.autograd.forward_ad
        import torch.func
        torch.func.jacfwd(torch.sin)(torch.ones(2))
        with torch.autograd.forward_ad.dual_level():
            torch.autograd.forward_ad.make_dual(torch.ones(1), torch.ones(1)).sin()
except ImportError:
    pass


def fw(lib):
    return importlib.import_module(lib.__name__ + ".autograd.forward_ad")


def func(lib):
    return importlib.import_module(lib.__name__ + ".func")


def dual_of(lib, values, direction):
    return fw(lib).make_dual(lib.tensor(values), lib.tensor(direction))


def custom(lib, with_jvp=True, outputs=1, tangent_slice=False, identity=False, own_tangent=False):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(a, k):
            return a if identity else (a * k if outputs == 1 else (a * k, a + k))

        @staticmethod
        def setup_context(ctx, inputs, output):
            if not identity:        # (saving an input returned as-is is an error of its own)
                ctx.save_for_forward(inputs[0])
            ctx.k = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return g * ctx.k, None
    if with_jvp:
        def jvp(ctx, ta, tk):
            if own_tangent:                 # not forward's (a * k): the tangents of forward's own ops never leak out
                return ta * 0 + 7
            return ta[:1] if tangent_slice else ta * ctx.k
        Scale.jvp = staticmethod(jvp)
    return Scale


def _saved_in_jvp(lib, requires_grad):
    """Inside jvp, ctx.saved_tensors holds what save_for_forward kept: nothing here, though backward saved x."""
    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x ** 3

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, g):
            return g

        @staticmethod
        def jvp(ctx, t):
            return t * len(ctx.saved_tensors)
    x = fw(lib).make_dual(lib.tensor([2.0], requires_grad=requires_grad), lib.ones(1))
    return fw(lib).unpack_dual(Cube.apply(x)).tangent


def in_level(lib, body):
    with fw(lib).dual_level():
        return body()


CASES = {
    "make_and_unpack": lambda lib: in_level(lib, lambda: (lambda d: (repr(d), fw(lib).unpack_dual(d),
                                                                      d._base is None))(
        dual_of(lib, [1.0, 2.0], [0.5, 0.0]))),
    "ops_carry_tangents": lambda lib: in_level(lib, lambda: fw(lib).unpack_dual(
        (dual_of(lib, [0.5, 1.0], [1.0, 2.0]).sin() * 3).exp().sum())),
    "plain_inputs_count_as_zero": lambda lib: in_level(lib, lambda: fw(lib).unpack_dual(
        dual_of(lib, [1.0, 2.0], [1.0, 1.0]) * lib.tensor([3.0, 4.0]) + lib.tensor([1.0, 1.0]) ** 2)),
    "tangents_dropped_on_exit": lambda lib: (lambda y: fw(lib).unpack_dual(y))(
        in_level(lib, lambda: dual_of(lib, [1.0], [1.0]) * 2)),
    "under_no_grad": lambda lib: in_level(lib, lambda: (lib.set_grad_enabled(False), fw(lib).unpack_dual(
        dual_of(lib, [1.0, 2.0], [1.0, 0.0]) * 3), lib.set_grad_enabled(True))[1]),
    "requires_grad_and_tangent": lambda lib: in_level(lib, lambda: (lambda d: (repr(d), fw(lib).unpack_dual(
        (d * d).sum()).tangent))(fw(lib).make_dual(lib.ones(2, requires_grad=True), lib.tensor([1.0, 2.0])))),
    "in_place_ops": lambda lib: in_level(lib, lambda: (lambda e: (e.mul_(2), e.add_(1), fw(lib).unpack_dual(e)))(
        dual_of(lib, [1.0, 2.0], [1.0, 1.0]).clone())[2]),
    "setitem_with_a_dual": lambda lib: in_level(lib, lambda: (lambda a: (a.__setitem__(slice(1, None), dual_of(
        lib, [1.0, 1.0], [2.0, 3.0])), fw(lib).unpack_dual(a))[1])(lib.zeros(3))),
    # a permuted (neither C- nor F-ordered) base: its zero tangent and the view's window of it share memory
    "dual_copied_into_a_view_of_a_permuted_tensor": lambda lib: in_level(lib, lambda: (lambda b: (
        b[1].copy_(dual_of(lib, [[1.0] * 3] * 2, [[2.0] * 3] * 2)), fw(lib).unpack_dual(b).tangent)[1])(
        lib.zeros(2, 3, 4).permute(2, 0, 1).clone())),
    "views_of_a_dual": lambda lib: in_level(lib, lambda: (lambda d: (fw(lib).unpack_dual(d.view(2, 1)).tangent,
                                                                       fw(lib).unpack_dual(d[1]).tangent))(
        dual_of(lib, [1.0, 2.0], [3.0, 4.0]))),
    "integer_outputs_have_none": lambda lib: in_level(lib, lambda: fw(lib).unpack_dual(
        dual_of(lib, [1.0, 3.0], [1.0, 1.0]).argmax())),
    "floor_has_zeros": lambda lib: in_level(lib, lambda: fw(lib).unpack_dual(dual_of(lib, [1.5], [1.0]).floor())),
    "tangent_of_another_dtype": lambda lib: in_level(lib, lambda: repr(fw(lib).make_dual(
        lib.tensor([1.0]), lib.tensor([2.0], dtype=lib.float64)))),
    "custom_jvp": lambda lib: in_level(lib, lambda: fw(lib).unpack_dual(
        custom(lib).apply(dual_of(lib, [1.0, 2.0], [1.0, 0.5]), 3.0))),
    "dual_level_number": lambda lib: in_level(lib, lambda: fw(lib).enter_dual_level.__name__),
    # errors, in torch's words
    "make_dual_outside_a_level": lambda lib: dual_of(lib, [1.0], [1.0]),
    "nested_levels": lambda lib: in_level(lib, lambda: fw(lib).enter_dual_level()),
    "tangent_of_another_size": lambda lib: in_level(lib, lambda: dual_of(lib, [1.0, 2.0], [1.0])),
    "integer_tangent": lambda lib: in_level(lib, lambda: fw(lib).make_dual(lib.ones(2), lib.ones(2, dtype=lib.int64))),
    "integer_primal": lambda lib: in_level(lib, lambda: fw(lib).make_dual(lib.tensor([1, 2]), lib.ones(2))),
    "dual_of_a_dual": lambda lib: in_level(lib, lambda: fw(lib).make_dual(dual_of(lib, [1.0], [1.0]), lib.ones(1))),
    "exit_without_a_level": lambda lib: fw(lib).exit_dual_level(),
    "custom_without_jvp": lambda lib: in_level(lib, lambda: custom(lib, with_jvp=False).apply(
        dual_of(lib, [1.0], [1.0]), 2.0)),
    "custom_jvp_is_the_only_source": lambda lib: in_level(lib, lambda: fw(lib).unpack_dual(
        custom(lib, own_tangent=True).apply(dual_of(lib, [1.0, 2.0], [1.0, 1.0]), 2.0))),
    "custom_jvp_sees_only_save_for_forward": lambda lib: [in_level(lib, lambda: _saved_in_jvp(lib, requires_grad))
                                                          for requires_grad in (False, True)],
    "custom_without_jvp_no_dual": lambda lib: custom(lib, with_jvp=False).apply(lib.ones(1), 2.0),
    "custom_jvp_too_few": lambda lib: in_level(lib, lambda: custom(lib, outputs=2).apply(
        dual_of(lib, [1.0], [1.0]), 2.0)),
    "custom_jvp_wrong_size": lambda lib: in_level(lib, lambda: custom(lib, tangent_slice=True).apply(
        dual_of(lib, [1.0, 2.0], [1.0, 1.0]), 2.0)),
    "custom_identity_needs_a_view": lambda lib: in_level(lib, lambda: custom(lib, identity=True).apply(
        dual_of(lib, [1.0, 2.0], [1.0, 1.0]), 2.0)),
    # torch.func
    "func_jvp": lambda lib: func(lib).jvp(lib.sin, (lib.tensor([0.0, 1.0]),), (lib.tensor([1.0, 2.0]),)),
    "func_jvp_two_inputs": lambda lib: func(lib).jvp(lambda x, y: x ** 2 + y * x, (lib.ones(2), lib.ones(2) * 3),
                                                     (lib.ones(2), lib.tensor([0.0, 1.0]))),
    "func_jvp_has_aux": lambda lib: func(lib).jvp(lambda x: (x.sin(), {"a": x * 2}), (lib.ones(2),),
                                                  (lib.ones(2),), has_aux=True),
    "func_jvp_constant_output": lambda lib: func(lib).jvp(lambda x: lib.ones(2), (lib.ones(2),), (lib.ones(2),)),
    "func_jvp_of_grad_is_hvp": lambda lib: func(lib).jvp(func(lib).grad(lambda t: (t ** 3).sum()),
                                                         (lib.tensor([1.0, 2.0]),), (lib.tensor([1.0, 0.0]),)),
    "jacfwd": lambda lib: func(lib).jacfwd(lib.sin)(lib.tensor([0.0, 1.0, 2.0])),
    "jacfwd_matrix": lambda lib: func(lib).jacfwd(lambda m: m @ m)(lib.arange(4.0).reshape(2, 2)),
    "jacfwd_argnums": lambda lib: func(lib).jacfwd(lambda x, y: x * y, argnums=(0, 1))(lib.ones(2),
                                                                                      lib.tensor([2.0, 3.0])),
    "jacfwd_has_aux": lambda lib: func(lib).jacfwd(lambda x: (x.exp(), x.sum()), has_aux=True)(lib.ones(2)),
    "hessian": lambda lib: func(lib).hessian(lambda t: (t ** 3).sum() + t[0] * t[1])(lib.tensor([1.0, 2.0, 3.0])),
    "jacrev_of_jacfwd": lambda lib: func(lib).jacrev(func(lib).jacfwd(lambda t: (t ** 3).sum() * t[0]))(
        lib.tensor([1.0, 2.0])),
    "jacfwd_of_jacrev_of_a_net": lambda lib: (lib.manual_seed(0), func(lib).hessian(
        lambda x: lib.nn.functional.softplus(lib.nn.Linear(2, 3)(x)).sum())(lib.tensor([0.5, -1.0])))[1],
    "jacfwd_of_jacfwd": lambda lib: func(lib).jacfwd(func(lib).jacfwd(lambda t: (t ** 3).sum() * t[0]))(
        lib.tensor([1.0, 2.0])),
    "jvp_of_jvp": lambda lib: func(lib).jvp(lambda x: func(lib).jvp(lib.sin, (x,), (lib.ones(2),))[1],
                                            (lib.tensor([0.5, 1.0]),), (lib.tensor([1.0, 2.0]),)),
    "func_jvp_not_a_tuple": lambda lib: func(lib).jvp(lib.sin, [lib.ones(2)], (lib.ones(2),)),
    "func_jvp_returns_a_number": lambda lib: func(lib).jvp(lambda x: (x.sin(), 3), (lib.ones(2),), (lib.ones(2),)),
    "func_jvp_aux_not_a_tuple": lambda lib: func(lib).jvp(lambda x: x.sin(), (lib.ones(2),), (lib.ones(2),),
                                                          has_aux=True),
    "func_jvp_inside_a_level": lambda lib: in_level(lib, lambda: func(lib).jvp(lib.sin, (lib.ones(2),),
                                                                               (lib.ones(2),))),
    "jacfwd_random_in_error_mode": lambda lib: func(lib).jacfwd(lambda x: lib.randn(2) * x)(lib.ones(2)),
    "jacfwd_bad_argnum": lambda lib: func(lib).jacfwd(lambda x: x.sum(), argnums=2)(lib.ones(2)),
    "gradcheck_forward": lambda lib: lib.autograd.gradcheck(
        lambda x: (x.sin() * x).sum(dim=0), (lib.ones(3, 2, dtype=lib.float64, requires_grad=True),),
        check_forward_ad=True),
}


@pytest.mark.parametrize("name", list(CASES))
def test_forward_ad(parity, name):
    parity(CASES[name])


def test_jacfwd_is_jacrev(torch):
    """A property, on minigrad alone: forward and reverse mode give the same Jacobian; the Hessian is symmetric."""
    import numpy as np
    import minigrad
    F = minigrad.func
    rng = np.random.default_rng(0)
    for shape in [(3,), (2, 3)]:
        x = minigrad.tensor(rng.standard_normal(shape))

        def f(t):
            return (t.tanh() * t.sum()).softmax(-1) + t.exp().cumsum(-1)
        assert np.allclose(F.jacfwd(f)(x).numpy(), F.jacrev(f)(x).numpy(), rtol=1e-10, atol=1e-12)
        h = F.hessian(lambda t: (t.sin() * t.sum() ** 2).sum())(x).reshape(x.numel(), x.numel()).numpy()
        assert np.allclose(h, h.T, rtol=1e-10, atol=1e-12)

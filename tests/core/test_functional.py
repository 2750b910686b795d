"""`autograd.functional` (jacobian, hessian, vjp, jvp, hvp, vhp) and `gradgradcheck`, against real torch.

Each case of the table is run on both libraries from the same float64 arrays, with and without
`create_graph`, with inputs that do or do not require grad. The results must agree in nesting (tuples of
tuples, or a tensor), in shape, dtype and value (to 1e-10), and in whether each result requires grad and has a
`grad_fn` (not the node's name: torch's and minigrad's double-backward graphs are built from other formulas).
"""
import numpy as np
import pytest
from parity_harness import run_both

import minigrad

SHAPES = {"x": (3,), "y": (3,), "m": (2, 3), "s": (1,), "v2": (2,), "s0": ()}    # the inputs and vs by name


def _exp_reducer(L, x):
    return x.exp().sum(dim=1)


def _pair(L, x, y):
    return x * y, (x ** 2).sum()


def _cubes(L, x, y):
    return (x ** 3).sum() + (x * y).sum() * 2 + (y ** 2).sum()


# (id, function name, func(L, *inputs), the names of the inputs, the names of v's tensors or None, kwargs)
CASES = [
    ("vjp_tensor", "vjp", _exp_reducer, "m", "v2", {}),
    ("vjp_tuple_in_tuple_out", "vjp", _pair, ("x", "y"), ("x", "s0"), {}),
    ("vjp_v_none", "vjp", lambda L, x: (x ** 3).sum(), "x", None, {}),
    ("vjp_unused_input_gets_zeros", "vjp", lambda L, x, y: x * 2, ("x", "y"), "x", {}),
    ("jvp_tensor", "jvp", _exp_reducer, "m", "m", {}),
    ("jvp_tuple_in", "jvp", lambda L, x, y: 2 * x + 3 * y, ("x", "y"), ("x", "y"), {}),
    ("jvp_tuple_out", "jvp", _pair, ("x", "y"), ("x", "y"), {}),
    ("jvp_v_none", "jvp", lambda L, s: s.exp() * 3, "s", None, {}),
    ("jvp_unused_input", "jvp", lambda L, x, y: x * x, ("x", "y"), ("x", "y"), {}),
    ("jacobian_tensor", "jacobian", _exp_reducer, "m", None, {}),
    ("jacobian_tuple_in", "jacobian", lambda L, x, y: (x * y).exp(), ("x", "y"), None, {}),
    ("jacobian_tuple_in_tuple_out", "jacobian", _pair, ("x", "y"), None, {}),
    ("jacobian_tensor_in_tuple_out", "jacobian", lambda L, m: (m.sum(0), m @ m.t()), "m", None, {}),
    ("jacobian_linear", "jacobian", lambda L, m: m * 3 - 1, "m", None, {}),
    ("jacobian_unused_input", "jacobian", lambda L, x, y: x ** 2, ("x", "y"), None, {}),
    ("hessian_tensor", "hessian", lambda L, x: (x ** 3).sum(), "x", None, {}),
    ("hessian_tuple", "hessian", _cubes, ("x", "y"), None, {}),
    ("hessian_matrix_input", "hessian", lambda L, m: (m.exp() * m).sum(), "m", None, {}),
    ("hessian_one_element_output", "hessian", lambda L, x: (x * x).sum().reshape(1, 1), "x", None, {}),
    ("hessian_linear_in_y", "hessian", lambda L, x, y: (x ** 2).sum() + y.sum(), ("x", "y"), None, {}),
    ("vhp_tensor", "vhp", lambda L, x: (x ** 3).sum(), "x", "x", {}),
    ("vhp_tuple", "vhp", _cubes, ("x", "y"), ("x", "y"), {}),
    ("vhp_v_none", "vhp", lambda L, s: (s ** 4).sum(), "s", None, {}),
    ("vhp_linear_in_y", "vhp", lambda L, x, y: (x ** 2).sum() + y.sum(), ("x", "y"), ("x", "y"), {}),
    ("hvp_tensor", "hvp", lambda L, x: (x ** 3).sum(), "x", "x", {}),
    ("hvp_tuple", "hvp", _cubes, ("x", "y"), ("x", "y"), {}),
    ("hvp_matrix", "hvp", lambda L, m: (m.exp() * m).sum(), "m", "m", {}),
    ("hvp_linear_in_y", "hvp", lambda L, x, y: (x ** 2).sum() + y.sum(), ("x", "y"), ("x", "y"), {}),
]


def arrays(names, seed):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal(SHAPES[n]) for n in names]


def build(lib, names, seed, requires_grad):
    """The same tensors on either library; a str name gives a tensor, a tuple of names a tuple."""
    if names is None:
        return None
    as_tuple = isinstance(names, tuple)
    tensors = tuple(lib.tensor(a, dtype=lib.float64, requires_grad=requires_grad)
                    for a in arrays(names if as_tuple else (names,), seed))
    return tensors if as_tuple else tensors[0]


def run(lib, case, create_graph, requires_grad):
    _, name, func, input_names, v_names, kwargs = case
    inputs = build(lib, input_names, 1, requires_grad)
    v = build(lib, v_names, 2, False)
    fn = getattr(lib.autograd.functional, name)
    args = (inputs,) if name in ("jacobian", "hessian") else (inputs, v)
    return fn(lambda *xs: func(lib, *xs), *args, create_graph=create_graph, **kwargs)


def describe(result):
    """The nesting, and for each tensor its shape, dtype, requires_grad and whether it has a grad_fn."""
    if isinstance(result, tuple):
        return tuple(describe(r) for r in result)
    assert hasattr(result, "grad_fn"), f"received a {type(result).__name__} in the result, expected tensors"
    return (tuple(result.shape), str(result.dtype).replace("torch.", ""), result.requires_grad,
            result.grad_fn is not None)


def values(result):
    if isinstance(result, tuple):
        return [v for r in result for v in values(r)]
    return [result.detach().numpy()]


@pytest.mark.parametrize("requires_grad", [False, True], ids=["inputs_plain", "inputs_require_grad"])
@pytest.mark.parametrize("create_graph", [False, True], ids=["no_graph", "create_graph"])
@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_functional_matches_torch(case, create_graph, requires_grad, torch):
    expected = run(torch, case, create_graph, requires_grad)
    received = run(minigrad, case, create_graph, requires_grad)
    assert describe(received) == describe(expected), (
        f"{case[0]}: received (shape, dtype, requires_grad, has grad_fn)\n{describe(received)}\n"
        f"expected (torch)\n{describe(expected)}")
    for k, (r, e) in enumerate(zip(values(received), values(expected))):
        assert np.allclose(r, e, rtol=1e-10, atol=1e-12), f"{case[0]} tensor {k}: received\n{r}\nexpected (torch)\n{e}"


def test_create_graph_results_can_be_differentiated_again(torch):
    """The Hessian-vector product with create_graph=True is itself differentiable: d/dx of sum(H v)."""
    grads = []
    for lib in (torch, minigrad):
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        _, hv = lib.autograd.functional.hvp(lambda t: (t ** 4).sum(), x, lib.ones(3, dtype=lib.float64),
                                            create_graph=True)
        hv.sum().backward()
        grads.append(x.grad.numpy())
    assert np.allclose(grads[1], grads[0], rtol=1e-10), f"received {grads[1]}, expected (torch) {grads[0]}"


# ---- misuses: torch's exception types and messages -----------------------------------------------------------
def F(L):
    return L.autograd.functional


def _ones(L, *shape):
    return L.ones(*shape, dtype=L.float64, requires_grad=True)


MISUSES = [
    ("vjp_strict_output_no_grad", lambda L: F(L).vjp(lambda x: L.ones(2), _ones(L, 2), L.ones(2), strict=True)),
    ("vjp_strict_unused_input", lambda L: F(L).vjp(lambda x, y: x * 2, (_ones(L, 2), _ones(L, 2)), L.ones(2),
                                                   strict=True)),
    ("vjp_strict_create_graph_linear", lambda L: F(L).vjp(lambda x: x * 2, _ones(L, 2), L.ones(2), strict=True,
                                                          create_graph=True)),
    ("vjp_v_none", lambda L: F(L).vjp(lambda x: x * 2, _ones(L, 2))),
    ("vjp_v_size", lambda L: F(L).vjp(lambda x: x * 2, _ones(L, 2), L.ones(3))),
    ("vjp_v_entry_size", lambda L: F(L).vjp(lambda x: (x, x.sum()), _ones(L, 2), (L.ones(2), L.ones(2)))),
    ("vjp_v_length", lambda L: F(L).vjp(lambda x: (x, x), _ones(L, 2), (L.ones(2),))),
    ("vjp_v_single", lambda L: F(L).vjp(lambda x: x, _ones(L, 2), (L.ones(2), L.ones(2)))),
    ("vjp_v_not_tensor", lambda L: F(L).vjp(lambda x: x, _ones(L, 2), [1.0, 2.0])),
    ("vjp_inputs_list", lambda L: F(L).vjp(lambda x: x, [_ones(L, 2)], L.ones(2))),
    ("vjp_inputs_tuple_with_number", lambda L: F(L).vjp(lambda x, y: x, (_ones(L, 2), 3), L.ones(2))),
    ("vjp_output_list", lambda L: F(L).vjp(lambda x: [x], _ones(L, 2), L.ones(2))),
    ("jvp_strict_unused_input", lambda L: F(L).jvp(lambda x, y: x * 2, (_ones(L, 2), _ones(L, 2)),
                                                   (L.ones(2), L.ones(2)), strict=True)),
    ("jvp_strict_output_no_grad", lambda L: F(L).jvp(lambda x: L.ones(2), _ones(L, 2), L.ones(2), strict=True)),
    ("jvp_v_none", lambda L: F(L).jvp(lambda x: x * 2, _ones(L, 2))),
    ("jvp_v_size", lambda L: F(L).jvp(lambda x: x * 2, _ones(L, 2), L.ones(2, 1))),
    ("jacobian_strict_unused_input", lambda L: F(L).jacobian(lambda x, y: x * 2, (_ones(L, 2), _ones(L, 2)),
                                                             strict=True)),
    ("jacobian_strict_create_graph_linear", lambda L: F(L).jacobian(lambda x: (x * 3, x ** 2), _ones(L, 2),
                                                                    strict=True, create_graph=True)),
    ("jacobian_strict_vectorize", lambda L: F(L).jacobian(lambda x: x * 2, _ones(L, 2), strict=True,
                                                          vectorize=True)),
    ("jacobian_bad_strategy", lambda L: F(L).jacobian(lambda x: x * 2, _ones(L, 2), strategy="sideways")),
    ("jacobian_forward_create_graph", lambda L: F(L).jacobian(lambda x: x * 2, _ones(L, 2), create_graph=True,
                                                              strategy="forward-mode")),
    ("jacobian_forward_strict", lambda L: F(L).jacobian(lambda x: x * 2, _ones(L, 2), strict=True,
                                                        strategy="forward-mode")),
    ("jacobian_forward_not_vectorized", lambda L: F(L).jacobian(lambda x: x * 2, _ones(L, 2),
                                                                strategy="forward-mode")),
    ("jacobian_empty_output", lambda L: F(L).jacobian(lambda x: x[:0], _ones(L, 2))),
    ("hessian_strict_linear", lambda L: F(L).hessian(lambda x: x.sum() * 2, _ones(L, 2), strict=True)),
    ("hessian_not_scalar", lambda L: F(L).hessian(lambda x: x * 2, _ones(L, 2))),
    ("hessian_tuple_output", lambda L: F(L).hessian(lambda x: (x.sum(),), _ones(L, 2))),
    ("hessian_bad_strategy", lambda L: F(L).hessian(lambda x: x.sum(), _ones(L, 2), outer_jacobian_strategy="no")),
    ("hessian_inputs_list", lambda L: F(L).hessian(lambda x: x.sum(), [_ones(L, 2)])),
    ("vhp_strict_linear", lambda L: F(L).vhp(lambda x: x.sum() * 2, _ones(L, 2), L.ones(2), strict=True)),
    ("vhp_strict_unused_input", lambda L: F(L).vhp(lambda x, y: (x ** 2).sum(), (_ones(L, 2), _ones(L, 2)),
                                                   (L.ones(2), L.ones(2)), strict=True)),
    ("vhp_not_scalar", lambda L: F(L).vhp(lambda x: x * 2, _ones(L, 2), L.ones(2))),
    ("vhp_tuple_output", lambda L: F(L).vhp(lambda x: (x.sum(),), _ones(L, 2), L.ones(2))),
    ("vhp_v_none", lambda L: F(L).vhp(lambda x: x.sum(), _ones(L, 2))),
    ("hvp_strict_linear", lambda L: F(L).hvp(lambda x: x.sum() * 2, _ones(L, 2), L.ones(2), strict=True)),
    ("hvp_strict_create_graph_quadratic", lambda L: F(L).hvp(lambda x: (x ** 2).sum(), _ones(L, 2), L.ones(2),
                                                             strict=True, create_graph=True)),
    ("hvp_not_scalar", lambda L: F(L).hvp(lambda x: x * 2, _ones(L, 2), L.ones(2))),
    ("hvp_v_size", lambda L: F(L).hvp(lambda x: x.sum(), _ones(L, 2), L.ones(3))),
]


@pytest.mark.parametrize("fn", [pytest.param(fn, id=name) for name, fn in MISUSES])
def test_misuse_raises_like_torch(fn, parity):
    parity(fn)


def test_vectorize_gives_torchs_values(parity):
    """torch vmaps the rows of the Jacobian; minigrad computes them one by one: the same numbers."""
    def example(L):
        x = L.tensor([1.0, 2.0], dtype=L.float64)
        return (F(L).jacobian(lambda t: t.sin() * t[0], x, vectorize=True),
                F(L).hessian(lambda t: (t ** 3).sum() * t[1], x, vectorize=True))
    parity(example)


def test_forward_mode_gives_torchs_values_and_nesting(parity):
    """strategy="forward-mode": one forward pass with dual inputs per input element (torch nests the results in
    lists when the inputs are a tuple); the Hessian's outer Jacobian forward over reverse."""
    def example(L):
        x = L.tensor([1.0, 2.0, 3.0], dtype=L.float64)
        return (F(L).jacobian(lambda t: t.sin() * t.sum(), x, vectorize=True, strategy="forward-mode"),
                F(L).jacobian(lambda a, b: (a * b, a.sum() * b), (x, x * 2), vectorize=True, strategy="forward-mode"),
                F(L).jacobian(lambda a: (a * 2, a.sum()), x, vectorize=True, strategy="forward-mode"),
                F(L).jacobian(lambda a: a * 2, (x,), vectorize=True, strategy="forward-mode"),
                F(L).jacobian(lambda m: m @ m, x[:2].reshape(2, 1) * x[:2], vectorize=True, strategy="forward-mode"),
                F(L).hessian(lambda t: (t ** 3).sum() * t[0], x, vectorize=True,
                             outer_jacobian_strategy="forward-mode"))
    parity(example)


# ---- gradgradcheck ------------------------------------------------------------------------------------------
def cube_functions(L):
    """Two custom Functions for y = x**3 whose first derivative is right; only the first one's second is."""
    class Cube(L.autograd.Function):
        """y = x**3; dy/dx = 3 x**2, written with tensor ops, so the backward is recorded too"""
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * 3 * x ** 2

    class DetachedCube(Cube):
        """The same first derivative, but x.detach() hides from double backward that it depends on x"""
        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return grad_output * 3 * x.detach() ** 2

    return Cube, DetachedCube


def _x(L, *shape):
    values = np.linspace(-1.5, 2.0, int(np.prod(shape))).reshape(shape)
    return L.tensor(values, dtype=L.float64, requires_grad=True)


def test_gradgradcheck_passes_on_a_twice_differentiable_function(torch):
    for lib in (torch, minigrad):
        cube, _ = cube_functions(lib)
        x = _x(lib, 2, 3)
        assert lib.autograd.gradcheck(cube.apply, (x,)) is True, lib.__name__
        assert lib.autograd.gradgradcheck(cube.apply, (x,)) is True, lib.__name__
        assert lib.autograd.gradgradcheck(cube.apply, (x,), gen_non_contig_grad_outputs=True) is True, lib.__name__
        v = lib.tensor(np.ones((2, 3)), dtype=lib.float64, requires_grad=True)
        assert lib.autograd.gradgradcheck(cube.apply, (x,), (v,)) is True, lib.__name__
        assert x.grad is None and v.grad is None, f"{lib.__name__}: received .grad set by the check, expected None"


def test_gradgradcheck_fails_on_a_wrong_second_derivative(torch):
    for lib in (torch, minigrad):
        _, wrong = cube_functions(lib)
        x = _x(lib, 3)
        assert lib.autograd.gradcheck(wrong.apply, (x,)) is True, f"{lib.__name__}: the first derivative is right"
        assert lib.autograd.gradgradcheck(wrong.apply, (x,), raise_exception=False) is False, (
            f"{lib.__name__}: received True from gradgradcheck for a backward that loses d/dx, expected False")
    expected = run_both(lambda L: L.autograd.gradgradcheck(cube_functions(L)[1].apply, (_x(L, 3),)), torch, minigrad,
                        first_line=True).raised
    assert expected and (expected.type, expected.message.splitlines()[0]) == (
        "GradcheckError", "Jacobian mismatch for output 0 with respect to input 0,"), f"torch raised {expected}"


def test_gradgradcheck_numbers_inputs_like_torch(torch):
    """A constant first input is not counted: the mismatch is 'with respect to input 0', as in torch."""
    def check(L):
        _, wrong = cube_functions(L)
        c = L.tensor([2.0, -1.0, 0.5], dtype=L.float64)
        return L.autograd.gradgradcheck(lambda c, x: (c * 1, wrong.apply(x) * c), (c, _x(L, 3)))

    expected = run_both(check, torch, minigrad, first_line=True).raised
    assert expected and (expected.type, expected.message.splitlines()[0]) == (
        "GradcheckError", "Jacobian mismatch for output 0 with respect to input 0,"), f"torch raised {expected}"


GRADCHECK_OUTCOMES = [
    ("no_input_requires_grad", lambda L: L.autograd.gradcheck(lambda x: x * 2, (L.ones(2, dtype=L.float64),))),
    ("lost_graph", lambda L: L.autograd.gradcheck(lambda x: (x * 2).detach(), (_x(L, 2),))),
    ("constant_output", lambda L: L.autograd.gradcheck(lambda x: x.detach() * 0, (_x(L, 2),))),
    ("second_input_wrong", lambda L: L.autograd.gradcheck(lambda c, x: (c, (x * x).detach() + x),
                                                          (L.ones(2, dtype=L.float64), _x(L, 2)))),
    ("gradgrad_of_linear", lambda L: L.autograd.gradgradcheck(lambda x, y: x * 2 + y, (_x(L, 2), _x(L, 2)))),
    ("import_path", lambda L: __import__(f"{L.__name__}.autograd.gradcheck", fromlist=["gradgradcheck"])
     .gradgradcheck(cube_functions(L)[0].apply, (_x(L, 2),))),
]


@pytest.mark.parametrize("name, fn", GRADCHECK_OUTCOMES, ids=[name for name, _ in GRADCHECK_OUTCOMES])
def test_gradcheck_outcomes_like_torch(name, fn, parity):
    parity(fn, first_line=True)


def test_gradgradcheck_leaves_the_global_rng_alone():
    minigrad.manual_seed(0)
    expected = minigrad.randn(3).numpy()
    minigrad.manual_seed(0)
    minigrad.autograd.gradgradcheck(cube_functions(minigrad)[0].apply, (_x(minigrad, 2),))
    received = minigrad.randn(3).numpy()
    assert np.array_equal(received, expected), f"received {received} after gradgradcheck, expected {expected}"

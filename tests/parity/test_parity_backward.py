"""Parity of CONCEPTS.md §12-§13: backward() on scalars and non-scalars, leaf-only .grad, retain_grad,
accumulation and retain_graph."""
import pytest

CASES = {}


def case(fn=None, *, msg_prefix=None):
    """Register an example under its function name; ``msg_prefix`` compares error messages up to that prefix."""
    def register(f):
        CASES[f.__name__] = (f, msg_prefix)
        return f
    return register(fn) if fn else register


# §12 backward() on a scalar is backward(tensor(1.0)); a non-scalar needs a gradient of its own shape.

@case
def scalar_backward_is_backward_of_one(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    implicit = x.grad.clone()
    x.grad = None
    (x * x).sum().backward(lib.tensor(1.0))
    return implicit, x.grad


@case
def backward_on_a_zero_dim_leaf(lib):
    x = lib.tensor(3.0, requires_grad=True)
    x.backward()
    return x.grad


@case
def non_scalar_backward_is_a_vector_jacobian_product(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).backward(lib.tensor([1.0, 0.1, 0.01]))
    return x.grad


@case
def the_gradient_is_what_the_last_node_receives(lib):
    seen = []

    class Spy(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad_output):
            seen.append(grad_output)
            return grad_output
    x = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    Spy.apply(x).backward(lib.tensor([[0.5, -1.0], [2.0, 0.0]]))
    Spy.apply(x).sum().backward()
    return seen


@case
def autograd_backward_function(lib):
    x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    lib.autograd.backward(x * x, lib.tensor([1.0, 0.1, 0.01]))
    lib.autograd.backward([x.sum()])
    lib.autograd.backward([(x * x).sum(), (x * 2).sum()], [lib.tensor(1.0), lib.tensor(2.0)])
    return x.grad


@case
def double_gradient_for_float_output(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).backward(lib.tensor([1.0, 1.0], dtype=lib.float64))
    return x.grad


BACKWARD_ERRORS = {
    "non_scalar_without_gradient": lambda lib, x: (x * 2).backward(),
    "gradient_of_wrong_shape": lambda lib, x: (x * 2).backward(lib.ones(3)),
    "gradient_of_transposed_shape": lambda lib, x: (x.reshape(2, 1) * 2).backward(lib.ones(1, 2)),
    "gradient_with_shape_for_a_scalar": lambda lib, x: (x * 2).sum().backward(lib.ones(1)),
    "nothing_requires_grad": lambda lib, x: (x.detach() * 2).sum().backward(),
    "a_leaf_without_grad": lambda lib, x: lib.tensor(1.0).backward(),
    "output_made_under_no_grad": lambda lib, x: no_grad_sum(lib, x).backward(),
    "autograd_backward_second_element_non_scalar": lambda lib, x: lib.autograd.backward([x.sum(), x * 2]),
    "autograd_backward_second_element_without_grad": lambda lib, x: lib.autograd.backward([x.sum(), lib.tensor(1.0)]),
    "gradient_as_list": lambda lib, x: (x * 2).backward([1.0, 1.0]),
}


def no_grad_sum(lib, x):
    with lib.no_grad():
        return (x * 2).sum()


@pytest.mark.parametrize("name", list(BACKWARD_ERRORS))
def test_backward_errors(run_both, name):
    run_both(lambda lib: BACKWARD_ERRORS[name](lib, lib.tensor([1.0, 2.0], requires_grad=True)))


# §13 Only leaves get .grad (non-leaves warn), unless retain_grad(); gradients accumulate; retain_graph.

@case
def non_leaf_grad_is_none_and_warns(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    before = y.grad
    y.sum().backward()
    return before, y.grad, x.grad, y.is_leaf, y.retains_grad


@case
def is_leaf_table(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    n = lib.tensor([1.0, 2.0])
    return ((x.is_leaf, x.requires_grad), (n.is_leaf, n.requires_grad), ((x * 2).is_leaf, (x * 2).requires_grad),
            ((n * 2).is_leaf, (n * 2).requires_grad), (x.detach().is_leaf, x.detach().requires_grad), x.grad_fn)


@case
def retain_grad_keeps_a_non_leaf_gradient(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    (y * y).sum().backward()
    return y.retains_grad, y.grad, x.grad, x.retains_grad


@case
def retain_grad_without_requires_grad(lib):
    lib.tensor([1.0, 2.0]).retain_grad()


@case
def gradients_accumulate_until_zeroed(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    once = x.grad.clone()
    (x * x).sum().backward()
    twice = x.grad.clone()
    x.grad.zero_()
    (x * 3).sum().backward()
    after_zero = x.grad.clone()
    x.grad = None
    (x * 3).sum().backward()
    return once, twice, after_zero, x.grad


@case
def reused_tensor_and_diamond_accumulate(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    square = x.grad
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    a, b = x * 2, x * 3
    (a * b).sum().backward()
    return square, x.grad


@case
def second_backward_needs_retain_graph(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    y.backward()


@case
def retain_graph_allows_a_second_backward(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    return x.grad


@case
def grad_can_be_assigned_and_then_accumulates(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.grad = lib.tensor([5.0, 5.0])
    (x * 1).sum().backward()
    return x.grad


@case
def grad_assignment_of_wrong_shape(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.grad = lib.tensor([5.0, 5.0, 5.0])


@case
def grad_assignment_of_a_list(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.grad = [1.0, 2.0]


@case
def integer_tensor_cannot_require_grad(lib):
    return lib.tensor([1, 2], requires_grad=True)


@case
def integer_tensor_cannot_requires_grad_(lib):
    return lib.tensor([1, 2]).requires_grad_()


@case
def requires_grad_flag_of_a_non_leaf(lib):
    (lib.tensor([1.0], requires_grad=True) * 2).requires_grad_(False)


@case
def requires_grad__returns_self(lib):
    x = lib.tensor([1.0, 2.0])
    return x.requires_grad_() is x, x, x.requires_grad_(False)


# Defined last: parametrize reads CASES when this line runs.
@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    example, msg_prefix = CASES[name]
    run_both(example, msg_prefix=msg_prefix)

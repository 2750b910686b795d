"""Parity of CONCEPTS.md §8-§11: needs_input_grad, set_materialize_grads, mark_dirty, mark_non_differentiable
and gradcheck."""
import pytest

CASES = {}


def case(fn=None, *, msg_prefix=None):
    """Register an example under its function name; ``msg_prefix`` compares error messages up to that prefix."""
    def register(f):
        CASES[f.__name__] = (f, msg_prefix)
        return f
    return register(fn) if fn else register


# §8 needs_input_grad: one bool per forward input.

def needs_input_grad_of(lib, *inputs):
    class Probe(lib.autograd.Function):
        @staticmethod
        def forward(ctx, *args):
            ctx.seen = ctx.needs_input_grad
            return args[0] * 1

        @staticmethod
        def backward(ctx, grad_output):
            return (grad_output,) * len(ctx.seen)  # a gradient where none is needed is not an error
    y = Probe.apply(*inputs)
    return y.grad_fn.seen, type(y.grad_fn.seen).__name__


@case
def needs_input_grad_mixed(lib):
    grad = lib.tensor([1.0], requires_grad=True)
    return (needs_input_grad_of(lib, grad, lib.tensor([1.0]), 3, None, grad * 2, "s"),
            needs_input_grad_of(lib, grad, grad.detach()))


@case
def gradient_returned_for_input_without_grad_is_ignored(lib):
    class Mul(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(a, b)
            ctx.seen = ctx.needs_input_grad
            return a * b

        @staticmethod
        def backward(ctx, grad_output):
            a, b = ctx.saved_tensors
            return grad_output * b, grad_output * a
    a, b = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0])
    y = Mul.apply(a, b)
    y.sum().backward()
    return y.grad_fn.seen, a.grad, b.grad


# §9 set_materialize_grads: the unused output's gradient arrives as zeros, or as None when switched off.

@pytest.mark.parametrize("materialize", [True, False])
def test_materialize_grads(run_both, materialize):
    def example(lib):
        seen = []

        class Two(lib.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.set_materialize_grads(materialize)
                return x * 2, x * 3

            @staticmethod
            def backward(ctx, g1, g2):
                seen.append((g1, g2))
                return g1 * 2 if g2 is None else g1 * 2 + g2 * 3
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y1, y2 = Two.apply(x)
        y1.sum().backward()
        return seen, x.grad
    run_both(example)


# §10 mark_dirty for in-place Functions, mark_non_differentiable for outputs such as sort indices.

def add_one_in_place(lib):
    class AddOne(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output
    return AddOne


@case
def mark_dirty_returns_the_modified_input(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = a * 1
    c = add_one_in_place(lib).apply(b)
    c.sum().backward()
    return c is b, b.grad_fn.name(), b._version, c, a.grad


@case
def mark_dirty_on_a_leaf_that_requires_grad(lib):
    return add_one_in_place(lib).apply(lib.tensor([1.0, 2.0], requires_grad=True))


@case
def mark_dirty_on_a_leaf_without_grad(lib):
    a = lib.tensor([1.0, 2.0])
    c = add_one_in_place(lib).apply(a)
    return c is a, c, c.grad_fn, a._version


@case
def mark_non_differentiable_sort_indices(lib):
    seen = []

    class Sort(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values, indices = x.sort()
            ctx.mark_non_differentiable(indices)
            ctx.save_for_backward(indices)
            return values, indices

        @staticmethod
        def backward(ctx, grad_values, grad_indices):
            indices, = ctx.saved_tensors
            seen.append(grad_indices)
            grad_input = lib.zeros_like(grad_values)
            grad_input[indices] = grad_values
            return grad_input
    x = lib.tensor([3.0, 1.0, 2.0], requires_grad=True)
    values, indices = Sort.apply(x)
    (values * lib.tensor([1.0, 10.0, 100.0])).sum().backward()
    return values, indices, indices.requires_grad, indices.grad_fn, indices.is_leaf, x.grad, seen


# §11 gradcheck: backward against finite differences, in double precision.

def square_backward_times(lib, factor):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return factor * x * grad_output
    return Square.apply, lib.tensor([1.0, 2.0, 3.0], dtype=lib.float64, requires_grad=True)


@case
def gradcheck_passes(lib):
    fn, x = square_backward_times(lib, 2)
    return (lib.autograd.gradcheck(fn, (x,)), lib.autograd.gradcheck(fn, (x,), eps=1e-6, atol=1e-4),
            lib.autograd.gradcheck(fn, x))


# The rest of the message prints the numerical and analytical Jacobians.
@case(msg_prefix="Jacobian mismatch for output 0 with respect to input 0,\nnumerical:")
def gradcheck_wrong_backward_raises(lib):
    fn, x = square_backward_times(lib, 3)
    return lib.autograd.gradcheck(fn, (x,), eps=1e-6, atol=1e-4)


@case
def gradcheck_wrong_backward_returns_false(lib):
    fn, x = square_backward_times(lib, 3)
    return lib.autograd.gradcheck(fn, (x,), eps=1e-6, atol=1e-4, raise_exception=False)


# Defined last: parametrize reads CASES when this line runs.
@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    example, msg_prefix = CASES[name]
    run_both(example, msg_prefix=msg_prefix)

"""Parity of CONCEPTS.md §4-§6: the two styles of custom Function, legacy Functions, and gradient counts."""
import pytest

CASES = {}


def case(fn=None, *, msg_prefix=None):
    """Register an example under its function name; ``msg_prefix`` compares error messages up to that prefix."""
    def register(f):
        CASES[f.__name__] = (f, msg_prefix)
        return f
    return register(fn) if fn else register


# §4 Both styles: forward(ctx, ...) and forward(...) + setup_context(ctx, inputs, output).

def mul_constant_styles(lib):
    class MulConstantA(lib.autograd.Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            ctx.constant = constant
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None

    class MulConstantB(lib.autograd.Function):
        @staticmethod
        def forward(tensor, constant):
            return tensor * constant

        @staticmethod
        def setup_context(ctx, inputs, output):
            tensor, constant = inputs
            ctx.constant = constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None
    return MulConstantA, MulConstantB


@case
def styles_a_and_b_agree(lib):
    results = []
    for Fn in mul_constant_styles(lib):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = Fn.apply(x, 2.5)
        y.backward(lib.tensor([1.0, 0.5, 0.25]))
        results.append((y, x.grad, y.grad_fn.name(), y.grad_fn.constant))
    return results


@case
def setup_context_receives_inputs_tuple_and_the_output(lib):
    seen = {}

    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(x, k):
            return x * k

        @staticmethod
        def setup_context(ctx, inputs, output):
            seen.update(ctx=ctx, inputs=inputs, output=output)

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output, None
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = Scale.apply(x, 3.0)
    return (type(seen["inputs"]).__name__, seen["inputs"][0] is x, seen["inputs"][1],
            seen["output"] is y, seen["ctx"] is y.grad_fn)


@case
def style_b_without_setup_context(lib):
    class NoSetup(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output
    return NoSetup.apply(lib.tensor([1.0], requires_grad=True))


@case
def forward_with_ctx_and_setup_context(lib):
    class Mixed(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def setup_context(ctx, inputs, output):
            pass

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output
    return Mixed.apply(lib.tensor([1.0], requires_grad=True))


# §5 Legacy Functions (non-static forward, called on an instance) fail; the migration works.

def legacy_relu(lib):
    class MyReLU(lib.autograd.Function):
        def forward(self, input_):
            self.save_for_backward(input_)
            return input_.clamp(min=0)

        def backward(self, grad_output):
            input_, = self.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input_ < 0] = 0
            return grad_input
    return MyReLU


@case
def legacy_instance_call_raises(lib):
    return legacy_relu(lib)()(lib.tensor([-1.0, 2.0], requires_grad=True))


@case
def legacy_instantiation_warns(lib):
    legacy_relu(lib)()
    return "instantiated"


# The article's `F(gamma)(inp)` pattern and its migration to `F_new.apply(inp, gamma)` are checked in
# test_seed_examples.py (gamma_old_style, gamma_new_style).


@case
def legacy_class_still_works_through_apply(lib):
    # apply passes the ctx as `self`: the legacy error only comes from calling an instance
    x = lib.tensor([-1.0, 2.0], requires_grad=True)
    y = legacy_relu(lib).apply(x)
    y.sum().backward()
    return y, x.grad


@case
def variable_is_now_just_tensor(lib):
    Variable = lib.autograd.Variable
    v = Variable(lib.tensor([1.0, 2.0]))
    w = Variable(lib.tensor([1.0, 2.0]), requires_grad=True)
    return (v, w, type(v).__name__, isinstance(v, lib.Tensor), isinstance(lib.tensor(1.0), Variable))


@case
def creator_is_now_grad_fn(lib):
    y = lib.tensor([1.0], requires_grad=True) * 2
    return y.creator


@case
def creator_on_a_leaf(lib):
    return lib.tensor([1.0], requires_grad=True).creator


# §6 backward gets one gradient per output and returns one per input (None for non-tensors).

def three_input_function(lib, make_grads):
    class XFn(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b, c):
            return a * b * c

        @staticmethod
        def backward(ctx, grad_output):
            return make_grads(grad_output)
    a = lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
    b = lib.tensor([2.0, 2.0, 2.0, 2.0, 2.0], requires_grad=True)
    XFn.apply(a, b, 3.0).sum().backward()
    return a.grad, b.grad


GRADIENT_COUNTS = {
    "right_count": lambda g: (g, g, None),
    "one_of_three": lambda g: (g,),
    "two_of_three": lambda g: (g, g),
    "bare_tensor_for_three_inputs": lambda g: g,
    "empty_tuple": lambda g: (),
    "extra_trailing_nones_accepted": lambda g: (g, g, None, None, None),
    "extra_non_none": lambda g: (g, g, None, g),
    "gradient_for_the_non_tensor_input": lambda g: (g, g, g),
    "wrong_shape_scalar": lambda g: (g.sum(), g, None),
    "wrong_shape_shorter": lambda g: (g[:2], g, None),
    "broadcastable_shape_is_still_wrong": lambda g: (g[:1], g, None),
    "float_instead_of_tensor": lambda g: (1.0, g, None),
    "double_gradient_is_cast_to_input_dtype": lambda g: (g.double(), g, None),
}


@pytest.mark.parametrize("name", list(GRADIENT_COUNTS))
def test_gradient_counts(run_both, name):
    run_both(lambda lib: three_input_function(lib, GRADIENT_COUNTS[name]))


@case
def mul_constant_gradient_for_constant(lib):
    class MulConstant(lib.autograd.Function):
        @staticmethod
        def forward(ctx, tensor, constant):
            return tensor * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2.0, grad_output
    MulConstant.apply(lib.tensor([1.0, 2.0], requires_grad=True), 2.0).sum().backward()


@case
def single_input_may_return_a_bare_tensor(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    Double.apply(x).sum().backward()
    return x.grad


def two_output_function(lib, backward):
    class Two(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3
    Two.backward = staticmethod(backward)
    return Two


@case
def backward_gets_one_gradient_per_output(lib):
    seen = []

    def backward(ctx, g1, g2):
        seen.append((g1, g2))
        return g1 * 2 + g2 * 3
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y1, y2 = two_output_function(lib, backward).apply(x)
    (y1.sum() + (y2 * 10).sum()).backward()
    return seen, x.grad, y1.grad_fn is y2.grad_fn


@case
def backward_with_too_few_parameters(lib):
    def backward(ctx, g1):
        return g1
    y1, y2 = two_output_function(lib, backward).apply(lib.tensor([1.0, 2.0], requires_grad=True))
    y1.sum().backward()


# Defined last: parametrize reads CASES when this line runs.
@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    example, msg_prefix = CASES[name]
    run_both(example, msg_prefix=msg_prefix)

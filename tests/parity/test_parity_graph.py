"""Parity of CONCEPTS.md §14: next_functions, AccumulateGrad, hooks, no_grad/enable_grad and detach."""
import pytest

CASES = {}


def case(fn=None, *, msg_prefix=None):
    """Register an example under its function name; ``msg_prefix`` compares error messages up to that prefix."""
    def register(f):
        CASES[f.__name__] = (f, msg_prefix)
        return f
    return register(fn) if fn else register


def walk(node):
    """Return the graph below ``node`` as nested (type name, name(), [(child, input_nr), ...]) tuples."""
    if node is None:
        return None
    return (type(node).__name__, node.name(), [(walk(child), nr) for child, nr in node.next_functions])


@case
def next_functions_of_a_small_graph(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    y = ((a * b) + a).sum()
    return walk(y.grad_fn), type(y.grad_fn.next_functions).__name__, len(y.grad_fn.next_functions)


@case
def inputs_without_grad_are_none_in_next_functions(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    return walk((a * lib.tensor([1.0, 2.0])).sum().grad_fn), walk((a * 2).grad_fn)


@case
def accumulate_grad_holds_the_leaf(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    y1, y2 = a * 1, a * 2
    acc = y1.grad_fn.next_functions[0][0]
    return acc.variable is a, acc is y2.grad_fn.next_functions[0][0], acc.name(), acc.next_functions, a.grad_fn


@case
def custom_function_next_functions_skip_non_tensors(lib):
    class Scale(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, k):
            return x * k

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output, None
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    return walk(Scale.apply(a * 2, 3.0).grad_fn), walk(Scale.apply(a, lib.tensor(2.0)).grad_fn)


@case
def multi_output_node_appears_with_output_numbers(lib):
    class Two(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2, x * 3

        @staticmethod
        def backward(ctx, g1, g2):
            return g1 * 2 + g2 * 3
    y1, y2 = Two.apply(lib.tensor([1.0, 2.0], requires_grad=True))
    nexts = (y1 + y2).grad_fn.next_functions
    return walk((y1 + y2).grad_fn), nexts[0][0] is nexts[1][0] is y1.grad_fn


@case
def register_hook_sees_the_gradient_and_remove_stops_it(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    handle = x.register_hook(lambda g: seen.append(g.clone()))
    (x * 3).sum().backward()
    handle.remove()
    handle.remove()  # removing twice is harmless
    (x * 3).sum().backward()
    return seen, x.grad, type(handle).__name__


@case
def register_hook_may_replace_the_gradient(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    x.register_hook(lambda g: g * 10)
    (x * 3).sum().backward()
    y_leaf = lib.tensor([1.0, 2.0], requires_grad=True)
    y = y_leaf * 2
    seen = []
    y.register_hook(lambda g: seen.append(g) or g * 100)
    (y * y).sum().backward()
    return x.grad, seen, y_leaf.grad


@case
def hooks_run_in_registration_order(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    log = []
    x.register_hook(lambda g: log.append(("first", g.tolist())) or g + 1)
    x.register_hook(lambda g: log.append(("second", g.tolist())))  # returning None keeps the gradient
    (x * 3).sum().backward()
    return log, x.grad


@case
def register_hook_without_requires_grad(lib):
    lib.tensor([1.0]).register_hook(lambda g: g)


@case
def no_grad_and_enable_grad_nest(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    states = [lib.is_grad_enabled()]
    with lib.no_grad():
        states.append(lib.is_grad_enabled())
        y = x * 2
        with lib.enable_grad():
            states.append(lib.is_grad_enabled())
            z = x * 2
        states.append(lib.is_grad_enabled())
    states.append(lib.is_grad_enabled())
    return states, y, y.grad_fn, y.is_leaf, z


@case
def no_grad_as_decorator_and_on_exceptions(lib):
    @lib.no_grad()
    def double(x):
        return x * 2, lib.is_grad_enabled()
    result = double(lib.tensor([1.0], requires_grad=True))
    try:
        with lib.no_grad():
            raise ValueError("inside no_grad")
    except ValueError:
        pass
    return result, lib.is_grad_enabled()


@case
def set_grad_enabled(lib):
    lib.set_grad_enabled(False)
    off = (lib.is_grad_enabled(), (lib.tensor([1.0], requires_grad=True) * 2).requires_grad)
    lib.set_grad_enabled(True)
    with lib.set_grad_enabled(False):
        inside = lib.is_grad_enabled()
    return off, inside, lib.is_grad_enabled()


@case
def detach_shares_data_and_stops_recording(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    d[0] = 100.0
    return d, d.requires_grad, d.grad_fn, d.is_leaf, y, y._version, x.detach()


@case
def data_is_a_detached_view(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    x.data.fill_(0)
    before = x._version
    x.data = lib.tensor([5.0, 6.0])
    return y.data, x, before, type(x.data).__name__, x.data.requires_grad


# Defined last: parametrize reads CASES when this line runs.
@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    example, msg_prefix = CASES[name]
    run_both(example, msg_prefix=msg_prefix)

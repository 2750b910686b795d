"""Parity of the grad modes (issue 10, point 6): `no_grad`, `enable_grad`, `set_grad_enabled`, `inference_mode`,
inference tensors and their errors, and `requires_grad_` on non-leaves (point 7).

Every example returns what a learner would look at: flags (`is_grad_enabled`, `is_inference_mode_enabled`,
`requires_grad`, `is_inference()`, `grad_fn`), values, or the exception torch raises, compared word for word.
"""
import pytest

CASES = {}


def case(fn):
    """Register an example under its function name."""
    CASES[fn.__name__] = fn
    return fn


def modes(lib):
    return lib.is_grad_enabled(), lib.is_inference_mode_enabled()


def inference_tensor(lib, requires_grad=False):
    with lib.inference_mode():
        return lib.tensor([1.0, 2.0, 3.0], requires_grad=requires_grad)


def leaf(lib):
    return lib.tensor([1.0, 2.0, 3.0], requires_grad=True)


# ---- no_grad / enable_grad: context managers and decorators, with and without parentheses ----------------------

@case
def no_grad_bare_decorator(lib):
    @lib.no_grad
    def double(x):
        return x * 2, lib.is_grad_enabled()
    return double(leaf(lib)), double.__name__, lib.is_grad_enabled()


@case
def no_grad_decorator_with_parentheses(lib):
    @lib.no_grad()
    def double(x):
        return x * 2
    return double(leaf(lib)), lib.is_grad_enabled()


@case
def enable_grad_bare_decorator_inside_no_grad(lib):
    @lib.enable_grad
    def double(x):
        return x * 2
    with lib.no_grad():
        y = double(leaf(lib))
        inside = lib.is_grad_enabled()
    return y, inside, lib.is_grad_enabled()


@case
def enable_grad_decorator_with_parentheses(lib):
    @lib.enable_grad()
    def double(x):
        return x * 2
    with lib.no_grad():
        return double(leaf(lib))


@case
def context_managers_return_none(lib):
    with lib.no_grad() as a, lib.enable_grad() as b, lib.set_grad_enabled(False) as c, lib.inference_mode() as d:
        return a, b, c, d


@case
def nesting_restores_each_mode(lib):
    seen = [lib.is_grad_enabled()]
    with lib.no_grad():
        seen.append(lib.is_grad_enabled())
        with lib.enable_grad():
            seen.append(lib.is_grad_enabled())
            with lib.no_grad():
                seen.append(lib.is_grad_enabled())
            seen.append(lib.is_grad_enabled())
        seen.append(lib.is_grad_enabled())
    seen.append(lib.is_grad_enabled())
    return seen


@case
def mode_restored_after_an_exception(lib):
    try:
        with lib.no_grad():
            raise ValueError("inside")
    except ValueError:
        pass
    return lib.is_grad_enabled()


@case
def decorated_function_raising_restores_the_mode(lib):
    @lib.no_grad()
    def fail():
        raise KeyError("k")
    try:
        fail()
    except KeyError:
        pass
    return lib.is_grad_enabled()


@case
def no_grad_decorates_a_generator_each_time_it_runs(lib):
    @lib.no_grad()
    def steps():
        yield lib.is_grad_enabled()
        yield lib.is_grad_enabled()
    gen = steps()
    first = next(gen)
    between = lib.is_grad_enabled()
    return first, between, next(gen), lib.is_grad_enabled()


@case
def no_grad_decorating_a_class_warns(lib):
    @lib.no_grad()
    class Box:
        def __init__(self):
            self.grad = lib.is_grad_enabled()
    return type(Box).__name__, Box().grad


@case
def no_grad_with_two_arguments(lib):
    return lib.no_grad(1, 2)


@case
def reusing_one_no_grad_object_nested(lib):
    cm = lib.no_grad()
    with cm:
        with cm:
            pass
        inner = lib.is_grad_enabled()
    after = lib.is_grad_enabled()   # PyTorch keeps only the innermost `prev`: grad mode stays off
    lib.set_grad_enabled(True)
    return inner, after


# ---- set_grad_enabled: a function, a context manager and a decorator ----------------------------------------

@case
def set_grad_enabled_as_a_function_takes_effect_at_once(lib):
    handle = lib.set_grad_enabled(False)
    y = leaf(lib) * 2
    off = lib.is_grad_enabled()
    lib.set_grad_enabled(True)
    return off, y, lib.is_grad_enabled(), repr(handle).replace("minigrad.", "torch.")


@case
def set_grad_enabled_as_a_context_manager(lib):
    with lib.set_grad_enabled(False):
        y = leaf(lib) * 2
        inside = lib.is_grad_enabled()
    with lib.no_grad():
        with lib.set_grad_enabled(True):
            z = leaf(lib) * 2
    return inside, y, z, lib.is_grad_enabled()


@case
def set_grad_enabled_as_a_decorator_changes_nothing_until_called(lib):
    @lib.set_grad_enabled(False)
    def double(x):
        return x * 2, lib.is_grad_enabled()
    before = lib.is_grad_enabled()
    return before, double(leaf(lib)), lib.is_grad_enabled()


@case
def set_grad_enabled_context_restores_the_mode_before_the_call(lib):
    lib.set_grad_enabled(False)
    with lib.set_grad_enabled(True):
        inside = lib.is_grad_enabled()
    after = lib.is_grad_enabled()
    lib.set_grad_enabled(True)
    return inside, after


@pytest.mark.parametrize("mode", [1, None, "yes"])
def test_set_grad_enabled_takes_a_bool_only(run_both, mode):
    run_both(lambda lib: lib.set_grad_enabled(mode))


@case
def set_grad_enabled_without_mode(lib):
    return lib.set_grad_enabled()


@case
def grad_mode_module_attributes(lib):
    gm = lib.autograd.grad_mode
    return (gm.no_grad is lib.no_grad, gm.enable_grad is lib.enable_grad, gm.set_grad_enabled is lib.set_grad_enabled,
            gm.inference_mode is lib.inference_mode, lib.autograd.inference_mode is lib.inference_mode,
            lib.autograd.set_multithreading_enabled is gm.set_multithreading_enabled,
            [c.__name__ for c in lib.enable_grad.__mro__], lib.no_grad().prev, lib.inference_mode(False).mode)


# ---- inference_mode: the mode and its flags ----------------------------------------------------------------

@case
def inference_mode_flags(lib):
    w = leaf(lib)
    outside = modes(lib)
    with lib.inference_mode():
        inside = modes(lib)
        y = w * 2
        z = lib.ones(2)
        flags = [(t.is_inference(), t.requires_grad, t.grad_fn, t.is_leaf) for t in (w, y, z)]
    return outside, inside, flags, y, modes(lib)


@case
def inference_mode_bare_decorator(lib):
    @lib.inference_mode
    def double(x):
        return x * 2
    y = double(leaf(lib))
    return y, y.is_inference(), double.__name__


@case
def inference_mode_decorator_with_parentheses(lib):
    @lib.inference_mode()
    def double(x):
        return x * 2, modes(lib)
    (y, inside), after = double(leaf(lib)), modes(lib)
    return y, y.is_inference(), inside, after


@case
def inference_mode_false_inside_inference_mode(lib):
    w = leaf(lib)
    with lib.inference_mode():
        with lib.inference_mode(False):
            inside = modes(lib)
            y = w * 2
        back = modes(lib)

    @lib.inference_mode(False)
    def flags():
        return modes(lib)
    with lib.inference_mode():
        decorated = flags()
    return inside, y, y.is_inference(), back, decorated


@case
def inference_mode_false_turns_grad_mode_on(lib):
    with lib.no_grad():
        with lib.inference_mode(False):
            inside = modes(lib)
        with lib.inference_mode():
            in_inference = modes(lib)
        return inside, in_inference, modes(lib)


@case
def no_grad_and_enable_grad_inside_inference_mode(lib):
    w = leaf(lib)
    with lib.inference_mode():
        with lib.no_grad():
            a = modes(lib), (w * 2).is_inference()
        with lib.enable_grad():            # grad mode is on, but nothing is recorded
            y = w * 2
            b = modes(lib), y.is_inference(), y.requires_grad, y.grad_fn is None
        lib.set_grad_enabled(True)
        c = modes(lib), (w * 2).requires_grad
    return a, b, c, modes(lib)


@case
def nested_inference_modes(lib):
    with lib.inference_mode():
        with lib.inference_mode():
            inner = modes(lib)
        return inner, modes(lib)


@case
def custom_function_inside_inference_mode(lib):
    class Double(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2
    with lib.inference_mode():
        y = Double.apply(leaf(lib))
    return y, y.is_inference(), y.grad_fn


@case
def what_an_inference_tensor_gives_outside(lib):
    x = inference_tensor(lib)
    n = lib.ones(3)
    with lib.inference_mode():
        normal_view, normal_detached, cmp, index = n[0:2], n.detach(), x > 1, x.argmax()
    return ((x + 1).is_inference(), x.clone().is_inference(), x.detach().is_inference(), x.data.is_inference(),
            x[0:2].is_inference(), x.view(3).is_inference(), x.reshape(3, 1).is_inference(),
            normal_view.is_inference(), normal_detached.is_inference(), cmp.is_inference(), index.is_inference(),
            lib.is_inference(x), lib.is_inference(n))


@case
def is_inference_of_a_number(lib):
    return lib.is_inference(3)


@case
def version_of_an_inference_tensor(lib):
    return inference_tensor(lib)._version


@case
def a_model_evaluated_in_inference_mode(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
    x = lib.ones(2, 3)
    with lib.inference_mode():
        y = model(x)
    return y.is_inference(), y.requires_grad, y.grad_fn, model[0].weight.is_inference()


@case
def parameters_made_in_inference_mode(lib):
    with lib.inference_mode():
        layer = lib.nn.Linear(3, 1)
    return layer.weight.is_inference(), layer.weight.requires_grad, layer.weight.is_leaf


@case
def factories_inside_inference_mode(lib):
    import numpy as np
    with lib.inference_mode():
        made = [lib.zeros(2), lib.ones(2), lib.randn(2), lib.arange(3), lib.Tensor([1.0]), lib.eye(2),
                lib.from_numpy(np.ones(2)), lib.zeros_like(lib.ones(2)), lib.tensor([1.0], requires_grad=True)]
    return [t.is_inference() for t in made], made[-1].requires_grad


@case
def backward_inside_inference_mode_gives_an_inference_grad(lib):
    w = leaf(lib)
    loss = (w * w).sum()
    with lib.inference_mode():
        loss.backward()
    first = w.grad.is_inference(), w.grad
    try:
        (w * 3).sum().backward()       # accumulating into the inference .grad is an in-place update
    except RuntimeError as e:
        return first, str(e), w.grad


@case
def grad_accumulation_bumps_the_grad_version(lib):
    w = leaf(lib)
    versions = []
    for _ in range(3):
        (w * 2).sum().backward()
        versions.append(w.grad._version)
    return versions


@case
def backward_of_an_inference_result(lib):
    with lib.inference_mode():
        loss = (leaf(lib) * 2).sum()
    loss.backward()


@case
def backward_inside_inference_mode_of_an_inference_result(lib):
    w = leaf(lib)
    with lib.inference_mode():
        (w * 2).sum().backward()


# ---- inference tensors: what autograd refuses outside the mode ----------------------------------------------

@case
def inference_tensor_saved_for_backward(lib):
    x, w = inference_tensor(lib), leaf(lib)
    return w * x


@case
def inference_result_saved_for_backward(lib):
    w = leaf(lib)
    with lib.inference_mode():
        x = w * 2
    return x * w


@pytest.mark.parametrize("op", ["add", "mul_scalar", "exp", "matmul", "linear", "pow", "sigmoid_of_sum"])
def test_inference_tensor_in_recorded_ops(run_both, op):
    def example(lib):
        x, w = inference_tensor(lib), leaf(lib)
        if op == "add":
            return w + x                       # Add saves nothing: allowed
        if op == "mul_scalar":
            return x * 2                       # nothing requires grad: nothing recorded
        if op == "exp":
            return w.exp() * x
        if op == "matmul":
            return w @ x
        if op == "linear":
            lib.manual_seed(0)
            return lib.nn.Linear(3, 1)(x)
        if op == "pow":
            return w.pow(x)
        return lib.sigmoid(x + w)              # the sum is a normal tensor
    run_both(example)


@case
def saved_inside_inference_mode_false(lib):
    x = inference_tensor(lib)
    with lib.inference_mode():
        with lib.inference_mode(False):
            return leaf(lib) * x


@case
def custom_function_saving_an_inference_tensor(lib):
    class Keep(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a, b):
            ctx.save_for_backward(b)
            return a * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2, None
    x, w = inference_tensor(lib), leaf(lib)
    kept_normal = Keep.apply(x, w)
    try:
        Keep.apply(w, x)
    except RuntimeError as e:
        return kept_normal, str(e)


@case
def a_clone_is_a_normal_tensor(lib):
    x, w = inference_tensor(lib), leaf(lib)
    y = w * x.clone()
    y.sum().backward()
    return y, w.grad


INPLACE = {
    "add_": lambda x: x.add_(1),
    "mul_": lambda x: x.mul_(3),
    "sub_": lambda x: x.sub_(1),
    "div_": lambda x: x.div_(2),
    "zero_": lambda x: x.zero_(),
    "fill_": lambda x: x.fill_(7),
    "clamp_": lambda x: x.clamp_(max=1.5),
    "copy_": lambda x: x.copy_(x.clone() * 0),
    "setitem_basic": lambda x: x.__setitem__(0, 5.0),
    "setitem_mask": lambda x: x.__setitem__(x.clone() > 1, 5.0),
    "view_add_": lambda x: x[1:].add_(1),
    "add_leaf_": lambda x: x.add_(x.clone().requires_grad_()),
}


@pytest.mark.parametrize("under", ["grad", "no_grad"])
@pytest.mark.parametrize("name", list(INPLACE))
def test_inference_tensor_changed_in_place_outside(run_both, name, under):
    """PyTorch checks in its version bump, after the op wrote: the values have changed when the error comes."""
    def example(lib):
        x = inference_tensor(lib)
        try:
            if under == "no_grad":
                with lib.no_grad():
                    INPLACE[name](x)
            else:
                INPLACE[name](x)
        except RuntimeError as e:
            return str(e), x, x.requires_grad, x.grad_fn
    run_both(example)


@case
def random_fill_of_an_inference_tensor(lib):
    x = inference_tensor(lib)
    try:
        x.normal_()
    except RuntimeError as e:
        return str(e), x.tolist() != [1.0, 2.0, 3.0]


@case
def mark_dirty_on_an_inference_tensor(lib):
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            a.mul_(2)
            ctx.mark_dirty(a)
            return a

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2
    x = inference_tensor(lib)
    try:
        Twice.apply(x)
    except RuntimeError as e:
        return str(e), x


@case
def in_place_inside_inference_mode(lib):
    x, n, w = inference_tensor(lib), lib.ones(3), leaf(lib)
    with lib.inference_mode():
        x.add_(1)
        n.add_(1)
        w.add_(1)                              # nothing is recorded, as under no_grad
        flags = n.is_inference(), n._version
    return x, n, w, flags


@case
def apply_on_an_inference_tensor(lib):
    x = inference_tensor(lib)
    return x.apply_(lambda v: v * 2)


@case
def inference_leaf_requiring_grad_changed_in_place(lib):
    return inference_tensor(lib, requires_grad=True).add_(1)


@case
def inference_leaf_requiring_grad_in_a_graph(lib):
    x = inference_tensor(lib, requires_grad=True)
    (x + 1).sum().backward()
    return x.grad, x.is_leaf, x.requires_grad


# ---- requires_grad_ and the requires_grad setter -------------------------------------------------------------

@pytest.mark.parametrize("call", ["requires_grad_()", "requires_grad_(True)", "requires_grad_(False)",
                                  "requires_grad = True", "requires_grad = False"])
@pytest.mark.parametrize("kind", ["inference", "inference_under_no_grad", "inference_int", "non_leaf", "int", "leaf"])
def test_requires_grad(run_both, kind, call):
    def example(lib):
        if kind.startswith("inference"):
            with lib.inference_mode():
                t = lib.tensor([1, 2]) if kind == "inference_int" else lib.tensor([1.0, 2.0])
        elif kind == "non_leaf":
            t = leaf(lib) * 2
        else:
            t = lib.tensor([1, 2]) if kind == "int" else lib.tensor([1.0, 2.0])
        value = call != "requires_grad_(False)" and call != "requires_grad = False"
        with lib.no_grad() if kind == "inference_under_no_grad" else lib.enable_grad():
            if call.startswith("requires_grad_"):
                r = t.requires_grad_() if call == "requires_grad_()" else t.requires_grad_(value)
                return r is t, t
            t.requires_grad = value
            return t
    run_both(example)


@case
def requires_grad_inside_inference_mode(lib):
    with lib.inference_mode():
        x = lib.ones(3).requires_grad_()
        y = x * 2
        inside = x.requires_grad, x.is_inference(), y.requires_grad, y.grad_fn
    try:
        x.requires_grad_(False)
        x.requires_grad_(True)
    except RuntimeError as e:
        return inside, str(e), x.requires_grad


@case
def non_leaf_requires_grad_returns_itself(lib):
    y = leaf(lib) * 2
    z = y.requires_grad_()
    z.sum().backward()
    return z is y, y.requires_grad, y.grad_fn.name()


# Defined last: parametrize reads CASES when this line runs.
@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])

"""Parity of CONCEPTS.md §7: save_for_backward, the version check on saved tensors, freeing after backward."""
import pytest

CASES = {}


def case(fn=None, *, msg_prefix=None):
    """Register an example under its function name; ``msg_prefix`` compares error messages up to that prefix."""
    def register(f):
        CASES[f.__name__] = (f, msg_prefix)
        return f
    return register(fn) if fn else register


def saving_function(lib, to_save):
    class Saver(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(*to_save(x))
            return x * 2

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * 2
    return Saver


def square_function(lib, save_output=False):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            y = x * x
            ctx.save_for_backward(y if save_output else x)
            return y

        @staticmethod
        def backward(ctx, grad_output):
            saved, = ctx.saved_tensors
            return 2 * grad_output * (saved.sqrt() if save_output else saved)
    return Square


# §7 save_for_backward: tensors or None only; checked for in-place changes; freed after backward.

SAVE_ARGUMENTS = {
    "tensor_and_float": lambda x: (x, 1.5),
    "float_first": lambda x: (1.5,),
    "int_third": lambda x: (x, x, 3),
    "list": lambda x: ([x],),
    "str": lambda x: ("x",),
}


@pytest.mark.parametrize("name", list(SAVE_ARGUMENTS))
def test_save_for_backward_rejects_non_tensors(run_both, name):
    run_both(lambda lib: saving_function(lib, SAVE_ARGUMENTS[name]).apply(lib.tensor([1.0], requires_grad=True)))


@case
def save_for_backward_accepts_none(lib):
    y = saving_function(lib, lambda x: (x, None)).apply(lib.tensor([1.0, 2.0], requires_grad=True))
    return y.grad_fn.saved_tensors


@case
def non_tensors_go_on_ctx(lib):
    class Keep(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x, constant, name):
            ctx.constant, ctx.name = constant, name
            return x * constant

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None, None
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = Keep.apply(x, 4.0, "four")
    y.sum().backward()
    return y.grad_fn.constant, y.grad_fn.name, x.grad


def modify_after_save(lib, kind):
    a = lib.tensor([1.0, 2.0, 3.0, 4.0, 5.0], requires_grad=True)
    if kind == "leaf_under_no_grad":
        y = square_function(lib).apply(a)
        with lib.no_grad():
            a.mul_(2)
    elif kind == "output":
        y = square_function(lib, save_output=True).apply(a)
        y.mul_(2)
    else:
        b = a * 1
        y = square_function(lib).apply(b)
        if kind == "add_":
            b.add_(1)
        elif kind == "twice":
            b.mul_(2)
            b.mul_(2)
        elif kind == "under_no_grad":
            with lib.no_grad():
                b.mul_(2)
        elif kind == "through_data":  # .data bypasses the version counter: no error, wrong gradient
            b.data.mul_(2)
    y.sum().backward()
    return a.grad


# Full texts, including torch's "Hint: ..." sentence: "[torch.FloatTensor [5]]" names the tensor's type and
# shape; "which is output 0 of Add" names its grad_fn without the "Backward0" suffix (absent for a leaf).
@pytest.mark.parametrize("kind", ["add_", "twice", "under_no_grad", "leaf_under_no_grad", "output", "through_data"])
def test_saved_tensor_modified_in_place(run_both, kind):
    run_both(lambda lib: modify_after_save(lib, kind))


@case
def saved_tensor_version_check_double_and_2d(lib):
    a = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], dtype=lib.float64, requires_grad=True)
    b = a * 1
    y = square_function(lib).apply(b)
    b.add_(1)
    y.sum().backward()


@case
def saved_tensors_read_after_in_place_change(lib):
    b = lib.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1
    y = square_function(lib).apply(b)
    b.add_(1)
    return y.grad_fn.saved_tensors


@case
def builtin_op_saved_input_modified(lib):
    b = lib.tensor([1.0, 2.0, 3.0], requires_grad=True) * 1
    y = b * b
    b.add_(1)
    y.sum().backward()


@case
def second_backward_without_retain_graph(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = square_function(lib).apply(a).sum()
    y.backward()
    y.backward()


@case
def saved_tensors_read_after_backward(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = square_function(lib).apply(a)
    y.sum().backward()
    return y.grad_fn.saved_tensors


@case
def saved_none_is_freed_too(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    y = saving_function(lib, lambda x: (None,)).apply(a)
    y.sum().backward()
    return y.grad_fn.saved_tensors


@case
def retain_graph_keeps_saved_tensors(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = square_function(lib).apply(a)
    y.sum().backward(retain_graph=True)
    saved = y.grad_fn.saved_tensors
    y.sum().backward()
    return saved, a.grad


@case
def second_backward_is_fine_when_nothing_was_saved(lib):
    a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = saving_function(lib, lambda x: ()).apply(a).sum()
    y.backward()
    y.backward()
    z = (a + a).sum()  # AddBackward0 and SumBackward0 save no tensors either
    z.backward()
    z.backward()
    return a.grad


@case
def intermediates_may_be_saved(lib):
    class ExpTwice(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            e = x.exp()
            ctx.save_for_backward(e)
            ctx.e = e  # saving it as an attribute also works
            return e * 2

        @staticmethod
        def backward(ctx, grad_output):
            e, = ctx.saved_tensors
            return grad_output * e * 2 + 0 * ctx.e
    x = lib.tensor([0.0, 1.0], requires_grad=True)
    y = ExpTwice.apply(x)
    saved = y.grad_fn.saved_tensors
    y.sum().backward()
    return saved, x.grad


@case
def saved_attributes_are_listed_by_dir(lib):
    """dir(node) lists the `_saved_*` and `_raw_saved_*` attributes, as torch's generated nodes do (what a
    reader uses to find out what a node keeps). Mm is left out: torch also lists its saved sizes and strides."""
    a = lib.tensor([0.5, 1.0], requires_grad=True)
    b = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    outputs = [a.sin(), a.exp(), a + 1, a * 3, a * a, a / a, a ** 2, a.relu(), a.sum(), a.mean(), b.t(),
               b.reshape(4), b.sum(0), b.max(), a.clamp(0, 1), lib.cat([a, a]), b.mv(a), a.dot(a), b.norm()]
    return [(y.grad_fn.name(), sorted(n for n in dir(y.grad_fn) if n.startswith(("_saved_", "_raw_saved_"))))
            for y in outputs]


# Defined last: parametrize reads CASES when this line runs.
@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    example, msg_prefix = CASES[name]
    run_both(example, msg_prefix=msg_prefix)

"""Parity of issue 10: `autograd.grad`, `backward(inputs=..., create_graph=True)`, callable and hooked nodes,
`_saved_*` attributes, `saved_tensors_hooks` and `once_differentiable`, on real torch and on minigrad.

Double-backward graphs may use other node names than torch's (minigrad's formulas are not ATen's), so
examples that differentiate twice return values and flags, not `grad_fn` names, except where noted.
"""
import warnings

import pytest

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def leaves(lib, *values, dtype=None):
    return [lib.tensor(v, requires_grad=True, dtype=dtype or lib.float64) for v in values]


def values(*tensors):
    """Values and requires_grad only: second-order graphs may name their nodes differently from torch."""
    return [None if t is None else (t.detach().tolist(), t.requires_grad, t.grad_fn is not None) for t in tensors]


# ---- autograd.grad ---------------------------------------------------------------------------------
@case
def grad_returns_a_tuple_and_leaves_dot_grad_alone(lib):
    a, b = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    out = (a * b).sum()
    grads = lib.autograd.grad(out, [a, b])
    return type(grads).__name__, grads, a.grad, b.grad


@case
def grad_of_one_input_given_as_a_tensor(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    return lib.autograd.grad((a * a).sum(), a)


@case
def grad_with_grad_outputs_is_a_vector_jacobian_product(lib):
    (a,) = leaves(lib, [1.0, 2.0, 3.0])
    return lib.autograd.grad(a * a, a, grad_outputs=lib.tensor([1.0, 0.0, -1.0], dtype=lib.float64))


@case
def grad_of_several_outputs(lib):
    a, b = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    return lib.autograd.grad([(a * b).sum(), (a * 3).sum()], [a, b])


@case
def grad_for_a_non_leaf_input(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    h = a * 3
    out = (h * h).sum()
    return lib.autograd.grad(out, h, retain_graph=True), lib.autograd.grad(out, [h, a]), a.grad


@case
def grad_with_a_dict_of_inputs(lib):
    a, b = leaves(lib, [1.0], [2.0])
    return lib.autograd.grad((a * b).sum(), {"a": a, "b": b})


@case
def grad_of_an_unused_input_is_an_error(lib):
    a, b = leaves(lib, [1.0], [2.0])
    return lib.autograd.grad((a * 2).sum(), [a, b])


@case
def grad_allow_unused_gives_none(lib):
    a, b = leaves(lib, [1.0], [2.0])
    return lib.autograd.grad((a * 2).sum(), [a, b], allow_unused=True)


@case
def grad_materialize_grads_gives_zeros(lib):
    a, b = leaves(lib, [1.0], [2.0])
    return lib.autograd.grad((a * 2).sum(), [a, b], materialize_grads=True)


@case
def grad_materialize_grads_with_allow_unused_false_is_an_error(lib):
    a, b = leaves(lib, [1.0], [2.0])
    return lib.autograd.grad((a * 2).sum(), [a, b], allow_unused=False, materialize_grads=True)


@case
def grad_of_an_input_that_does_not_require_grad(lib):
    (a,) = leaves(lib, [1.0])
    return lib.autograd.grad((a * 2).sum(), lib.ones(1))


@case
def grad_of_an_output_that_does_not_require_grad(lib):
    (a,) = leaves(lib, [1.0])
    return lib.autograd.grad(lib.ones(1).sum(), a)


@case
def grad_with_no_inputs(lib):
    (a,) = leaves(lib, [1.0])
    return lib.autograd.grad((a * 2).sum(), [])


@case
def grad_outputs_of_the_wrong_shape(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    return lib.autograd.grad(a * 2, a, grad_outputs=lib.ones(3, dtype=lib.float64))


@case
def grad_outputs_too_few(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    return lib.autograd.grad([a.sum(), (a * 2).sum()], a, grad_outputs=[lib.tensor(1.0, dtype=lib.float64)])


@case
def grad_outputs_not_a_tensor(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    return lib.autograd.grad(a.sum(), a, grad_outputs=[1.0])


@case
def grad_of_a_non_scalar_without_grad_outputs(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    return lib.autograd.grad(a * 2, a)


@case
def grad_frees_the_graph(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    out = (a * a).sum()
    lib.autograd.grad(out, a)
    return lib.autograd.grad(out, a)


@case
def grad_retain_graph_keeps_it(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    out = (a * a).sum()
    return lib.autograd.grad(out, a, retain_graph=True), lib.autograd.grad(out, a)


@case
def grad_runs_tensor_hooks_but_not_accumulate_grad(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    seen = []
    a.register_hook(lambda g: seen.append(g.tolist()))
    h = a * 2
    h.register_hook(lambda g: g * 10)
    grads = lib.autograd.grad(h.sum(), a)
    return grads, seen, a.grad


# ---- backward(inputs=...), create_graph ----------------------------------------------------------
@case
def backward_inputs_accumulates_only_those(lib):
    a, b = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    (a * b).sum().backward(inputs=[a])
    return a.grad, b.grad


@case
def backward_inputs_on_a_non_leaf_fills_its_grad(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    h = a * 3
    lib.autograd.backward((h * h).sum(), inputs=[h])
    return h.grad, a.grad, h.retains_grad


@case
def backward_inputs_empty_is_an_error(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    (a * 2).sum().backward(inputs=[])


@case
def backward_inputs_not_requiring_grad(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    (a * 2).sum().backward(inputs=[lib.ones(2)])


@case
def backward_create_graph_records_dot_grad(lib):
    (x,) = leaves(lib, 2.0)
    (x ** 3).backward(create_graph=True)
    first = x.grad
    (x ** 3).backward(create_graph=True)      # a second create_graph pass adds out of place
    return values(first, x.grad), x.grad is first, x.grad.grad_fn.name(), first.grad_fn.name()


@case
def backward_create_graph_implies_retain_graph(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    y = (x * x).sum()
    y.backward(create_graph=True)
    y.backward()
    return values(x.grad)


@case
def grad_variables_is_deprecated(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    lib.autograd.backward([(x * x).sum()], grad_variables=[lib.tensor(2.0, dtype=lib.float64)])
    return x.grad


# ---- higher-order gradients -------------------------------------------------------------------------
@case
def third_derivative_of_x_cubed_is_six(lib):
    (x,) = leaves(lib, 2.0)
    (d1,) = lib.autograd.grad(x ** 3, x, create_graph=True)
    (d2,) = lib.autograd.grad(d1, x, create_graph=True)
    (d3,) = lib.autograd.grad(d2, x)
    return values(d1, d2, d3)


@case
def hessian_vector_product_of_a_small_function(lib):
    x, w = leaves(lib, [0.5, -1.0, 2.0], [1.5, 0.3, -0.7])
    loss = ((x * w).tanh() * x).sum() + (x ** 2 * w).exp().sum() / 10
    (g,) = lib.autograd.grad(loss, x, create_graph=True)
    v = lib.tensor([1.0, -2.0, 0.5], dtype=lib.float64)
    hv = lib.autograd.grad((g * v).sum(), [x, w])
    return values(g, *hv)


@case
def gradients_of_create_graph_false_do_not_require_grad(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    (g,) = lib.autograd.grad((x ** 3).sum(), x)
    return values(g)


# ---- nodes you can call and hook --------------------------------------------------------------------
@case
def calling_nodes_runs_their_backward(lib):
    a, b = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    y = (a * b).sum()
    mul = y.grad_fn.next_functions[0][0]
    with lib.no_grad():
        return y.grad_fn(lib.tensor(1.0, dtype=lib.float64)), mul(lib.ones(2, dtype=lib.float64))


@case
def calling_a_node_with_grad_mode_on_records_the_results(lib):
    a, b = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    mul = (a * b).grad_fn
    return mul(lib.ones(2, dtype=lib.float64))


@case
def calling_accumulate_grad_accumulates(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    acc = (a * 2).grad_fn.next_functions[0][0]
    return acc(lib.ones(2, dtype=lib.float64)), a.grad


def _twice(lib):
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g * 2
    return Twice


@case
def a_custom_functions_node_is_not_callable(lib):
    (a,) = leaves(lib, [1.0])
    _twice(lib).apply(a).grad_fn(lib.ones(1))


@case
def callable_tells_built_in_nodes_from_custom_ones(lib):
    (a,) = leaves(lib, [1.0])
    y, custom = a * 2, _twice(lib).apply(a).grad_fn
    return callable(custom), callable(custom.apply), callable(y.grad_fn), callable(y.grad_fn.next_functions[0][0])


@case
def an_old_style_function_instance_is_a_ctx(lib):
    class Twice(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        f = Twice()
    return ([name in dir(f) for name in ("save_for_backward", "mark_dirty", "set_materialize_grads")],
            f.saved_tensors, f.needs_input_grad, isinstance(f, lib.autograd.function.FunctionCtx))


@case
def my_backward_loop_over_next_functions(lib):
    """A learner's own engine: call each node, follow next_functions (a tree, so no ordering issue)."""
    a, b = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    y = ((a * b).exp() + b).sum()
    grads = {}
    stack = [(y.grad_fn, lib.tensor(1.0, dtype=lib.float64))]
    with lib.no_grad():
        while stack:
            node, g = stack.pop()
            if node.name() == "torch::autograd::AccumulateGrad":
                key = "a" if node.variable is a else "b"
                grads[key] = g if key not in grads else grads[key] + g
                continue
            out = node(g)
            out = out if isinstance(out, tuple) else (out,)
            stack += [(n, gi) for (n, _), gi in zip(node.next_functions, out) if n is not None]
    return grads["a"], grads["b"]


@case
def node_hooks_and_prehooks(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    y = (a * 3).sum()
    seen = []
    h1 = y.grad_fn.register_prehook(lambda go: seen.append(("pre", [g.tolist() for g in go])))
    h2 = y.grad_fn.register_hook(lambda gi, go: seen.append(("post", [g.tolist() for g in gi])))
    mul = y.grad_fn.next_functions[0][0]
    mul.register_hook(lambda gi, go: (gi[0] * 10, None))
    y.backward(retain_graph=True)
    h1.remove(), h2.remove()
    y.backward()
    return seen, a.grad, type(h1).__name__, y.grad_fn.metadata


@case
def prehook_replaces_grad_outputs(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    y = (a * 3).sum()
    y.grad_fn.register_prehook(lambda go: (go[0] * 10,))
    y.backward()
    return a.grad


@case
def hook_returning_a_tensor_not_a_tuple(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    y = (a * 3).sum()
    y.grad_fn.register_hook(lambda gi, go: gi[0])
    y.backward()


@case
def hook_returning_too_many_values(lib):
    (a,) = leaves(lib, [1.0, 2.0])
    y = (a * 3).sum()

    def doubled(grad_inputs, grad_outputs):
        return grad_inputs + grad_inputs
    y.grad_fn.register_hook(doubled)
    y.backward()


# ---- saved tensors ----------------------------------------------------------------------------------
@case
def saved_attributes_by_torchs_names(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    w = lib.tensor([3.0, 4.0], dtype=lib.float64)
    m = x * w
    p = x ** 3
    e = x.exp()
    return (m.grad_fn._saved_other, m.grad_fn._saved_self, p.grad_fn._saved_self, p.grad_fn._saved_exponent,
            e.grad_fn._saved_result)


@case
def saved_attributes_after_backward_are_freed(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    y = x.exp()
    y.sum().backward()
    return y.grad_fn._saved_result


@case
def unknown_saved_attribute(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    return (x * x).grad_fn._saved_nothing


@case
def saved_tensors_hooks_pack_and_unpack(lib):
    x, w = leaves(lib, [1.0, 2.0], [3.0, 4.0])
    log = []

    def pack(t):
        log.append(("pack", list(t.shape)))
        return t.detach().clone()

    def unpack(t):
        log.append(("unpack", list(t.shape)))
        return t
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = (x * w).exp().sum()
    y.backward()
    return log, x.grad, w.grad


@case
def saved_tensors_hooks_in_double_backward(lib):
    (x,) = leaves(lib, [1.0, 2.0])
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t * 1, lambda t: t):
        y = (x * x * x).sum()
    (g,) = lib.autograd.grad(y, x, create_graph=True)
    return values(g, *lib.autograd.grad(g.sum(), x))


# ---- once_differentiable ----------------------------------------------------------------------------
def _cube(lib, once):
    from importlib import import_module
    function = import_module(lib.__name__ + ".autograd.function")

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return 3 * x * x * g

    class Cube(lib.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x * x

    Cube.backward = staticmethod(function.once_differentiable(backward) if once else backward)
    return Cube


@case
def a_backward_in_tensor_ops_is_twice_differentiable(lib):
    (x,) = leaves(lib, 2.0)
    (g,) = lib.autograd.grad(_cube(lib, once=False).apply(x), x, create_graph=True)
    return values(g, *lib.autograd.grad(g, x))


@case
def once_differentiable_then_differentiated_again(lib):
    (x,) = leaves(lib, 2.0)
    y = _cube(lib, once=True).apply(x)
    (g,) = lib.autograd.grad(y * y, x, create_graph=True)
    name = g.grad_fn.name()
    g.backward()
    return name


@case
def once_differentiable_first_order_is_fine(lib):
    (x,) = leaves(lib, 2.0)
    (g,) = lib.autograd.grad(_cube(lib, once=True).apply(x), x, create_graph=True)
    return values(g)


# ---- a backward that changes its grad_output in place (why tutorials clone it) --------------------------
def _relu_without_clone(lib):
    class MyReLU(lib.autograd.Function):
        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return input.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            (input,) = ctx.saved_tensors
            grad_output[input < 0] = 0          # no clone(): writes into a tensor that others may share
            return grad_output
    return MyReLU


@case
def changing_grad_output_in_place_after_sum(lib):
    """grad_output is an expanded tensor here: torch warns, writes the one shared element, and is wrong."""
    x = lib.tensor([-1.0, 2.0], requires_grad=True)
    _relu_without_clone(lib).apply(x).sum().backward()
    return x.grad


@case
def changing_grad_output_in_place_that_another_branch_shares(lib):
    x = lib.tensor([-1.0, 2.0], requires_grad=True)
    y = x * 1
    (_relu_without_clone(lib).apply(y) + y).backward(lib.ones(2))
    return x.grad


@case
def changing_grad_output_in_place_when_it_is_not_shared(lib):
    x = lib.tensor([-1.0, 2.0], requires_grad=True)
    z = _relu_without_clone(lib).apply(x)
    (z * 1 + x * 1).backward(lib.ones(2))
    return x.grad


@case
def an_expanded_gradient_reaches_an_in_place_op_on_a_view(lib):
    """sum's gradient is an expanded (stride-0) tensor; CopySlices must read it as the values it stands for."""
    x = lib.ones(2, 2, requires_grad=True)
    y = x.clone()
    y[0].mul_(2.0)
    y.sum().backward()
    return x.grad


@pytest.mark.parametrize("op", ["add_", "mul_", "fill_", "zero_", "copy_", "clamp_", "setitem_int", "setitem_mask",
                                "setitem_index"])
def test_writing_into_an_expanded_tensor(run_both, op):
    def example(lib):
        x = lib.tensor([1.0, 2.0]).expand(3, 2)
        {"add_": lambda: x.add_(1), "mul_": lambda: x.mul_(2), "fill_": lambda: x.fill_(2), "zero_": x.zero_,
         "copy_": lambda: x.copy_(lib.ones(3, 2)), "clamp_": lambda: x.clamp_(min=1.5),
         "setitem_int": lambda: x.__setitem__(0, 5.0), "setitem_mask": lambda: x.__setitem__(x > 1, 0.0),
         "setitem_index": lambda: x.__setitem__(lib.tensor([0]), 0.0)}[op]()
        return x
    run_both(example)


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])


def grads_batched_gives_one_row_per_vector(lib):
    """is_grads_batched=True: the first dimension of grad_outputs is a batch of vectors (here the identity, so
    the result is the Jacobian); unused inputs give None, or unbatched zeros with materialize_grads."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    z = lib.tensor([3.0], requires_grad=True)
    y = x ** 2
    jac = lib.autograd.grad(y, x, lib.eye(2), is_grads_batched=True, retain_graph=True)
    unused = lib.autograd.grad(y, (x, z), lib.eye(2), is_grads_batched=True, allow_unused=True, retain_graph=True)
    zeros = lib.autograd.grad(y, (x, z), lib.eye(2), is_grads_batched=True, materialize_grads=True,
                              retain_graph=True)
    graph = lib.autograd.grad(y, x, lib.eye(2) * 3, is_grads_batched=True, create_graph=True)
    (second,) = lib.autograd.grad(graph[0].sum(), x)
    two = lib.autograd.grad((x * 2, x.sum()), x, (lib.eye(2), lib.tensor([1.0, -1.0])), is_grads_batched=True)
    # graph[0] detached: torch's node is the batched formula's (MulBackward0), minigrad's the stack of the rows
    return jac, unused, zeros, graph[0].detach(), graph[0].requires_grad, second, two


def grads_batched_frees_the_graph_after_the_last_vector(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp()
    lib.autograd.grad(y, x, lib.eye(2), is_grads_batched=True)
    lib.autograd.grad(y, x, lib.eye(2), is_grads_batched=True)


def grads_batched_needs_a_batch_dimension(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    lib.autograd.grad(x ** 2, x, lib.ones(2), is_grads_batched=True)


def grads_batched_unused_input_without_allow_unused(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    z = lib.tensor([3.0], requires_grad=True)
    lib.autograd.grad(x ** 2, (x, z), lib.eye(2), is_grads_batched=True)


@pytest.mark.parametrize("example", [grads_batched_gives_one_row_per_vector,
                                     grads_batched_frees_the_graph_after_the_last_vector,
                                     grads_batched_needs_a_batch_dimension,
                                     grads_batched_unused_input_without_allow_unused])
def test_is_grads_batched(parity, example):
    parity(example)

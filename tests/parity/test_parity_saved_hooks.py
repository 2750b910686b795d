"""The saved-tensor family and the hooks PyTorch 2.x added around backward, on both libraries: `save_on_cpu`,
`disable_saved_tensors_hooks`, `grad_fn._raw_saved_*.register_hooks`, `register_multi_grad_hook` (all / any,
with `inputs=` and `autograd.grad`), `Tensor.register_post_accumulate_grad_hook`, and the order of every kind
of hook on one graph."""
import importlib

import pytest


def save_on_cpu_gives_the_same_gradients(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    with lib.autograd.graph.save_on_cpu():
        y = (x * x).exp()
    saved_is_output = y.grad_fn._saved_result is y
    y.sum().backward()
    with lib.autograd.graph.save_on_cpu(pin_memory=True):
        z = (x * 3).sin()
    z.sum().backward()
    return saved_is_output, x.grad


def disable_saved_tensors_hooks_refuses_them(lib):
    seen = []
    with lib.autograd.graph.disable_saved_tensors_hooks("saved tensors must stay as they are here"):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        x.exp().sum().backward()            # saving without hooks is fine
        seen.append(x.grad)
        try:
            with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                seen.append("entered")
        except RuntimeError as e:
            seen.append(str(e))
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):   # enabled again after it
        seen.append(lib.tensor([1.0], requires_grad=True).exp().grad_fn.name())
    return seen


def disable_inside_active_hooks_raises(lib):
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        with lib.autograd.graph.disable_saved_tensors_hooks("not while hooks are active"):
            pass


def raw_saved_register_hooks(lib):
    log = []

    def pack(t):
        log.append(("pack", t.tolist()))
        return t.tolist()

    def unpack(p):
        log.append(("unpack", p))
        return lib.tensor(p)
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(pack, unpack)
    log.append(y.grad_fn._saved_self)
    y.sum().backward()
    return log, x.grad


def raw_saved_hooks_see_a_detached_tensor(lib):
    """A saved input or output given hooks after it was saved reaches pack without grad_fn or requires_grad (the
    same memory and version), and unpack gets what pack returned; saved_tensors_hooks' pack gets the tensor itself."""
    seen = []
    x = lib.tensor([1.0, 2.0], requires_grad=True)

    def pack(t):
        seen.append(("pack", t.requires_grad, t.grad_fn is None, t._version, t.data_ptr() == x.data_ptr()))
        return t

    def unpack(t):
        seen.append(("unpack", t.requires_grad, t.grad_fn is None))
        return t
    y = x.sin()
    y.grad_fn._raw_saved_self.register_hooks(pack, unpack)
    e = x.exp()
    e.grad_fn._raw_saved_result.register_hooks(pack, unpack)
    read = y.grad_fn._saved_self
    seen.append(("read", read.requires_grad, read.grad_fn is None, read is x))
    (y + e).sum().backward()
    with lib.autograd.graph.saved_tensors_hooks(pack, unpack):
        x.exp()
    return seen, x.grad


def raw_saved_register_hooks_twice(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    raw = x.pow(2).grad_fn._raw_saved_self
    raw.register_hooks(lambda t: t, lambda t: t)
    raw.register_hooks(lambda t: t, lambda t: t)


def raw_saved_register_hooks_after_free(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    y.sum().backward()
    y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def raw_saved_register_hooks_on_none(lib):
    m = lib.tensor([1.0, 2.0], requires_grad=True) * lib.tensor([3.0, 4.0])
    return m.grad_fn._saved_self, m.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)


def raw_saved_register_hooks_on_saved_under_hooks(lib):
    with lib.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = lib.tensor([1.0], requires_grad=True).exp()
    y.grad_fn._raw_saved_result.register_hooks(lambda t: t, lambda t: t)


def raw_saved_unpack_must_give_a_tensor(lib):
    x = lib.tensor([1.0], requires_grad=True)
    z = x.exp()
    z.grad_fn._raw_saved_result.register_hooks(lambda t: 5, lambda p: p)
    z.sum().backward()


def raw_saved_register_hooks_needs_two_callables(lib):
    x = lib.tensor([1.0], requires_grad=True)
    x.exp().grad_fn._raw_saved_result.register_hooks(1, 2)


def multi_grad_hook_all(lib):
    """PyTorch's docstring example: None for the tensors a pass does not reach (or `inputs=` leaves out)."""
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    c = a * b
    d = a * b
    calls = []
    lib.autograd.graph.register_multi_grad_hook((a, b, c, d), lambda grads: calls.append(
        [None if g is None else g.tolist() for g in grads]))
    c.sum().backward(retain_graph=True)
    c.sum().backward(inputs=(a,), retain_graph=True)
    return calls


def multi_grad_hook_all_in_autograd_grad(lib):
    """Under autograd.grad, the non-leaf tensors count; a leaf among them is refused (torch 2.13: "not supported")."""
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b, c = a * 2, a * 3
    calls = []
    lib.autograd.graph.register_multi_grad_hook((b, c), lambda grads: calls.append(
        [None if g is None else g.tolist() for g in grads]))
    lib.autograd.grad((b * c).sum(), (b, c))
    lib.autograd.grad((b * 5).sum(), b)
    lib.autograd.graph.register_multi_grad_hook((a, b), print)
    lib.autograd.grad((b * 5).sum(), b)            # a is not captured: it does not count
    try:
        lib.autograd.grad((b * 5).sum(), (a, b))
    except RuntimeError as e:
        calls.append(str(e))
    return calls


def multi_grad_hook_any_and_remove(lib):
    a = lib.tensor([1.0, 2.0], requires_grad=True)
    b = lib.tensor([3.0, 4.0], requires_grad=True)
    calls = []
    handle = lib.autograd.graph.register_multi_grad_hook((a, b), lambda g: calls.append(g.tolist()), mode="any")
    (a * 2 + b * 3).sum().backward()
    (a * 5).sum().backward()
    handle.remove()
    (a * 7 + b).sum().backward()
    return calls


def multi_grad_hook_bad_mode(lib):
    lib.autograd.graph.register_multi_grad_hook((lib.tensor([1.0], requires_grad=True),), print, mode="every")


def multi_grad_hook_all_on_a_tensor_without_grad(lib):
    lib.autograd.graph.register_multi_grad_hook((lib.tensor([1.0]),), print)


def post_accumulate_grad_hook_and_the_order_of_hooks(lib):
    """Tensor hook, node pre-hook, accumulation, post-accumulate hook, node post-hook: torch's order."""
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    log = []
    x.register_hook(lambda g: log.append(("tensor hook", g.tolist())))
    x.register_post_accumulate_grad_hook(lambda t: log.append(("post accumulate", t.grad.tolist(), t is x)))
    y = x * 1
    acc = y.grad_fn.next_functions[0][0]
    acc.register_prehook(lambda go: log.append(("node pre-hook", go[0].tolist())))
    acc.register_hook(lambda gi, go: log.append(("node hook", gi, go[0].tolist())))
    y.register_hook(lambda g: log.append(("y hook", g.tolist())))
    y.grad_fn.register_prehook(lambda go: log.append(("y node pre-hook", go[0].tolist())))
    y.grad_fn.register_hook(lambda gi, go: log.append(("y node hook", [None if g is None else g.tolist() for g in gi])))
    (y * 3).sum().backward(retain_graph=True)
    (y * 3).sum().backward()
    lib.autograd.grad((x * 3).sum(), x)         # autograd.grad accumulates nothing: no post-accumulate call
    return log


def every_kind_of_hook_in_torchs_order(lib):
    """On one small net: module full backward pre-hooks and hooks, tensor hooks (registered before and after
    retain_grad, which runs after them whatever the order), node pre-hooks and hooks, leaf hooks,
    post-accumulate hooks and a multi-grad hook, each logging when it runs."""
    graph = importlib.import_module(lib.__name__ + ".autograd.graph")
    lib.manual_seed(0)
    net = lib.nn.Sequential(lib.nn.Linear(3, 2), lib.nn.Tanh(), lib.nn.Linear(2, 1))
    log = []
    for name, module in net.named_children():
        module.register_full_backward_pre_hook(lambda m, go, name=name: log.append(("module pre-hook", name)))
        module.register_full_backward_hook(
            lambda m, gi, go, name=name: log.append(("module hook", name, [g is None for g in gi])))
    w1, w2 = net[0].weight, net[2].weight
    w1.register_hook(lambda g: log.append(("leaf hook w1", g.shape)))
    w1.register_post_accumulate_grad_hook(lambda p: log.append(("post accumulate w1", p.grad is not None)))
    w2.register_post_accumulate_grad_hook(lambda p: log.append(("post accumulate w2", p.grad is not None)))
    graph.register_multi_grad_hook((w1, w2), lambda grads: log.append(("multi-grad hook", len(grads))))
    x = lib.ones(4, 3)
    h = net[0](x)
    h.register_hook(lambda g: log.append(("h hook before retain_grad", h.grad is None)))
    h.retain_grad()
    h.register_hook(lambda g: log.append(("h hook after retain_grad", h.grad is None)))
    h.grad_fn.register_prehook(lambda go: log.append(("h node pre-hook",)))
    h.grad_fn.register_hook(lambda gi, go: log.append(("h node hook", len(gi))))
    out = net[2](net[1](h)).sum()
    out.backward()
    log.append(("h.grad", h.grad.shape))
    return log


def full_backward_hook_warns_from_the_line_that_called_backward(lib):
    """No input requires grad: the warning names the caller's line (torch's engine is C++), so two backward calls
    on two lines warn twice under the default filter, each from this file."""
    import warnings
    net = lib.nn.Linear(3, 2)
    net.register_full_backward_hook(lambda m, gi, go: None)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        net(lib.ones(4, 3)).sum().backward()
        net(lib.ones(4, 3)).sum().backward()
    return [(w.filename == __file__, w.category.__name__, str(w.message)[:60]) for w in caught]


def post_accumulate_grad_hook_as_an_optimizer_step(lib):
    """The pattern of PyTorch's "optimizer step in backward" tutorial: each parameter steps once its .grad is
    complete, then drops it."""
    lib.manual_seed(0)
    model = lib.nn.Linear(3, 2)
    def step(p):
        with lib.no_grad():
            p.sub_(0.1 * p.grad)
        p.grad = None
    for p in model.parameters():
        p.register_post_accumulate_grad_hook(step)
    model(lib.ones(4, 3)).pow(2).sum().backward()
    return model.weight, model.bias, model.weight.grad


def post_accumulate_grad_hook_errors(lib):
    x = lib.tensor([1.0, 2.0], requires_grad=True)
    seen = []
    for call in (lambda: (x * 2).register_post_accumulate_grad_hook(print),
                 lambda: lib.tensor([1.0]).register_post_accumulate_grad_hook(print)):
        try:
            call()
        except RuntimeError as e:
            seen.append(str(e))
    handle = x.register_post_accumulate_grad_hook(lambda t: 5)
    try:
        (x * 3).sum().backward()
    except TypeError as e:
        seen.append(str(e))
    handle.remove()
    x.register_post_accumulate_grad_hook(lambda t: t.grad.zero_())
    (x * 3).sum().backward()


CASES = [save_on_cpu_gives_the_same_gradients, disable_saved_tensors_hooks_refuses_them,
         disable_inside_active_hooks_raises, raw_saved_register_hooks, raw_saved_hooks_see_a_detached_tensor,
         raw_saved_register_hooks_twice,
         raw_saved_register_hooks_after_free, raw_saved_register_hooks_on_none,
         raw_saved_register_hooks_on_saved_under_hooks, raw_saved_unpack_must_give_a_tensor,
         raw_saved_register_hooks_needs_two_callables, multi_grad_hook_all, multi_grad_hook_all_in_autograd_grad,
         multi_grad_hook_any_and_remove,
         multi_grad_hook_bad_mode, multi_grad_hook_all_on_a_tensor_without_grad,
         post_accumulate_grad_hook_and_the_order_of_hooks, every_kind_of_hook_in_torchs_order,
         post_accumulate_grad_hook_as_an_optimizer_step, full_backward_hook_warns_from_the_line_that_called_backward,
         post_accumulate_grad_hook_errors]


@pytest.mark.parametrize("example", CASES, ids=[c.__name__ for c in CASES])
def test_saved_tensors_and_hooks(parity, example):
    parity(example)



# ---- allow_mutation_on_saved_tensors -------------------------------------------------------------------------
def allow_mutation(lib):
    return importlib.import_module(lib.__name__ + ".autograd.graph").allow_mutation_on_saved_tensors


def mutation_docs_example(lib):
    """The docstring's example: b changes after PowBackward0 saved it, and backward still uses the original b."""
    with allow_mutation(lib)():
        a = lib.ones(2, 3, requires_grad=True)
        b = a.clone()
        out = (b ** 2).sum()
        b.sin_()
        out.backward()
        return a.grad, b


def mutation_without_the_context(lib):
    b = lib.ones(2, requires_grad=True).clone()
    out = (b ** 2).sum()
    b.sin_()
    out.backward()


def mutation_backward_outside_it(lib):
    with allow_mutation(lib)():
        out = (lib.ones(2, requires_grad=True).clone() ** 2).sum()
    out.backward()


def mutation_nested(lib):
    with allow_mutation(lib)():
        with allow_mutation(lib)():
            pass


def mutation_of_a_view_and_its_base(lib):
    """PyTorch knows a saved tensor's memory by its start address: the view b[1:] starts elsewhere, so b.mul_
    does not clone it (its code calls that "almost definitely a bug"), and backward sees the new values."""
    with allow_mutation(lib)():
        a = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = a.clone()
        v = b[1:]
        out = (v * v).sum() + b.exp().sum()
        b.mul_(10)
        v.add_(1)
        out.backward()
        return a.grad


def mutation_under_no_grad(lib):
    with allow_mutation(lib)():
        a = lib.tensor([1.0, 2.0], requires_grad=True)
        b = a * 2
        out = (b * b).sum()
        with lib.no_grad():
            b.zero_()
        out.backward()
        return a.grad, b


@pytest.mark.parametrize("example", [mutation_docs_example, mutation_without_the_context,
                                     mutation_backward_outside_it, mutation_nested, mutation_of_a_view_and_its_base,
                                     mutation_under_no_grad], ids=lambda f: f.__name__)
def test_allow_mutation_on_saved_tensors(parity, example):
    parity(example)

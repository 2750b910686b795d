"""What `torch.func.vmap` refuses, refused alike: reading a sample's value in Python, data-dependent shapes, an
in-place write of a sample into an unbatched tensor, `requires_grad_()` inside a transform; and `in_dims` /
`out_dims` as pytrees, with torch's structure errors. minigrad's vmap is a loop over the samples, so each refusal
here is minigrad tracking which tensors hold a sample (minigrad/compat/batched.py); the cases that must still
run (unbatched values, indices, in-place on the sample itself) are here too."""
import importlib
import warnings

import pytest

try:        # torch.func warns once per process from inside torch (torch.jit.script is deprecated): not in a case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import torch.func
        torch.func.vmap(lambda t: t * 2)(torch.ones(2, 2))
except ImportError:
    pass


def vmap(lib, f, *args, **kwargs):
    return importlib.import_module(lib.__name__ + ".func").vmap(f, **kwargs)(*args)


def x(lib):
    return lib.arange(6.0).reshape(3, 2)


def _set(t, index, value):
    t[index] = value
    return t


READS = {
    "item": lambda lib: vmap(lib, lambda t: t.sum().item(), x(lib)),
    "float": lambda lib: vmap(lib, lambda t: float(t.sum()), x(lib)),
    "int": lambda lib: vmap(lib, lambda t: int(t.sum()), x(lib)),
    "if_on_a_value": lambda lib: vmap(lib, lambda t: t if t.sum() > 0 else -t, x(lib)),
    "if_on_any": lambda lib: vmap(lib, lambda t: t if (t > 4).any() else -t, x(lib)),
    "if_on_a_detached_value": lambda lib: vmap(lib, lambda t: t if t.detach().sum() > 0 else -t, x(lib)),
    "tolist": lambda lib: vmap(lib, lambda t: t.tolist(), x(lib)),
    "numpy": lambda lib: vmap(lib, lambda t: t.numpy(), x(lib)),
    "data_ptr": lambda lib: vmap(lib, lambda t: t.data_ptr(), x(lib)),
    "tensor_of_a_list_of_samples": lambda lib: vmap(lib, lambda t: lib.tensor([t[0], t[1]]), x(lib)),
    "python_index": lambda lib: vmap(lib, lambda t: lib.ones(5)[int(t[0])], x(lib)),
    "range_of_a_sample": lambda lib: vmap(lib, lambda t: lib.tensor(list(range(t.long()[1]))), x(lib)),
    "format": lambda lib: vmap(lib, lambda t: f"{t.sum():.2f}", x(lib), out_dims=None),
    "nested_item": lambda lib: vmap(lib, lambda t: vmap(lib, lambda u: u.item() * u)(t), x(lib)),
    "allclose": lambda lib: vmap(lib, lambda t: lib.allclose(t, t), x(lib)),
    "equal": lambda lib: vmap(lib, lambda t: lib.equal(t, t), x(lib)),
    # what runs: values that are not batched, a sample as an index, comparisons kept as tensors
    "item_of_an_unbatched_tensor": lambda lib: vmap(lib, lambda t: t * lib.ones(2).sum().item(), x(lib)),
    "if_on_an_unbatched_value": lambda lib: vmap(lib, lambda t: t * 2 if lib.ones(2).sum() > 0 else t, x(lib)),
    "numpy_of_an_unbatched_tensor": lambda lib: vmap(lib, lambda t: t + float(lib.ones(2).numpy().sum()), x(lib)),
    "a_sample_as_an_index": lambda lib: vmap(lib, lambda t: lib.arange(5.0)[t.long()[1]], x(lib)),
    "comparisons_stay_tensors": lambda lib: vmap(lib, lambda t: ((t > 1) & (t < 5)).float(), x(lib)),
    "a_shape_is_not_a_value": lambda lib: vmap(lib, lambda t: t * t.shape[0] * t.numel(), x(lib)),
}

SHAPES = {
    "nonzero": lambda lib: vmap(lib, lambda t: t.nonzero(), x(lib)),
    "nonzero_as_tuple": lambda lib: vmap(lib, lambda t: lib.nonzero(t, as_tuple=True)[0], x(lib)),
    "where_of_a_condition": lambda lib: vmap(lib, lambda t: lib.where(t > 1)[0], x(lib)),
    "a_sample_as_a_mask": lambda lib: vmap(lib, lambda t: t[t > 1], x(lib)),
    "a_sample_as_a_mask_of_another_tensor": lambda lib: vmap(lib, lambda t: lib.ones(2)[t > 1], x(lib)),
    "writing_through_a_sample_mask": lambda lib: vmap(lib, lambda t: _set(t, t > 1, 0.0), x(lib).clone()),
    "an_unbatched_mask": lambda lib: vmap(lib, lambda t: t[lib.tensor([True, False])], x(lib)),
    "where_with_a_sample_condition": lambda lib: vmap(lib, lambda t: lib.where(t > 1, t, -t), x(lib)),
    "masked_fill_with_a_sample_mask": lambda lib: vmap(lib, lambda t: lib.zeros(2).masked_fill(t > 1, 1.0), x(lib)),
}


def _into_unbatched(op):
    def example(lib):
        buf = lib.zeros(2)
        return vmap(lib, lambda t: op(lib, buf, t), x(lib))
    return example


INPLACE = {
    "add_": _into_unbatched(lambda lib, buf, t: buf.add_(t)),
    "iadd": _into_unbatched(lambda lib, buf, t: buf.__iadd__(t)),
    "sub_": _into_unbatched(lambda lib, buf, t: buf.sub_(t)),
    "mul_": _into_unbatched(lambda lib, buf, t: buf.mul_(t)),
    "imul": _into_unbatched(lambda lib, buf, t: buf.__imul__(t)),
    "div_": _into_unbatched(lambda lib, buf, t: buf.div_(t)),
    "copy_": _into_unbatched(lambda lib, buf, t: buf.copy_(t)),
    "fill_": _into_unbatched(lambda lib, buf, t: buf.fill_(t[0])),
    "masked_fill_": _into_unbatched(lambda lib, buf, t: buf.masked_fill_(t > 1, 0.0)),
    "index_add_": _into_unbatched(lambda lib, buf, t: buf.index_add_(0, lib.tensor([0, 1]), t)),
    "scatter_add_": _into_unbatched(lambda lib, buf, t: buf.scatter_add_(0, lib.tensor([0, 1]), t)),
    "setitem": _into_unbatched(lambda lib, buf, t: _set(buf, 0, t[0])),
    "setitem_advanced": _into_unbatched(lambda lib, buf, t: _set(buf, lib.tensor([0]), t[:1])),
    "setitem_at_a_sample_index": _into_unbatched(lambda lib, buf, t: _set(buf, t.long()[:1], 1.0)),
    "through_a_view": _into_unbatched(lambda lib, buf, t: buf[0:1].mul_(t[0])),
    "add_into_a_0d_tensor": lambda lib: vmap(lib, lambda t: lib.zeros(()).add_(t[0]), x(lib)),
    "add_with_broadcasting": lambda lib: vmap(lib, lambda t: lib.zeros(2, 2).add_(t), x(lib)),
    "add_at_the_inner_level": lambda lib: vmap(lib, lambda t: vmap(lib, lambda u: t.add_(u))(lib.ones(4, 2)),
                                               x(lib).clone()),
    "mul_at_the_inner_level": lambda lib: vmap(lib, lambda t: vmap(lib, lambda u: t.mul_(u))(lib.ones(4, 2)),
                                               x(lib).clone()),
    # what runs: in place on the sample itself, by anything; on an unbatched tensor by unbatched values (once)
    "in_place_on_the_sample": lambda lib: vmap(lib, lambda t: t.mul_(2).add_(lib.ones(2)), x(lib).clone()),
    "setitem_on_the_sample": lambda lib: vmap(lib, lambda t: _set(t, 0, 7.0), x(lib).clone()),
    "fill_the_sample_with_its_value": lambda lib: vmap(lib, lambda t: t.fill_(t[1]), x(lib).clone()),
    "a_fresh_tensor_per_sample": lambda lib: vmap(lib, lambda t: lib.zeros(2).add_(1.0) + t, x(lib)),
    "unbatched_by_unbatched_one_sample": lambda lib: (lambda buf: (vmap(lib, lambda t: buf.add_(1.0) + t, x(lib)[:1]),
                                                                   buf))(lib.zeros(2)),
    "detach__of_a_view": lambda lib: x(lib)[0].detach_(),
}


def _requires_grad_in(transform):
    def example(lib):
        F = importlib.import_module(lib.__name__ + ".func")
        f = lambda u: (u * lib.ones(2).requires_grad_()).sum()      # noqa: E731
        if transform == "vmap":
            return F.vmap(f)(x(lib))
        if transform == "jvp":
            return F.jvp(f, (x(lib)[0],), (x(lib)[0],))
        return F.grad(f)(x(lib)[0])
    return example


TRANSFORMS = {
    "requires_grad__in_grad": _requires_grad_in("grad"),
    "requires_grad__in_vmap": _requires_grad_in("vmap"),
    "requires_grad__in_jvp": _requires_grad_in("jvp"),
    "requires_grad_attribute_in_grad": lambda lib: importlib.import_module(lib.__name__ + ".func").grad(
        lambda u: (u * lib.ones(2, requires_grad=True)).sum())(x(lib)[0]),
    "item_in_grad": lambda lib: importlib.import_module(lib.__name__ + ".func").grad(
        lambda u: u.sum().item() * u.sum())(x(lib)[0]),
}


def pair(lib):
    return {"a": x(lib), "b": lib.ones(2)}


DIMS = {
    "dict_in_dims": lambda lib: vmap(lib, lambda d: d["a"] * d["b"], pair(lib), in_dims=({"a": 0, "b": None},)),
    "dict_in_dims_any_order": lambda lib: vmap(lib, lambda d: d["a"] + d["b"], {"a": x(lib), "b": x(lib)},
                                               in_dims=({"b": 0, "a": None},)),
    "nested_in_dims": lambda lib: vmap(lib, lambda p: p[0] * p[1][0], (x(lib), (x(lib),)), in_dims=((0, (None,)),)),
    "an_int_for_a_list": lambda lib: vmap(lib, lambda lst: lst[0] + lst[1], [x(lib), x(lib)], in_dims=(0,)),
    "dict_keys_differ": lambda lib: vmap(lib, lambda d: d["a"], {"a": x(lib)}, in_dims=({"b": 0},)),
    "dict_missing_a_key": lambda lib: vmap(lib, lambda d: d["a"], {"a": x(lib), "b": None}, in_dims=({"a": 0},)),
    "list_too_short": lambda lib: vmap(lib, lambda d: d[0], [x(lib), x(lib)], in_dims=([0],)),
    "tuple_for_a_list": lambda lib: vmap(lib, lambda p: p[0], [x(lib)], in_dims=((0,),)),
    "too_many_in_dims": lambda lib: vmap(lib, lambda a, b: a, x(lib), x(lib), in_dims=(0, None, 0)),
    "deep_mismatch": lambda lib: vmap(lib, lambda p: p, (x(lib), (x(lib), x(lib))), in_dims=((0, (0,)),)),
    "in_dims_a_list": lambda lib: vmap(lib, lambda a, b: a + b, x(lib), x(lib), in_dims=[0, 1]),
    "in_dims_a_dict": lambda lib: vmap(lib, lambda a: a, x(lib), in_dims={"a": 0}),
    "in_dims_none": lambda lib: vmap(lib, lambda a: a, x(lib), in_dims=None),
    "in_dim_a_float": lambda lib: vmap(lib, lambda a: a, x(lib), in_dims=(0.5,)),
    "in_dim_a_string_in_a_dict": lambda lib: vmap(lib, lambda d: d["a"], {"a": x(lib)}, in_dims=({"a": "x"},)),
    "in_dim_for_a_number": lambda lib: vmap(lib, lambda d: d["a"] * d["n"], {"a": x(lib), "n": 2.0},
                                            in_dims=({"a": 0, "n": 0},)),
    "in_dim_for_none": lambda lib: vmap(lib, lambda a, b: a, x(lib), None, in_dims=(0, 0)),
    "nothing_batched": lambda lib: vmap(lib, lambda a: a, x(lib), in_dims=(None,)),
    "no_inputs": lambda lib: vmap(lib, lambda: lib.ones(2)),
    "out_dims_tuple_for_one_tensor": lambda lib: vmap(lib, lambda a: a, x(lib), out_dims=(0,)),
    "out_dims_dict": lambda lib: vmap(lib, lambda a: {"p": a, "q": a}, x(lib), out_dims={"p": 0, "q": 1}),
    "out_dims_too_many": lambda lib: vmap(lib, lambda a: (a, a), x(lib), out_dims=(0, 1, 2)),
    "out_dims_a_list": lambda lib: vmap(lib, lambda a: (a, a), x(lib), out_dims=[0, 1]),
    "out_dims_a_string": lambda lib: vmap(lib, lambda a: a, x(lib), out_dims="a"),
    "out_dims_a_float": lambda lib: vmap(lib, lambda a: a, x(lib), out_dims=0.5),
    "out_dim_out_of_range": lambda lib: vmap(lib, lambda a: a, x(lib), out_dims=3),
    "out_dim_none_for_a_number": lambda lib: vmap(lib, lambda a: (a, 3), x(lib), out_dims=(0, None)),
    "out_dim_none_for_a_sample": lambda lib: vmap(lib, lambda a: a * 2, x(lib), out_dims=None),
    "out_dim_none_for_an_unbatched_tensor": lambda lib: vmap(lib, lambda a: (a, lib.ones(2)), x(lib),
                                                             out_dims=(0, None)),
}

CASES = {**READS, **SHAPES, **INPLACE, **TRANSFORMS, **DIMS}


@pytest.mark.parametrize("name", list(CASES))
def test_vmap_refuses_what_torch_refuses(parity, name):
    parity(CASES[name])


def test_a_repeated_unbatched_write_warns():
    """On minigrad alone: an in-place change of an unbatched tensor by unbatched values runs once per sample in the
    loop (PyTorch runs it once), and minigrad says so instead of silently changing the tensor three times."""
    import minigrad
    buf = minigrad.zeros(2)
    with pytest.warns(UserWarning, match="ran again for sample 2 of 3") as caught:
        minigrad.func.vmap(lambda t: buf.add_(1.0) + t)(minigrad.ones(3, 2))
    assert len(caught) == 1 and caught[0].filename == __file__
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # a fresh tensor per sample changes once per sample: nothing to say
        minigrad.func.vmap(lambda t: minigrad.zeros(2).add_(1.0) + t)(minigrad.ones(3, 2))


def test_marks_do_not_outlive_their_vmap():
    """On minigrad alone: a vmap's result, captured by a later vmap as an unbatched value, reads as usual."""
    import minigrad
    first = minigrad.func.vmap(lambda t: t * 2)(minigrad.ones(3, 2))
    assert minigrad.func.vmap(lambda t: t * first.sum().item())(minigrad.ones(2, 2)).tolist() == [[12.0] * 2] * 2

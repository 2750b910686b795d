"""Parity of Tensor basics: exact reprs, dtypes and Size, type promotion, in-place ops with version counters,
and __setitem__ with boolean masks (``grad_input[x < 0] = 0``)."""
import pytest

REPRS = {
    "float_1d": lambda lib: lib.tensor([1.0, 2.0, 3.0]),
    "float_1d_negative": lambda lib: lib.tensor([1.0, -2.0]),
    "float_fractions": lambda lib: lib.tensor([0.5, 1.25]),
    "float_seed_values": lambda lib: lib.tensor([-1.8688, -0.0540, -0.6364, -0.9364, 1.2601]),
    "float_0d": lambda lib: lib.tensor(3.5),
    "float_0d_integral": lambda lib: lib.tensor(2.0),
    "float_2d": lambda lib: lib.tensor([[1.0, -2.0], [3.0, 4.0]]),
    "float_3d": lambda lib: lib.tensor([[[0.0, 1.0], [2.0, 3.0]], [[4.0, 5.0], [6.0, 7.0]]]),
    "float_column": lambda lib: lib.tensor([[1.0], [2.0]]),
    "float_large_integral": lambda lib: lib.tensor([1000.0, -2000.0]),
    "float_scientific_large": lambda lib: lib.tensor([1e5, 2.0]),
    "float_scientific_mixed": lambda lib: lib.tensor([12345.678, 1.5]),
    "float_scientific_small": lambda lib: lib.tensor([1e-5, 1.0]),
    "float_scientific_negative": lambda lib: lib.tensor([123.456, -0.001]),
    "float_nan_inf": lambda lib: lib.tensor([float("nan"), 1.0, float("inf"), -float("inf")]),
    "float_negative_zero": lambda lib: lib.tensor([-0.0, 0.0]),
    "float_wraps_long_rows": lambda lib: lib.tensor([i * 1.5 for i in range(12)]),
    "float_empty": lambda lib: lib.tensor([]),
    "float64": lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64),
    "float64_0d": lambda lib: lib.tensor(1.5, dtype=lib.float64),
    "int_1d": lambda lib: lib.tensor([1, 2, 3]),
    "int_negative_widths": lambda lib: lib.tensor([-10, 2, 300]),
    "int_2d": lambda lib: lib.tensor([[1, 2], [3, 4]]),
    "int_0d": lambda lib: lib.tensor(7),
    "int_empty": lambda lib: lib.tensor([], dtype=lib.int64),
    "int_as_float": lambda lib: lib.tensor([1, 2], dtype=lib.float32),
    "bool_1d": lambda lib: lib.tensor([True, False]),
    "bool_2d": lambda lib: lib.tensor([[True], [False]]),
    "bool_0d": lambda lib: lib.tensor(True),
    "requires_grad": lambda lib: lib.tensor([1.0, 2.0], requires_grad=True),
    "requires_grad_0d": lambda lib: lib.tensor(1.0, requires_grad=True),
    "requires_grad_float64": lambda lib: lib.tensor([1.5, 2.0], dtype=lib.float64, requires_grad=True),
    "grad_fn": lambda lib: lib.tensor([1.0, -2.0], requires_grad=True) * 2,
    "grad_fn_2d": lambda lib: lib.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True) + 1,
    "grad_fn_fits_on_the_line": lambda lib: lib.tensor([-1.8688, -0.054, -0.6364, -0.9364, 1.2601],
                                                       requires_grad=True).clamp(min=0),
    "grad_fn_wraps_to_the_next_line": lambda lib: lib.tensor([-1.8688, -0.054, -0.6364, -0.9364, 1.2601, 2.5],
                                                             requires_grad=True) * 1,
    "grad_fn_float64_2d": lambda lib: lib.tensor([[1.0, -2.0], [0.5, 4.0]], dtype=lib.float64,
                                                 requires_grad=True) * 1,
    "float64_and_grad_fn_wrap": lambda lib: lib.tensor([1.0, -2.0, 3.0, 0.5, 4.0, -1.0], requires_grad=True).double(),
    "zeros": lambda lib: lib.zeros(2, 3),
    "ones_long": lambda lib: lib.ones(2, dtype=lib.long),
    "arange": lambda lib: lib.arange(5),
    "arange_float_step": lambda lib: lib.arange(0.0, 1.0, 0.25),
    "linspace": lambda lib: lib.linspace(-3, 3, steps=5),
}


@pytest.mark.parametrize("name", list(REPRS))
def test_repr(run_both, name):
    run_both(lambda lib: (repr(REPRS[name](lib)), str(REPRS[name](lib)), REPRS[name](lib)))


CASES = {
    # torch.Tensor(2, 3): the legacy constructor takes sizes too (its values are PyTorch's uninitialized memory,
    # so only the shape and dtype are compared); a float is torch's TypeError
    "legacy_constructor_sizes": lambda lib: [(t.shape, t.dtype) for t in (
        lib.Tensor(2, 3), lib.Tensor(0), lib.Tensor(lib.Size([2, 1])), lib.Tensor(), lib.Tensor([1, 2]))],
    "legacy_constructor_float": lambda lib: lib.Tensor(2.5),
    "stride": lambda lib: (lib.zeros(2, 3).stride(), lib.zeros(2, 3).stride(1), lib.zeros(2, 3).stride(-2),
                           lib.zeros(2, 3).t().stride(), lib.ones(3).expand(2, 3).stride(),
                           lib.ones(3).expand(2, 3).clone().stride(), lib.tensor(1.0).stride()),
    "stride_out_of_range": lambda lib: lib.zeros(2, 3).stride(2),
    "size_out_of_range": lambda lib: lib.zeros(2, 3).size(-3),
    "size_of_a_0d_tensor": lambda lib: lib.tensor(1.0).size(0),
    "clone_of_expanded_is_dense": lambda lib: lib.ones(3).expand(2, 3).clone().add_(1).tolist(),
    "clone_keeps_a_permuted_layout": lambda lib: [
        (c.stride(), c.is_contiguous())
        for c in (lib.zeros(3, 4).t().clone(), lib.zeros(2, 3, 4).permute(2, 0, 1).clone(),
                  lib.zeros(3, 4).t()[::2].clone(), lib.zeros(1, 3).expand(4, 3).t().clone(),
                  lib.zeros(3, 4)[:, ::2].clone())],
    "permute_without_dims": lambda lib: lib.ones(2, 3).permute(),
    "size_reprs": lambda lib: (repr(lib.Size([2, 3])), str(lib.Size([2, 3])), repr(lib.Size([])),
                               repr(lib.zeros(2, 3).shape), repr(lib.tensor(1.0).shape)),
    "size_is_a_tuple": lambda lib: (lib.Size([2, 3]) == (2, 3), isinstance(lib.Size([2, 3]), tuple),
                                    lib.zeros(2, 3).size(), lib.zeros(2, 3).size(1), lib.zeros(2, 3).size(-1)),
    "dtype_reprs": lambda lib: [(repr(d), str(d)) for d in (lib.float32, lib.float64, lib.int64, lib.bool)],
    "dtype_aliases": lambda lib: (lib.float is lib.float32, lib.double is lib.float64, lib.long is lib.int64),
    "default_dtypes": lambda lib: (lib.tensor([1, 2]).dtype, lib.tensor([1.0]).dtype, lib.tensor([True]).dtype,
                                   lib.tensor(1).dtype, lib.tensor([1, 2.0]).dtype, lib.zeros(1).dtype),
    "promotion": lambda lib: ((lib.tensor([1, 2]) / 2).dtype, (lib.tensor([1, 2]) * 2.5).dtype,
                              (lib.tensor([1, 2]) + lib.tensor([1.0], dtype=lib.float64)).dtype,
                              (lib.tensor([1.0]) + lib.tensor([1.0], dtype=lib.float64)).dtype,
                              (lib.tensor([1.0]) * 2).dtype, (lib.tensor([1, 2]) * 2).dtype),
    "int_divided_is_float": lambda lib: lib.tensor([1, 2]) / 2,
    "accessors": lambda lib: (lib.tensor([1.0, 2.0]).numel(), lib.zeros(2, 3).dim(), lib.tensor(3.5).item(),
                              lib.tensor(3).item(), lib.tensor([[1, 2]]).tolist(), lib.tensor(2.0).tolist(),
                              lib.tensor([True]).tolist()),
    "numpy": lambda lib: lib.tensor([1.5, 2.0]).numpy(),
    "numpy_of_requires_grad": lambda lib: lib.tensor([1.5], requires_grad=True).numpy(),
    "print": lambda lib: print(lib.tensor([1.0, 2.0]), lib.tensor([1.0], requires_grad=True), lib.Size([2])),
}


# In-place ops return the tensor itself and bump its version counter.
IN_PLACE = {
    "add_": lambda lib, t: t.add_(1),
    "add_tensor": lambda lib, t: t.add_(lib.tensor([1.0, 1.0, 1.0])),
    "mul_": lambda lib, t: t.mul_(2),
    "fill_": lambda lib, t: t.fill_(0),
    "zero_": lambda lib, t: t.zero_(),
    "clamp_": lambda lib, t: t.clamp_(min=0),
    "clamp_max": lambda lib, t: t.clamp_(max=1.5),
    "setitem_index": lambda lib, t: t.__setitem__(0, 5.0),
    "setitem_bool_mask": lambda lib, t: t.__setitem__(t < 0, 0.0),
}


@pytest.mark.parametrize("name", list(IN_PLACE))
def test_in_place_version_counter(run_both, name):
    def example(lib):
        t = lib.tensor([1.0, -2.0, 3.0])
        result = IN_PLACE[name](lib, t)
        return result is t, t, t._version
    run_both(example)


@pytest.mark.parametrize("name", list(IN_PLACE))
def test_in_place_on_a_non_leaf_records_and_differentiates(run_both, name):
    def example(lib):
        a = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        b = a * 1
        IN_PLACE[name](lib, b)
        b.sum().backward()
        return b, b._version, a.grad
    run_both(example)


@pytest.mark.parametrize("name", list(IN_PLACE))
def test_in_place_on_a_leaf_that_requires_grad(run_both, name):
    run_both(lambda lib: IN_PLACE[name](lib, lib.tensor([1.0, -2.0, 3.0], requires_grad=True)))


@pytest.mark.parametrize("name", list(IN_PLACE))
def test_in_place_on_a_leaf_under_no_grad(run_both, name):
    def example(lib):
        a = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        with lib.no_grad():
            IN_PLACE[name](lib, a)
        return a, a._version, a.grad_fn
    run_both(example)


CASES.update({
    "version_counts_every_in_place_op": lambda lib: version_sequence(lib),
    "mask_setitem_like_custom_relu": lambda lib: relu_mask(lib),
    "setitem_rows_columns_and_masks": lambda lib: setitem_forms(lib),
    "setitem_int_tensor_with_mask": lambda lib: int_mask(lib),
    "in_place_int_tensor_cannot_take_float": lambda lib: lib.tensor([1, 2]).add_(1.5),
})


def version_sequence(lib):
    t = lib.tensor([1.0, 2.0])
    versions = [t._version]
    for step in (lambda: t.add_(1), lambda: t.mul_(2), lambda: t.add_(1).mul_(2), lambda: t.__iadd__(1)):
        step()
        versions.append(t._version)
    c = t.clone()
    d = t.detach()
    d.add_(1)  # detach shares the version counter with t
    return versions, c._version, t._version, d._version, t


def relu_mask(lib):
    x = lib.tensor([-1.0, 0.0, 2.0, -3.0])
    grad_output = lib.tensor([1.0, 2.0, 3.0, 4.0])
    grad_input = grad_output.clone()
    grad_input[x < 0] = 0
    return grad_input, grad_output, grad_input._version, (x < 0).dtype


def setitem_forms(lib):
    t = lib.zeros(2, 3)
    t[0] = lib.tensor([1.0, 2.0, 3.0])
    t[:, 1] = 5
    t[1, 2] = -1.5
    t[t > 4] = lib.tensor([7.0, 8.0])
    return t, t._version


def int_mask(lib):
    t = lib.tensor([1, 2, 3])
    t[t > 1] = 0
    return t


@pytest.mark.parametrize("name", list(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])


def test_memory_layout_queries(run_both):
    """element_size, itemsize, nbytes, data_ptr (relative: views share memory) and storage_offset."""
    def example(lib):
        x = lib.arange(12.0).reshape(3, 4)
        v = x[1:, 2:]
        return (x.element_size(), x.itemsize, x.nbytes, v.nbytes, lib.tensor([1]).element_size(),
                lib.tensor([True]).element_size(), v.data_ptr() - x.data_ptr(), v.storage_offset(),
                x.storage_offset(), x.t()[1].storage_offset(), x.view(-1)[5:].storage_offset(),
                lib.zeros(0).data_ptr(), lib.zeros(3).expand(2, 3).nbytes)
    run_both(example)


@pytest.mark.parametrize("other", [None, [1, 2], (1, 2), "a", object()], ids=["None", "list", "tuple", "str", "object"])
@pytest.mark.parametrize("expression", ["t + o", "t - o", "t * o", "t / o", "t ** o", "o + t", "o - t", "o * t",
                                        "o / t", "o ** t", "t < o", "t == o", "t != o"])
def test_an_operator_refuses_what_is_not_a_tensor_or_a_number(run_both, other, expression):
    """Python's TypeError (or False for ==), never a tensor of nan or a list turned into a tensor."""
    def example(lib):
        t, o = lib.ones(2), other
        return eval(expression)
    run_both(example)


@pytest.mark.parametrize("statement", ["t += None", "t -= None", "t *= None", "t /= None", "t += [1, 2]"])
def test_an_in_place_operator_refuses_it_too(run_both, statement):
    def example(lib):
        t = lib.ones(2)
        exec(statement)
        return t
    run_both(example)


def test_a_size_stays_a_size(run_both):
    """Slicing and concatenating a torch.Size give a torch.Size (its repr shows it); indexing gives an int."""
    def example(lib):
        s = lib.ones(2, 3, 4).shape
        return repr(s[1:]), repr(s[::2]), repr(s + (1,)), repr((1,) + s), repr(s + s), s[0], s[-1], repr(s[5:])
    run_both(example)

"""Parity of the signatures and names that programs meet first (issue 26): the legacy `torch.Tensor(sizes)`
constructor, `randint` with keywords, generic data classes (`Sampler[int]`), the complex dtypes' names, and the
`new_*` constructors, on real torch and on minigrad."""
import pytest

import minigrad
from torch_reference import import_torch

torch = import_torch()

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


@case
def legacy_sizes_constructor(lib):
    return [tuple(lib.Tensor(2, 3, 4).shape), lib.Tensor(2, 3, 4).dtype, lib.Tensor([1, 2]), lib.Tensor((2, 3)),
            tuple(lib.Tensor().shape)]


@case
def randint_with_keywords(lib):
    lib.manual_seed(3)
    return [lib.randint(low=0, high=2, size=(3, 4), dtype=lib.int32), lib.randint(high=5, size=(2,)),
            lib.randint(3, 9, (5,)), lib.randint(10, size=(2, 2), dtype=lib.float32)]


@case
def generic_data_classes(lib):
    data = lib.utils.data

    class Twice(data.Sampler[int]):
        def __init__(self, n):
            self.n = n

        def __iter__(self):
            return iter(i for i in range(self.n) for _ in range(2))

        def __len__(self):
            return 2 * self.n

    class Squares(data.Dataset[int]):
        def __getitem__(self, i):
            return lib.tensor(float(i * i))

        def __len__(self):
            return 3

    loader = data.DataLoader(Squares(), batch_size=2, sampler=Twice(3))
    return [batch for batch in loader], str(data.Sampler[int]).split(".")[-1]


@case
def permute_without_dims(lib):
    return lib.ones(2, 3).permute()


@case
def complex_dtypes_have_names(lib):
    return [repr(lib.cdouble), repr(lib.cfloat), lib.complex64 is lib.cfloat, lib.complex128.is_complex,
            lib.float64.is_complex, lib.complex128.itemsize, lib.complex64.is_floating_point]


@case
def new_constructors_take_the_dtype(lib):
    x = lib.ones(2, dtype=lib.float64)
    return [x.new_tensor([1, 2]), x.new_zeros(2, 3), x.new_ones((1, 2), dtype=lib.int32), x.new_full((2,), 7),
            lib.tensor([1, 2]).new_full((2,), 2.5), tuple(x.new_empty(0, 3).shape), x.new_zeros(2).requires_grad,
            x.new_tensor([3.0], requires_grad=True)]


@case
def new_tensor_from_a_tensor_warns(lib):
    x = lib.ones(2, requires_grad=True)
    with pytest.warns(UserWarning) as caught:
        y = x.new_tensor(x)
    return str(caught[0].message), y, y.requires_grad


@pytest.mark.parametrize("name", sorted(CASES))
def test_parity(run_both, name):
    run_both(CASES[name])


def test_complex_tensors_are_refused_in_plain_words():
    """torch makes complex tensors; minigrad names the dtype and says it computes with real numbers only."""
    for make in (lambda: minigrad.zeros(2, dtype=minigrad.cdouble), lambda: minigrad.ones(2).to(minigrad.complex64),
                 lambda: minigrad.tensor([1.0], dtype=minigrad.cfloat)):
        with pytest.raises(TypeError, match=r"minigrad has no complex tensors: torch\.complex(64|128) is not "
                                            r"supported"):
            make()
    assert torch.zeros(2, dtype=torch.cdouble).dtype is torch.complex128    # the reference does have them

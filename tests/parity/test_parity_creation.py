"""The tensor makers of issue 11 on torch and on minigrad: `full(_like)`, `eye`, `zeros/ones/empty(_like)` with
`dtype=`, `size=` and `device=`, and `arange`/`linspace` to the last bit (see minigrad/_ranges.py), with their
error messages."""
import pytest
from test_parity_random import bits  # this folder is on sys.path (no __init__.py)

VALUES = {
    "full_int": lambda lib: lib.full((2, 3), 7),
    "full_float": lambda lib: lib.full((2,), 1.5),
    "full_bool": lambda lib: lib.full((2,), True),
    "full_dtype": lambda lib: lib.full((2,), 7, dtype=lib.float64),
    "full_float_into_int": lambda lib: lib.full((2,), 1.5, dtype=lib.int64),
    "full_list_size": lambda lib: lib.full([2, 2], 0.5),
    "full_keywords": lambda lib: lib.full(size=(2,), fill_value=3),
    "full_0d": lambda lib: lib.full((), 2.0),
    "full_requires_grad": lambda lib: lib.full((2,), 2.0, requires_grad=True),
    "full_like": lambda lib: lib.full_like(lib.zeros(2, dtype=lib.int64), 2.7),
    "full_like_dtype": lambda lib: lib.full_like(lib.zeros(2), 3, dtype=lib.int32),
    "zeros_like_dtype": lambda lib: lib.zeros_like(lib.zeros(2), dtype=lib.int64),
    "ones_like_dtype": lambda lib: lib.ones_like(lib.zeros(2, dtype=lib.int64), dtype=lib.float64),
    "ones_like_requires_grad": lambda lib: lib.ones_like(lib.zeros(2), requires_grad=True),
    "empty_like_shape_dtype": lambda lib: (lib.empty_like(lib.zeros(2, 3)).shape, lib.empty_like(lib.zeros(2),
                                                                                                  dtype=lib.int64).dtype),
    "eye": lambda lib: lib.eye(3),
    "eye_rectangular": lambda lib: lib.eye(2, 3),
    "eye_m_keyword": lambda lib: lib.eye(3, m=2),
    "eye_dtype": lambda lib: lib.eye(2, dtype=lib.int64),
    "eye_empty": lambda lib: lib.eye(0),
    "eye_requires_grad": lambda lib: lib.eye(2, requires_grad=True),
    "zeros_dtype": lambda lib: lib.zeros(2, dtype=lib.int32),
    "zeros_size_keyword": lambda lib: lib.zeros(size=(2, 1)),
    "ones_device": lambda lib: lib.ones(2, device="cpu"),
    "empty_shape_dtype": lambda lib: (lib.empty(2, 3).shape, lib.empty(2, dtype=lib.float64).dtype),
    "zeros_of_a_size": lambda lib: lib.zeros(lib.Size([2, 3])),
    # Python floats convert from the double itself to the dtype asked for (repr: compared to the last bit)
    "tensor_float64_from_floats": lambda lib: repr(lib.tensor([[0.1, 1e-5], [1 / 3, 2.0]], dtype=lib.float64).tolist()),
    "tensor_float64_scalar": lambda lib: repr(lib.tensor(0.1, dtype=lib.float64).item()),
    "tensor_float16_from_floats": lambda lib: repr(lib.tensor([0.1, 65504.9, 1e-8], dtype=lib.float16).tolist()),
    "tensor_int64_from_a_float": lambda lib: repr(lib.tensor([16777217.0, -2.7], dtype=lib.int64).tolist()),
    "tensor_float64_mixed": lambda lib: repr(lib.tensor([True, 1, 0.1], dtype=lib.float64).tolist()),
}


@pytest.mark.parametrize("name", list(VALUES))
def test_values(run_both, name):
    run_both(VALUES[name])


ARANGES = [(0, 1, 0.1), (-1, 1, 0.3), (0, 10, 0.01), (1.5, 9.7, 0.37), (0, 100, 0.013), (-7, 3, 0.1234),
           (5, 0, -0.3), (0, 5), (-3, 3, 0.5), (0.5, 4, 1), (10,), (2.5,)]
LINSPACES = [(0, 1, 5), (-1, 1.3, 7), (-3, 3, 100), (0, 10, 1000), (0.1, 0.7, 33), (-5.5, 2.25, 16), (1, 2, 2),
             (2, 5, 1), (0, 1, 0)]


@pytest.mark.parametrize("args", ARANGES, ids=str)
def test_arange_bits(run_both, args):
    run_both(lambda lib: [bits(lib.arange(*args)), bits(lib.arange(*args, dtype=lib.float64)),
                          bits(lib.arange(*args, dtype=lib.int32)) if args[-1] != 0.5 and len(args) > 2
                          and abs(args[2]) >= 1 else None])


@pytest.mark.parametrize("args", LINSPACES, ids=str)
def test_linspace_bits(run_both, args):
    run_both(lambda lib: [bits(lib.linspace(*args)), bits(lib.linspace(*args, dtype=lib.float64)),
                          bits(lib.linspace(*args, dtype=lib.int64))])


def test_arange_and_linspace_forms(run_both):
    def example(lib):
        return [bits(lib.arange(0.5, 4, 1, dtype=lib.int64)), bits(lib.arange(0, 2.5, 1, dtype=lib.int32)),
                bits(lib.arange(0, 2.5, 1, dtype=lib.int64)), bits(lib.arange(lib.tensor(2.5))),
                bits(lib.arange(3.0, requires_grad=True)), bits(lib.linspace(lib.tensor(0.0), lib.tensor(1.0), 3)),
                bits(lib.linspace(start=-3, end=3, steps=5)), bits(lib.linspace(0, 1, 5, requires_grad=True)),
                lib.arange(0, 1, 0.1)[3].item() == 0.3, bits(lib.arange(0, 1, 0.1) * 3)]
    run_both(example)


ERRORS = {
    "zeros_negative": lambda lib: lib.zeros(-1),
    "ones_negative": lambda lib: lib.ones(2, -1),
    "empty_negative": lambda lib: lib.empty(-2),
    "full_negative": lambda lib: lib.full((-1,), 2.0),
    "full_size_an_int": lambda lib: lib.full(2, 1.5),
    "zeros_of_a_float": lambda lib: lib.zeros(2.5),
    "zeros_of_two_tuples": lambda lib: lib.zeros((2,), (3,)),
    "zeros_of_int_requires_grad": lambda lib: lib.zeros(2, dtype=lib.int64, requires_grad=True),
    "eye_negative_n": lambda lib: lib.eye(-1),
    "eye_negative_m": lambda lib: lib.eye(2, -1),
    "arange_zero_step": lambda lib: lib.arange(0, 5, 0),
    "arange_step_of_the_wrong_sign": lambda lib: lib.arange(0, 5, -1),
    "arange_end_below_start": lambda lib: lib.arange(5, 0),
    "arange_to_infinity": lambda lib: lib.arange(float("inf")),
    "arange_int_dtype_rounds_the_step_to_zero": lambda lib: lib.arange(0, 2, 0.5, dtype=lib.int64),
    "arange_of_ints_requires_grad": lambda lib: lib.arange(10, requires_grad=True),
    "linspace_negative_steps": lambda lib: lib.linspace(0, 1, -1),
    "linspace_float_steps": lambda lib: lib.linspace(0, 1, 2.5),
    "ones_on_cuda": lambda lib: lib.ones(2, device="cuda"),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_error(run_both, name):
    run_both(ERRORS[name])

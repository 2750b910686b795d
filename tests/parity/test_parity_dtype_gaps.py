"""Dtype corners where numpy and PyTorch part ways: small integer dtypes next to Python numbers (they wrap around),
sums of unsigned and bool tensors (int64), bool subtraction and powers, index tensors of small integer dtypes (an
error, a uint8 one is a deprecated mask, a 0-d one an int), and -0.0 as a Python number."""
import warnings

import pytest

@pytest.mark.parametrize("expression", ["uint8 + -1", "int8 * 300", "uint8 < 300", "uint8 // -1", "uint8 | -1"])
def test_python_int_outside_a_small_dtype_wraps(run_both, expression):
    def example(lib):
        name, op, number = expression.split()
        t = lib.tensor([3, 1], dtype=getattr(lib, name))
        return {"+": t.__add__, "*": t.__mul__, "<": t.__lt__, "//": t.__floordiv__, "|": t.__or__}[op](int(number))
    run_both(example)


def test_sum_of_uint8_is_int64(run_both):
    run_both(lambda lib: (lib.tensor([200, 100], dtype=lib.uint8).sum(),
                          lib.tensor([[200], [100]], dtype=lib.uint8).sum(0)))


@pytest.mark.parametrize("op", ["mean", "norm"])
@pytest.mark.parametrize("width", ["uint8", "int8", "int32"])
def test_error_names_a_small_integer_dtype(run_both, op, width):
    run_both(lambda lib: getattr(lib.tensor([1, 2], dtype=getattr(lib, width)), op)())


@pytest.mark.parametrize("width", ["uint8", "int8", "int16", "int32"])
def test_in_place_result_type_error_names_the_dtype(run_both, width):
    run_both(lambda lib: lib.tensor([1, 2], dtype=getattr(lib, width)).add_(1.5))


@pytest.mark.parametrize("other", ["int_tensor", "float"])
def test_subtraction_with_one_bool_tensor(run_both, other):
    def example(lib):
        b = lib.tensor([True, False])
        return b - {"int_tensor": lib.tensor([1, 2]), "float": 2.5}[other]
    run_both(example)


def test_bool_power_is_int64(run_both):
    run_both(lambda lib: lib.tensor([True, False]) ** 2)


def test_indexing_with_an_int8_tensor_is_an_error(run_both):
    run_both(lambda lib: lib.ones(3)[lib.tensor([0, 1], dtype=lib.int8)])


@pytest.mark.parametrize("op", ["truediv", "floordiv", "mul"])
def test_negative_zero_as_a_python_number(run_both, op):
    def example(lib):
        x = lib.tensor([7.0, -7.0])
        return repr(getattr(x, f"__{op}__")(0.0)), repr(getattr(x, f"__{op}__")(-0.0))
    run_both(example)


def test_indexing_with_a_0d_int32_tensor_selects(run_both):
    run_both(lambda lib: lib.ones(3, requires_grad=True)[lib.tensor(1, dtype=lib.int32)])


@pytest.mark.parametrize("number", [2 ** 40, 2 ** 64, -2 ** 63 - 1])
def test_python_int_far_outside_a_small_dtype(run_both, number):
    run_both(lambda lib: lib.tensor([1], dtype=lib.int8) + number)


@pytest.mark.parametrize("width", ["uint16", "uint32", "uint64", "bool"])
def test_sum_of_unsigned_and_bool_is_int64(run_both, width):
    run_both(lambda lib: (lib.tensor([2, 1], dtype=getattr(lib, width)).sum(),
                          lib.tensor([[2], [1]], dtype=getattr(lib, width)).sum(0)))


@pytest.mark.parametrize("expression", ["int - True", "True - int", "True - bool", "bool - True", "sub(int, True)",
                                        "int.sub_(True)"])
def test_subtraction_with_a_python_bool(run_both, expression):
    def example(lib):
        t, b = lib.tensor([1, 2]), lib.tensor([True, False])
        return {"int - True": lambda: t - True, "True - int": lambda: True - t, "True - bool": lambda: True - b,
                "bool - True": lambda: b - True, "sub(int, True)": lambda: lib.sub(t, True),
                "int.sub_(True)": lambda: t.sub_(True)}[expression]()
    run_both(example)


@pytest.mark.parametrize("width", ["int16", "uint16"])
def test_indexing_with_other_small_integer_tensors_is_an_error(run_both, width):
    run_both(lambda lib: lib.arange(3.0)[lib.tensor([2, 0], dtype=getattr(lib, width))])


@pytest.mark.parametrize("width", ["int8", "int16"])
def test_a_0d_index_tensor_of_a_small_integer_dtype_selects(run_both, width):
    run_both(lambda lib: lib.ones(3, requires_grad=True)[lib.tensor(1, dtype=getattr(lib, width))])


def test_a_uint8_index_tensor_is_a_deprecated_mask(run_both):
    def example(lib):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            picked = lib.arange(3.0)[lib.tensor([1, 0, 1], dtype=lib.uint8)]
            t = lib.zeros(3)
            t[lib.tensor([1, 0, 1], dtype=lib.uint8)] = lib.tensor([5.0, 6.0])
        said = [str(w.message).split(" (Triggered internally")[0] for w in caught]
        return picked, t, said, lib.ones(3)[lib.tensor(1, dtype=lib.uint8)]
    run_both(example)


@pytest.mark.parametrize("value", ["number", "0-d tensor"])
def test_filling_through_a_uint8_mask_is_an_error(run_both, value):
    def example(lib):
        t = lib.zeros(3)
        t[lib.tensor([1, 0, 1], dtype=lib.uint8)] = 5.0 if value == "number" else lib.tensor(5.0)
    run_both(example)

"""What the dtype work of issue 11 found missing in files outside its task, one strict xfail each, to be lifted
with the fix (each reported to the lead): small integer dtypes next to Python numbers, reductions and in-place
errors that knew only four dtypes (now lifted: one name table, `dtype._scalar_name`), bool subtraction and powers, int8 and 0-d int32 index tensors, -0.0."""
import pytest

def _reported(reason):
    return pytest.mark.xfail(strict=True, reason=reason + " (reported to the lead)")


@_reported("_tensor_ops._as_tensor: np.array(300, np.int8) raises OverflowError where torch wraps the number")
@pytest.mark.parametrize("expression", ["uint8 + -1", "int8 * 300", "uint8 < 300", "uint8 // -1", "uint8 | -1"])
def test_python_int_outside_a_small_dtype_wraps(run_both, expression):
    def example(lib):
        name, op, number = expression.split()
        t = lib.tensor([3, 1], dtype=getattr(lib, name))
        return {"+": t.__add__, "*": t.__mul__, "<": t.__lt__, "//": t.__floordiv__, "|": t.__or__}[op](int(number))
    run_both(example)


@_reported("ops/reduction.py Sum/SumDim: numpy sums uint8 in uint64, torch in int64")
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


@_reported("ops/arithmetic.py Sub: torch refuses `-` whenever one operand is a bool tensor, not only both")
@pytest.mark.parametrize("other", ["int_tensor", "float"])
def test_subtraction_with_one_bool_tensor(run_both, other):
    def example(lib):
        b = lib.tensor([True, False])
        return b - {"int_tensor": lib.tensor([1, 2]), "float": 2.5}[other]
    run_both(example)


@_reported("ops/arithmetic.py Pow: numpy gives bool ** 2 as int8, torch as int64")
def test_bool_power_is_int64(run_both):
    run_both(lambda lib: lib.tensor([True, False]) ** 2)


@_reported("_tensor_shape.indexing_read: torch accepts only long, int, byte and bool index tensors")
def test_indexing_with_an_int8_tensor_is_an_error(run_both):
    run_both(lambda lib: lib.ones(3)[lib.tensor([0, 1], dtype=lib.int8)])


@_reported("_tensor_ops._as_tensor caches wrapped numbers by value, and -0.0 == 0.0: x / -0.0 reuses the +0.0 tensor")
@pytest.mark.parametrize("op", ["truediv", "floordiv", "mul"])
def test_negative_zero_as_a_python_number(run_both, op):
    def example(lib):
        x = lib.tensor([7.0, -7.0])
        return repr(getattr(x, f"__{op}__")(0.0)), repr(getattr(x, f"__{op}__")(-0.0))
    run_both(example)


@_reported("_tensor_shape.indexing_read: a 0-d index tensor of any integer dtype but uint8 selects (SelectBackward0)")
def test_indexing_with_a_0d_int32_tensor_selects(run_both):
    run_both(lambda lib: lib.ones(3, requires_grad=True)[lib.tensor(1, dtype=lib.int32)])

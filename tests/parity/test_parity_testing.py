"""Parity of `torch.testing.assert_close` (minigrad/testing.py): passes and failures on tensors, numbers, lists
and dicts, PyTorch's default tolerances per dtype, and its failure report word for word (the mismatch count, the
greatest absolute and relative differences among the mismatches and their indices, the failing item)."""
import pytest

EXAMPLES = {
    "one_mismatch": "ac(lib.tensor([1., 2., 3.]), lib.tensor([1., 2.5, 3.]))",
    "dtypes": "ac(lib.tensor([1.]), lib.tensor([1.], dtype=lib.float64))",
    "shapes": "ac(lib.ones(2), lib.ones(3))",
    "floats": "ac(1.0, 1.1)",
    "list_item": "ac([lib.ones(2), 1], [lib.ones(2), 2])",
    "integers": "ac(lib.tensor([1, 2]), lib.tensor([1, 3]))",
    "nan": "ac(lib.tensor([float('nan')]), lib.tensor([float('nan')]))",
    "nan_equal": "ac(lib.tensor([float('nan')]), lib.tensor([float('nan')]), equal_nan=True)",
    "within_float32_tolerance": "ac(lib.ones(2), lib.ones(2) + 1e-6)",
    "custom_message": "ac(lib.ones(2, 2), lib.zeros(2, 2), msg='custom')",
    "callable_message": "ac(lib.ones(2), lib.zeros(2), msg=lambda m: 'wrapped: ' + m.splitlines()[0])",
    "tensor_and_list": "ac(lib.ones(2), [1., 1.])",
    "dict_item": "ac({'a': lib.ones(1)}, {'a': lib.zeros(1)})",
    "rtol_without_atol": "ac(lib.ones(2), lib.ones(2), rtol=0.1)",
    "explicit_tolerances": "ac(lib.tensor([1., 100.]), lib.tensor([1.1, 101.]), rtol=0, atol=0.5)",
    "requires_grad_ignored": "ac(lib.ones(1, requires_grad=True), lib.ones(1))",
    "unchecked_dtype": "ac(lib.ones(3), lib.ones(3).double(), check_dtype=False)",
    "greatest_among_mismatches": "ac(lib.arange(6.).reshape(2, 3), lib.arange(6.).reshape(2, 3) * 1.01)",
    "float64_tolerance": "ac(lib.tensor([1., 2.], dtype=lib.float64), lib.tensor([1., 2. + 1e-6], dtype=lib.float64))",
    "tuples": "ac((1, 2.0), (1, 2.0))",
    "ints": "ac(3, 4)",
}


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_assert_close(parity, name):
    def example(lib):
        ac = lib.testing.assert_close      # noqa: F841 - read by eval
        return eval(EXAMPLES[name])
    parity(example)

"""Self-tests of the parity harness: it must fail on every kind of difference, and say what each side gave.

Both sides run on torch here; the second one is labelled "other" and differs on purpose.
"""
import warnings

import pytest


def check(harness, torch_example, other_example, **kwargs):
    t = harness.run_example(torch_example, harness.torch, "torch")
    m = harness.run_example(other_example, harness.torch, "other")
    harness.compare_outcomes(t, m, **kwargs)


def fails(harness, torch_example, other_example, *needles, **kwargs):
    with pytest.raises(AssertionError) as info:
        check(harness, torch_example, other_example, **kwargs)
    for needle in needles:
        assert needle in str(info.value), f"{needle!r} not in failure message {str(info.value)!r}"
    return str(info.value)


def raising(exc_type, message):
    def example(lib):
        raise exc_type(message)
    return example


def test_equal_outcomes_pass(harness):
    example = lambda lib: {"t": lib.tensor([[1.0, 2.0]], requires_grad=True) * 2, "s": lib.Size([2, 3]),
                           "n": (1, 2.5, True, None, "x")}
    check(harness, example, example)


def test_different_values_fail_and_say_both(harness):
    message = fails(harness, lambda lib: lib.tensor([1.0, 2.0]), lambda lib: lib.tensor([1.0, 3.0]),
                    "values", "torch gave tensor([1.0, 2.0]", "other gave tensor([1.0, 3.0]")
    assert message.index("torch gave") < message.index("other gave")


@pytest.mark.parametrize("other, field", [
    (lambda lib: lib.tensor([1.0, 2.0], dtype=lib.float64), ".dtype"),
    (lambda lib: lib.tensor([[1.0, 2.0]]), ".shape"),
    (lambda lib: lib.tensor([1.0, 2.0], requires_grad=True), ".requires_grad"),
    (lambda lib: lib.tensor([1.0, 2.0], requires_grad=True) * 1, ".requires_grad"),
    (lambda lib: [1.0, 2.0], "type"),
])
def test_tensor_metadata_differences_fail(harness, other, field):
    fails(harness, lambda lib: lib.tensor([1.0, 2.0]), other, field)


def test_grad_fn_name_difference_fails(harness):
    x = [1.0, 2.0]
    fails(harness, lambda lib: lib.tensor(x, requires_grad=True) * 1,
          lambda lib: lib.tensor(x, requires_grad=True) + 0,
          ".grad_fn", "MulBackward0", "AddBackward0")


def test_float_tolerance_and_number_types(harness):
    check(harness, lambda lib: 1.0, lambda lib: 1.0 + 1e-9)
    fails(harness, lambda lib: 1.0, lambda lib: 1.1, "torch gave 1.0", "other gave 1.1")
    fails(harness, lambda lib: 1, lambda lib: 1.0, "type int vs float")
    fails(harness, lambda lib: True, lambda lib: 1, "type bool vs int")
    fails(harness, lambda lib: (1, 2), lambda lib: [1, 2], "type tuple vs list")
    fails(harness, lambda lib: (1, 2), lambda lib: (1, 2, 3), "length 2 vs 3")


def test_strings_are_compared_exactly(harness):
    fails(harness, lambda lib: repr(lib.tensor([1.0])), lambda lib: repr(lib.tensor([1.0])) + " ",
          "torch gave 'tensor([1.])'")


def test_raise_versus_return_fails(harness):
    fails(harness, raising(RuntimeError, "boom"), lambda lib: 1,
          "torch raised RuntimeError: 'boom'", "other returned 1")
    fails(harness, lambda lib: 1, raising(RuntimeError, "boom"), "torch returned 1", "other raised RuntimeError")


def test_exception_type_message_and_bases_are_compared(harness):
    check(harness, raising(RuntimeError, "boom"), raising(RuntimeError, "boom"))
    fails(harness, raising(RuntimeError, "boom"), raising(RuntimeError, "bang"), "'boom'", "'bang'")
    fails(harness, raising(RuntimeError, "boom"), raising(TypeError, "boom"), "RuntimeError", "TypeError")

    FakeRuntimeError = type("RuntimeError", (Exception,), {})  # same name; `except RuntimeError` would miss it
    fails(harness, raising(RuntimeError, "boom"), raising(FakeRuntimeError, "boom"), "bases")


def test_message_prefix(harness):
    long_t, long_m = raising(RuntimeError, "Jacobian mismatch, numerical: 1"), raising(RuntimeError,
                                                                                        "Jacobian mismatch, other")
    check(harness, long_t, long_m, msg_prefix="Jacobian mismatch,")
    fails(harness, long_t, raising(RuntimeError, "Jacobian mis"), "Jacobian mis", msg_prefix="Jacobian mismatch,")
    fails(harness, long_t, long_t, "the test is wrong", msg_prefix="Gradient mismatch")


def test_printed_text_is_compared(harness):
    fails(harness, lambda lib: print(lib.tensor([1.0])), lambda lib: print(lib.tensor([2.0])),
          "torch printed:\ntensor([1.])", "other printed:\ntensor([2.])")


def test_warnings_are_compared(harness):
    def warn(text):
        def example(lib):
            warnings.warn(text, UserWarning)
        return example
    check(harness, warn("careful"), warn("careful"))
    fails(harness, warn("careful"), lambda lib: None, "torch warned: [('UserWarning', 'careful')]", "other warned: []")


def test_clean_text_blanks_addresses_and_cpp_locations(harness):
    text = ("<MulBackward0 object at 0x7f3a2b1c4d50> see it. (Triggered internally at "
            "/__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)")
    assert harness.clean_text(text) == "<MulBackward0 object at 0xADDRESS> see it."


def test_examples_must_return_plain_data(harness):
    with pytest.raises(TypeError, match="return names, reprs or values instead"):
        harness.describe(object(), harness.torch)


def test_unreadable_results_fail_with_both_sides(harness):
    fails(harness, lambda lib: [1], lambda lib: [object()], "torch returned [1]", "cannot read")


def test_long_texts_point_at_the_first_difference(harness):
    long_text = "See github.com/pytorch/pytorch/pull/30531 for more information."
    fails(harness, raising(RuntimeError, long_text), raising(RuntimeError, long_text[:-1] + "s."),
          "first difference at character 62", "'for more information.'", "'for more informations.'")


def on_both(harness, example):
    """Run `example` on torch and on minigrad, as run_both does, and compare."""
    import minigrad
    t = harness.run_example(example, harness.torch, "torch")
    m = harness.run_example(example, minigrad, "minigrad")
    harness.compare_outcomes(t, m)


def test_an_error_of_the_test_itself_is_not_parity(harness):
    """A typo in the test raises the same KeyError on both sides: that must fail, naming the test's line."""
    def example(lib):
        actions = {"missing_attribute": lambda: lib.tensor([1.0]).no_such_method()}
        return actions["missing_atribute"]()
    with pytest.raises(AssertionError) as info:
        on_both(harness, example)
    message = str(info.value)
    assert "the test itself raised KeyError" in message and "test_parity_harness.py:" in message, message
    assert "torch raised it too" in message, message


def test_an_error_the_library_raises_is_parity(harness):
    """The same error raised inside the library (here minigrad's broadcasting check) still counts as parity."""
    on_both(harness, lambda lib: lib.ones(2) + lib.ones(3))


def test_a_missing_method_is_the_librarys_answer(harness):
    """AttributeError from a method neither library has is raised by Python, with no library frame: parity."""
    on_both(harness, lambda lib: lib.tensor([1.0]).apply(lambda v: v + 1))


def test_an_error_of_the_test_where_torch_raised_nothing_fails_naming_its_line(harness):
    def example(lib):
        return {"torch": 1}[lib.__name__]      # a KeyError of the test's own dictionary, on minigrad only
    with pytest.raises(AssertionError) as info:
        on_both(harness, example)
    message = str(info.value)
    assert "torch returned 1" in message and "minigrad raised KeyError" in message, message
    assert "test_parity_harness.py:" in message and "never inside minigrad" in message, message


def test_a_tolerance_of_zero_asks_for_equal_numbers(harness):
    check(harness, lambda lib: [1.0, lib.tensor([2.0])], lambda lib: [1.0 + 1e-9, lib.tensor([2.0 + 1e-7])])
    fails(harness, lambda lib: 1.0, lambda lib: 1.0 + 1e-9, "torch gave 1.0", rtol=0, atol=0)
    fails(harness, lambda lib: lib.tensor([2.0]), lambda lib: lib.tensor([2.0 + 1e-6]), "values", rtol=0, atol=0)


def test_first_line_compares_only_the_first_line_of_messages(harness):
    t, m = raising(RuntimeError, "Jacobian mismatch\nnumerical: 1"), raising(RuntimeError, "Jacobian mismatch\n2")
    check(harness, t, m, first_line=True)
    fails(harness, t, m, "'Jacobian mismatch\\nnumerical: 1'")
    fails(harness, t, raising(RuntimeError, "Jacobian mismatch!\nnumerical: 1"), "mismatch!", first_line=True)


def test_printed_floats_to_a_tolerance_only_when_asked(harness):
    t, m = (lambda lib: print("loss 1.000001")), (lambda lib: print("loss 1.000002"))
    check(harness, t, m, printed=(1e-5, 0))
    fails(harness, t, m, "first differing stdout line: 1", "torch: 'loss 1.000001'", "other: 'loss 1.000002'")
    fails(harness, t, lambda lib: print("cost 1.000001"), "'cost 1.000001'", printed=(1e-5, 0))
    fails(harness, lambda lib: print("a"), lambda lib: print("a", end=""), "final newline")

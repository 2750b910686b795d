"""Checks for chapter 3, `Tensor.apply_`: the dtype cast, an out-of-place copy, and the vectorised version.

Example (a book cell):
    >>> ch03.check_int_prediction([0.5, 1.0, 1.5])
    ✗ not yet — those are the results of v / 2, but the tensor is int64: ...
"""
import minigrad as torch

from . import check, expect


def _values(t):
    return [round(v, 4) for v in t.detach().reshape(-1).tolist()]


@check("v / 2 gives 0.5, 1.0, 1.5, and the int64 tensor keeps int(...) of each: [0, 1, 1].")
def check_int_prediction(answer):
    """Compare the learner's prediction of `torch.tensor([1, 2, 3]).apply_(lambda v: v / 2)` with [0, 1, 1]."""
    if isinstance(answer, torch.Tensor):
        answer = answer.tolist()
    expect(isinstance(answer, (list, tuple)), f"answer is {type(answer).__name__}; write a list such as "
           "[1, 2, 3].")
    got = list(answer)
    expect(len(got) == 3, f"your list has {len(got)} numbers; the tensor has 3 elements.")
    expect(got != [0.5, 1.0, 1.5], "those are the results of v / 2, but the tensor is int64: apply_ casts each "
           "result back to the tensor's dtype, like int(...).")
    expect(got != [0, 1, 2] and got != [1, 1, 2], f"{got}: the cast drops the fraction (like int(1.5), which "
           "is 1); it does not round.")
    expect(got == [0, 1, 1], f"{got} is not what the tensor holds; compute v / 2 for 1, 2, 3 and keep int(...) "
           "of each.")


@check("apply_copy returns a new tensor, keeps the dtype, and leaves t alone, even when t requires grad.")
def check_apply_copy(apply_copy):
    """Call `apply_copy` on a float tensor that requires grad and on an int tensor; check result and input."""
    t = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    try:
        result = apply_copy(t, abs)
    except RuntimeError as error:
        expect("requires grad" not in str(error), "apply_ refused t because t requires grad: call it on "
               "t.detach() instead (and copy that first, so that t is not changed).")
        raise
    except AttributeError as error:
        expect("'apply'" not in str(error), "Tensor has no method `apply`: make a copy, then use apply_ on it.")
        raise
    expect(result is not None, "apply_copy returned None: return the new tensor.")
    expect(isinstance(result, torch.Tensor), f"apply_copy returned {type(result).__name__}, expected a tensor.")
    expect(result is not t, "apply_copy returned t itself: apply_ works in place, so copy t first (clone()).")
    expect(_values(t) == [1.0, -2.0, 3.0], f"t changed to {_values(t)}: detach() shares memory with t, so "
           "apply_ on it writes into t. Call clone() before apply_.")
    expect(_values(result) == [1.0, 2.0, 3.0], f"apply_copy(t, abs) gave {_values(result)}, expected "
           "[1.0, 2.0, 3.0].")
    i = torch.tensor([1, 2, 3])
    result = apply_copy(i, lambda v: v * 2.7)
    expect(result.dtype == i.dtype, f"for an int64 tensor the result has dtype {result.dtype}; keep t's dtype "
           "(apply_ on a copy of t does).")
    expect(result.tolist() == [2, 5, 8] and i.tolist() == [1, 2, 3], f"apply_copy(tensor([1, 2, 3]), "
           f"lambda v: v * 2.7) gave {result.tolist()} and left t as {i.tolist()}; expected [2, 5, 8] and "
           "[1, 2, 3].")


@check("3 * t * t - 1 computes every element at once, and autograd recorded it: t.grad = 6t.")
def check_fast(fast):
    """Call `fast` on a tensor that requires grad; check the values and that backward gives 6t."""
    t = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
    try:
        out = fast(t)
    except RuntimeError as error:
        expect("apply_" not in str(error), "you used apply_, which refuses tensors that require grad; write "
               "it with tensor operations instead: *, + and - work on whole tensors at once.")
        raise
    expect(out is not None, "fast returned None: return the result.")
    expect(isinstance(out, torch.Tensor), f"fast returned {type(out).__name__}, expected a tensor.")
    expect(_values(out) == [-1.0, 2.0, 11.0], f"fast(tensor([0., 1., -2.])) gave {_values(out)}, expected "
           "[-1.0, 2.0, 11.0] (3·v² − 1).")
    expect(out.grad_fn is not None, "the result has no grad_fn, so autograd did not record it; compute it "
           "from t with tensor operations (no detach, no no_grad).")
    out.sum().backward()
    expect(_values(t.grad) == [0.0, 6.0, -12.0], f"t.grad is {_values(t.grad)}, expected 6t = [0.0, 6.0, "
           "-12.0].")

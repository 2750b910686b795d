"""Checks for chapter 3, `Tensor.apply_`: the dtype cast, an out-of-place copy, and the vectorised version.

Example (a book cell):
    >>> ch03.check_int_prediction([0.5, 1.0, 1.5])
    ✗ not yet — those are the results of v / 2, but the tensor is int64: ...
"""
import minigrad as torch

from ..i18n import N_, _
from . import check, expect


def _values(t):
    return [round(v, 4) for v in t.detach().reshape(-1).tolist()]


@check(N_("v / 2 gives 0.5, 1.0, 1.5, and the int64 tensor keeps int(...) of each: [0, 1, 1]."))
def check_int_prediction(answer):
    """Compare the learner's prediction of `torch.tensor([1, 2, 3]).apply_(lambda v: v / 2)` with [0, 1, 1]."""
    if isinstance(answer, torch.Tensor):
        answer = answer.tolist()
    expect(isinstance(answer, (list, tuple)),
           _("answer is {type}; write a list such as [1, 2, 3].")
           .format(type=type(answer).__name__))
    got = list(answer)
    expect(len(got) == 3, _("your list has {n_got} numbers; the tensor has 3 elements.")
                          .format(n_got=len(got)))
    expect(got != [0.5, 1.0, 1.5], _("those are the results of v / 2, but the tensor is int64: apply_ casts each "
                                     "result back to the tensor's dtype, like int(...)."))
    expect(got != [0, 1, 2] and got != [1, 1, 2],
           _("{got}: the cast drops the fraction (like int(1.5), which is 1); it does not round.")
           .format(got=got))
    expect(got == [0, 1, 1], _("{got} is not what the tensor holds; compute v / 2 for 1, 2, 3 and keep int(...) of "
                               "each.")
                             .format(got=got))


@check(N_("apply_copy returns a new tensor, keeps the dtype, and leaves t alone, even when t requires grad."))
def check_apply_copy(apply_copy):
    """Call `apply_copy` on a float tensor that requires grad and on an int tensor; check result and input."""
    t = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    try:
        result = apply_copy(t, abs)
    except RuntimeError as error:
        expect("requires grad" not in str(error),
               _("apply_ refused t because t requires grad: call it on t.detach() instead (and copy that first, so "
                 "that t is not changed)."))
        raise
    except AttributeError as error:
        expect("'apply'" not in str(error), _("Tensor has no method `apply`: make a copy, then use apply_ on it."))
        raise
    expect(result is not None, _("apply_copy returned None: return the new tensor."))
    expect(isinstance(result, torch.Tensor),
           _("apply_copy returned {type}, expected a tensor.")
           .format(type=type(result).__name__))
    expect(result is not t, _("apply_copy returned t itself: apply_ works in place, so copy t first (clone())."))
    expect(_values(t) == [1.0, -2.0, 3.0], _("t changed to {t}: detach() shares memory with t, so apply_ on it "
                                             "writes into t. Call clone() before apply_.")
                                           .format(t=_values(t)))
    expect(_values(result) == [1.0, 2.0, 3.0],
           _("apply_copy(t, abs) gave {result}, expected [1.0, 2.0, 3.0].")
           .format(result=_values(result)))
    i = torch.tensor([1, 2, 3])
    result = apply_copy(i, lambda v: v * 2.7)
    expect(result.dtype == i.dtype, _("for an int64 tensor the result has dtype {result_dtype}; keep t's dtype "
                                      "(apply_ on a copy of t does).")
                                    .format(result_dtype=result.dtype))
    expect(result.tolist() == [2, 5, 8] and i.tolist() == [1, 2, 3],
           _("apply_copy(tensor([1, 2, 3]), lambda v: v * 2.7) gave {result} and left t as {i}; expected [2, 5, 8] "
             "and [1, 2, 3].")
           .format(result=result.tolist(), i=i.tolist()))


@check(N_("3 * t * t - 1 computes every element at once, and autograd recorded it: t.grad = 6t."))
def check_fast(fast):
    """Call `fast` on a tensor that requires grad; check the values and that backward gives 6t."""
    t = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
    try:
        out = fast(t)
    except RuntimeError as error:
        expect("apply_" not in str(error), _("you used apply_, which refuses tensors that require grad; write it "
                                             "with tensor operations instead: *, + and - work on whole tensors at "
                                             "once."))
        raise
    expect(out is not None, _("fast returned None: return the result."))
    expect(isinstance(out, torch.Tensor), _("fast returned {type}, expected a tensor.")
                                          .format(type=type(out).__name__))
    expect(_values(out) == [-1.0, 2.0, 11.0],
           _("fast(tensor([0., 1., -2.])) gave {out}, expected [-1.0, 2.0, 11.0] (3·v² − 1).")
           .format(out=_values(out)))
    expect(out.grad_fn is not None, _("the result has no grad_fn, so autograd did not record it; compute it from t "
                                      "with tensor operations (no detach, no no_grad)."))
    out.sum().backward()
    expect(_values(t.grad) == [0.0, 6.0, -12.0],
           _("t.grad is {t_grad}, expected 6t = [0.0, 6.0, -12.0].")
           .format(t_grad=_values(t.grad)))

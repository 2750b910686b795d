"""The exercise checks that a reviewer found too lenient or too strict (issue 14): each right alternative now says
"✓ correct", each wrong answer that used to pass now says "✗ not yet"."""
import minigrad as torch
from minigrad import autograd
from minigrad.autograd import Function
from widgets.exercises import ch03, ch04, ch05, ch07, ch09, ch12


def _leaky(backward):
    class LeakyReLU(autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x.clamp(min=0) + 0.1 * x.clamp(max=0)
    LeakyReLU.backward = staticmethod(backward)
    return LeakyReLU


def test_ch04_leaky_relu_accepts_both_slopes_at_zero():
    def mask_below(ctx, g):           # the chapter's convention: slope 1 at x = 0
        x, = ctx.saved_tensors
        out = g.clone()
        out[x < 0] = g[x < 0] * 0.1
        return out

    def like_torch(ctx, g):           # F.leaky_relu's: slope 0.1 at x = 0 (torch.where(x > 0, g, 0.1 * g))
        x, = ctx.saved_tensors
        return torch.where(x > 0, g, 0.1 * g)

    def relu_like(ctx, g):
        x, = ctx.saved_tensors
        return torch.where(x > 0, g, 0 * g)

    assert ch04.check_leaky_relu(_leaky(mask_below)).ok
    assert ch04.check_leaky_relu(_leaky(like_torch)).ok
    feedback = ch04.check_leaky_relu(_leaky(relu_like))
    assert not feedback.ok and "as in ReLU" in feedback.message, feedback


def test_ch05_two_backwards_rejects_building_the_loss_twice():
    def right(x):
        loss = (x ** 3).sum()
        loss.backward(retain_graph=True)
        loss.backward()
        return x.grad

    def built_twice(x):
        (x ** 3).sum().backward()
        (x ** 3).sum().backward()
        return x.grad

    assert ch05.check_two_backwards(right).ok
    feedback = ch05.check_two_backwards(built_twice)
    assert not feedback.ok and "more than once" in feedback.message, feedback


def _mul(check_x, check_y):
    class Mul(autograd.Function):
        @staticmethod
        def forward(x, y):
            return x * y

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, grad_output):
            x, y = ctx.saved_tensors
            grad_x = grad_output * y if (ctx.needs_input_grad[0] or not check_x) else None
            grad_y = grad_output * x if (ctx.needs_input_grad[1] or not check_y) else None
            return grad_x, grad_y
    return Mul


def test_ch07_mul_tests_an_x_that_does_not_require_grad():
    assert ch07.check_mul(_mul(True, True)).ok
    feedback = ch07.check_mul(_mul(False, True))      # only ever looks at needs_input_grad[1]
    assert not feedback.ok and "needs_input_grad[0]" in feedback.message, feedback


def test_ch07_bad_input_is_no_coin_flip():
    line = "Jacobian mismatch for output 0 with respect to input 1,"
    assert ch07.check_bad_input(line, 1).ok
    assert not ch07.check_bad_input(line, True).ok                 # bool passed as 1 before
    assert not ch07.check_bad_input(line, 0).ok
    assert not ch07.check_bad_input("a guess", 1).ok                # 1 without running gradcheck
    assert not ch07.check_bad_input(..., ...).ok


class _SquareAndCube(Function):
    @staticmethod
    def forward(x):
        return x ** 2, x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
        ctx.set_materialize_grads(False)


def test_ch09_rejects_a_backward_that_turns_the_nones_back_into_zeros():
    class Skips(_SquareAndCube):
        @staticmethod
        def backward(ctx, grad_square, grad_cube):
            x, = ctx.saved_tensors
            parts = [g * k for g, k in ((grad_square, 2 * x), (grad_cube, 3 * x ** 2)) if g is not None]
            return parts[0] if len(parts) == 1 else parts[0] + parts[1]

    class Zeros(_SquareAndCube):
        @staticmethod
        def backward(ctx, grad_square, grad_cube):
            x, = ctx.saved_tensors
            grad_square = torch.zeros_like(x) if grad_square is None else grad_square
            grad_cube = torch.zeros_like(x) if grad_cube is None else grad_cube
            return grad_square * 2 * x + grad_cube * 3 * x ** 2

    assert ch09.check_square_and_cube(Skips).ok
    feedback = ch09.check_square_and_cube(Zeros)
    assert not feedback.ok and "zeros" in feedback.message, feedback
    assert torch.zeros_like.__name__ == "zeros_like"                # the spy is gone afterwards


def test_ch03_hint_does_not_give_the_formula_away():
    def with_apply_(t):
        return t.apply_(lambda v: 3 * v * v - 1)      # refuses a tensor that requires grad

    feedback = ch03.check_fast(with_apply_)
    assert not feedback.ok and "3 * t * t" not in feedback.message, feedback


def test_ch12_function_or_module_cases_are_unambiguous():
    assert not any("linear layer with a weight and a bias" in case for case in ch12.WHICH)
    right = dict(ch12.WHICH)
    assert ch12.check_which(right).ok
    wrong = {**right, next(c for c in right if "learnable weight" in c): "Function"}
    assert not ch12.check_which(wrong).ok

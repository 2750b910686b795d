"""Chapter 15's checks accept the solutions (and other right answers) and say "not yet" to typical wrong ones."""
import pytest

from widgets.exercises import ch15

PRELUDE = ("import minigrad as torch\nfrom minigrad import autograd, func\n"
           "from minigrad.autograd import forward_ad as fwAD\n")

CUBE = '''
class Cube(autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3

    @staticmethod
    def setup_context(ctx, inputs, output):
        (x,) = inputs
        ctx.save_for_backward(x)
        ctx.save_for_forward(x)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * 3 * x ** 2

    @staticmethod
    def jvp(ctx, x_t):
        (x,) = ctx.saved_tensors
        return 3 * x ** 2 * x_t
'''

DIRECTIONAL = '''
def directional_derivative(f, x, v):
    with fwAD.dual_level():
        out = f(fwAD.make_dual(x, v))
        return fwAD.unpack_dual(out).tangent
'''

HVP = '''
def hvp(f, x, v):
    return func.jvp(func.grad(f), (x,), (v,))[1]
'''


def define(source, name):
    namespace = {"__name__": "__main__"}
    exec(PRELUDE + source, namespace)
    return namespace[name]


@pytest.mark.parametrize("check, source, name", [
    (ch15.check_cube_jvp, CUBE, "Cube"),
    (ch15.check_cube_jvp, CUBE.replace("        ctx.save_for_forward(x)\n", "        ctx.x = x\n")
     .replace("        (x,) = ctx.saved_tensors\n        return 3", "        x = ctx.x\n        return 3"), "Cube"),
    (ch15.check_directional_derivative, DIRECTIONAL, "directional_derivative"),
    (ch15.check_hvp, HVP, "hvp"),
    (ch15.check_hvp, HVP.replace("return func.jvp(func.grad(f), (x,), (v,))[1]",
                                 "_, vjp_fn = func.vjp(func.grad(f), x)\n    return vjp_fn(v)[0]"), "hvp"),   # rev-rev
])
def test_right_answers_pass(check, source, name):
    feedback = check(define(source, name))
    assert feedback.ok, feedback.message


@pytest.mark.parametrize("check, source, name, hint", [
    (ch15.check_cube_jvp, CUBE.replace("return 3 * x ** 2 * x_t", "return 3 * x ** 2"), "Cube", "not yet times"),
    (ch15.check_cube_jvp, CUBE.replace("return 3 * x ** 2 * x_t", "return None"), "Cube", "no tangent"),
    (ch15.check_cube_jvp, CUBE.replace("        ctx.save_for_forward(x)\n", ""), "Cube", "save_for_forward"),
    (ch15.check_cube_jvp, CUBE.replace("return 3 * x ** 2 * x_t", "return 2 * x * x_t"), "Cube", "expected 3 x²"),
    (ch15.check_directional_derivative,
     DIRECTIONAL.replace("        return fwAD.unpack_dual(out).tangent\n", "    return fwAD.unpack_dual(out).tangent\n"),
     "directional_derivative", "after `with fwAD.dual_level():`"),
    (ch15.check_directional_derivative, DIRECTIONAL.replace(".tangent", ".primal"), "directional_derivative",
     "the primal"),
    (ch15.check_hvp, HVP.replace("[1]", ""), "hvp", "a tuple"),
    (ch15.check_hvp, HVP.replace("[1]", "[0]"), "hvp", "the gradient"),
    (ch15.check_hvp, HVP.replace("(v,))[1]", "(v * 2,))[1]"), "hvp", "expected H @ v"),
])
def test_wrong_answers_get_their_hint(check, source, name, hint):
    feedback = check(define(source, name))
    assert not feedback.ok
    assert hint in feedback.message, feedback.message


def test_the_stubs_are_not_yet():
    assert not ch15.check_cube_jvp(define(CUBE.replace("return 3 * x ** 2 * x_t", "..."), "Cube")).ok
    assert not ch15.check_directional_derivative(define("def directional_derivative(f, x, v):\n    ...\n",
                                                        "directional_derivative")).ok

"""Chapter 13's checks accept the solutions (and other right answers) and say "not yet" to typical wrong ones."""
import pytest

from widgets.exercises import ch13

PRELUDE = "import numpy as np\nimport minigrad as torch\nfrom minigrad import autograd\n"

HVP = '''
def hvp(f, w, v):
    (g,) = autograd.grad(f(w), w, create_graph=True)
    (hv,) = autograd.grad((g * v).sum(), w)
    return hv
'''

SIN = '''
class Sin(autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.sin()

    @staticmethod
    def backward(ctx, grad_output):
        x, = ctx.saved_tensors
        return grad_output * x.cos()
'''

PENALTY = '''
def gradient_penalty(critic, inputs):
    scores = critic(inputs)
    (grad_inputs,) = autograd.grad(scores.sum(), inputs, create_graph=True)
    return ((grad_inputs.norm(dim=1) - 1) ** 2).mean()
'''


def define(source, name):
    namespace = {"__name__": "__main__"}
    exec(PRELUDE + source, namespace)
    return namespace[name]


@pytest.mark.parametrize("check, source, name", [
    (ch13.check_hvp, HVP, "hvp"),
    (ch13.check_hvp, HVP.replace("(hv,) = autograd.grad((g * v).sum(), w)",
                                 "(hv,) = autograd.grad(g, w, grad_outputs=v)"), "hvp"),      # as a VJP
    (ch13.check_sin, SIN, "Sin"),
    (ch13.check_sin, SIN.replace("def forward(ctx, x):\n        ctx.save_for_backward(x)\n",
                                 "def forward(x):\n")
     .replace("    @staticmethod\n    def backward",
              "    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
              "        ctx.save_for_backward(inputs[0])\n\n    @staticmethod\n    def backward"), "Sin"),
    (ch13.check_gradient_penalty, PENALTY, "gradient_penalty"),
    (ch13.check_gradient_penalty, PENALTY.replace("scores.sum()", "scores").replace(
        "create_graph=True", "grad_outputs=torch.ones(len(scores)), create_graph=True"), "gradient_penalty"),
])
def test_right_answers_pass(check, source, name):
    feedback = check(define(source, name))
    assert feedback.ok, feedback


@pytest.mark.parametrize("check", [ch13.check_hvp, ch13.check_sin, ch13.check_gradient_penalty])
def test_stubs_say_not_yet(check):
    assert not check(...).ok
    stub = {"check_hvp": "def hvp(f, w, v):\n    ...\n",
            "check_sin": "class Sin(autograd.Function):\n    @staticmethod\n    def forward(ctx, x):\n        ...\n"
                         "    @staticmethod\n    def backward(ctx, grad_output):\n        ...\n",
            "check_gradient_penalty": "def gradient_penalty(critic, inputs):\n    ...\n"}[check.__name__]
    namespace = {"__name__": "__main__"}
    exec(PRELUDE + stub, namespace)
    (learner,) = [v for k, v in namespace.items() if k in ("hvp", "Sin", "gradient_penalty")]
    assert not check(learner).ok


@pytest.mark.parametrize("check, source, name, hint", [
    (ch13.check_hvp, HVP.replace("(f(w), w, create_graph=True)", "(f(w), w)"), "hvp", "create_graph=True"),
    (ch13.check_hvp, "def hvp(f, w, v):\n    return autograd.grad(f(w), w)[0]\n", "hvp", "returned the gradient"),
    (ch13.check_hvp, "def hvp(f, w, v):\n    return autograd.grad(f(w), w)[0] * v\n", "hvp", "g * v"),
    (ch13.check_hvp, HVP.replace("return hv", "return (hv,)"), "hvp", "tuple"),
    # a backward that leaves the Tensor world: right at first order, wrong at second
    (ch13.check_sin, SIN.replace("return grad_output * x.cos()",
                                 "return torch.from_numpy(np.cos(x.detach().numpy())) * grad_output"),
     "Sin", "outside the Tensor world"),
    (ch13.check_sin, SIN.replace("x.cos()", "x.detach().cos()"), "Sin", "outside the Tensor world"),
    # cos(x) computed in forward and saved: forward runs with recording off, so it is a constant in backward
    (ch13.check_sin, SIN.replace("ctx.save_for_backward(x)", "ctx.save_for_backward(x.cos())")
     .replace("return grad_output * x.cos()", "return grad_output * x"), "Sin", "recording off"),
    (ch13.check_sin, SIN.replace("x.cos()", "(-x.sin())"), "Sin", "first derivative"),
    (ch13.check_gradient_penalty, PENALTY.replace(", create_graph=True", ""), "gradient_penalty", "create_graph"),
    (ch13.check_gradient_penalty, PENALTY.replace("grad_inputs.norm(dim=1)", "grad_inputs.norm()"),
     "gradient_penalty", "norm(dim=1)"),
    (ch13.check_gradient_penalty, '''
def gradient_penalty(critic, inputs):
    critic(inputs).sum().backward(create_graph=True)
    return ((inputs.grad.norm(dim=1) - 1) ** 2).mean()
''', "gradient_penalty", "autograd.grad"),
])
# the last mistake calls backward(create_graph=True), which warns of a reference cycle (once per process) as
# PyTorch does; under pytest-xdist it may be the first such call in its worker, so the warning is expected here
@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True:UserWarning")
def test_typical_mistakes_say_not_yet(check, source, name, hint):
    feedback = check(define(source, name))
    assert not feedback.ok and hint in feedback.message, feedback

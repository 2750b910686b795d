"""Chapter 18's checks accept the solutions (and other right answers) and say "not yet" to typical wrong ones."""
import pytest

from widgets.exercises import ch18

PRELUDE = "import minigrad as torch\nfrom minigrad import nn\n"

REVERSE = '''
def reverse_gradient(t):
    out = t.view_as(t)
    out.register_hook(lambda g: -g)
    return out
'''

NORMS = '''
def record_grad_norms(model):
    norms = {}

    def hook_for(name):
        def hook(module, grad_input, grad_output):
            norms[name] = grad_output[0].norm().item()
        return hook
    for name, module in model.named_modules():
        if isinstance(module, nn.Linear):
            module.register_full_backward_hook(hook_for(name))
    return norms
'''

NORMS_WITH_A_LAMBDA = '''
def record_grad_norms(model):
    norms = {}
    for name, module in model.named_modules():
        if isinstance(module, nn.Linear):
            module.register_full_backward_hook(
                lambda m, gi, go, name=name: norms.update({name: go[0].norm().item()}))
    return norms
'''


def define(source, name):
    namespace = {"__name__": "__main__"}
    exec(PRELUDE + source, namespace)
    return namespace[name]


@pytest.mark.parametrize("check, source, name", [
    (ch18.check_reverse_gradient, REVERSE, "reverse_gradient"),
    (ch18.check_reverse_gradient, REVERSE.replace("t.view_as(t)", "t * 1"), "reverse_gradient"),
    (ch18.check_reverse_gradient, REVERSE.replace("t.view_as(t)", "t.clone()"), "reverse_gradient"),
    (ch18.check_record_grad_norms, NORMS, "record_grad_norms"),
    (ch18.check_record_grad_norms, NORMS_WITH_A_LAMBDA, "record_grad_norms"),
])
def test_right_answers_pass(check, source, name):
    feedback = check(define(source, name))
    assert feedback.ok, feedback.message


@pytest.mark.parametrize("check, source, name, hint", [
    (ch18.check_reverse_gradient, "def reverse_gradient(t):\n    t.register_hook(lambda g: -g)\n    return t\n",
     "reverse_gradient", "-5 for each element"),
    (ch18.check_reverse_gradient, "def reverse_gradient(t):\n    return t.detach()\n", "reverse_gradient",
     "does not require grad"),
    (ch18.check_reverse_gradient, "def reverse_gradient(t):\n    return -t\n", "reverse_gradient",
     "must have t's values"),
    (ch18.check_reverse_gradient, REVERSE.replace("-g", "g"), "reverse_gradient", "expected -1"),
    (ch18.check_reverse_gradient, "def reverse_gradient(t):\n    ...\n", "reverse_gradient", "returned None"),
    (ch18.check_record_grad_norms, NORMS_WITH_A_LAMBDA.replace(", name=name", ""), "record_grad_norms",
     "every hook wrote under the same name"),
    (ch18.check_record_grad_norms, NORMS.replace(".item()", ""), "record_grad_norms", "is a tensor"),
    (ch18.check_record_grad_norms, NORMS.replace("grad_output[0]", "grad_input[0]"), "record_grad_norms",
     "the norm of the gradient of that layer's output"),
    (ch18.check_record_grad_norms, NORMS.replace("nn.Linear", "nn.Tanh"), "record_grad_norms",
     "the dictionary's names are"),
    (ch18.check_record_grad_norms, "def record_grad_norms(model):\n    ...\n", "record_grad_norms",
     "returned None"),
])
def test_wrong_answers_get_their_hint(check, source, name, hint):
    feedback = check(define(source, name))
    assert not feedback.ok
    assert hint in feedback.message, feedback.message

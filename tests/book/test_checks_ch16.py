"""Chapter 16's checks accept the solutions (and other right answers) and say "not yet" to typical wrong ones."""
import pytest

from widgets.exercises import ch16

PRELUDE = "import minigrad as torch\nfrom minigrad import autograd, func, nn\n"

PER_SAMPLE = '''
def per_sample_grads(loss_fn, w, xs, ys):
    return func.vmap(func.grad(loss_fn), in_dims=(None, 0, 0))(w, xs, ys)
'''

ENSEMBLE = '''
def ensemble_predict(models, x):
    params, buffers = func.stack_module_state(models)

    def run(p, b, x):
        return func.functional_call(models[0], (p, b), (x,))
    return func.vmap(run, in_dims=(0, 0, None))(params, buffers, x)
'''


def define(source, name):
    namespace = {"__name__": "__main__"}
    exec(PRELUDE + source, namespace)
    return namespace[name]


@pytest.mark.parametrize("check, source, name", [
    (ch16.check_per_sample_grads, PER_SAMPLE, "per_sample_grads"),
    (ch16.check_per_sample_grads, PER_SAMPLE.replace("return func.vmap(func.grad(loss_fn), in_dims=(None, 0, 0))"
                                                     "(w, xs, ys)",
                                                     "return torch.stack([func.grad(loss_fn)(w, x, y) "
                                                     "for x, y in zip(xs, ys)])"), "per_sample_grads"),  # a loop
    (ch16.check_ensemble_predict, ENSEMBLE, "ensemble_predict"),
])
def test_right_answers_pass(check, source, name):
    feedback = check(define(source, name))
    assert feedback.ok, feedback.message


@pytest.mark.parametrize("check, source, name, hint", [
    (ch16.check_per_sample_grads, PER_SAMPLE.replace("in_dims=(None, 0, 0)", "in_dims=0"), "per_sample_grads",
     "in_dims None"),
    (ch16.check_per_sample_grads,
     "def per_sample_grads(loss_fn, w, xs, ys):\n    return func.grad(lambda w: sum(loss_fn(w, x, y) "
     "for x, y in zip(xs, ys)))(w)\n", "per_sample_grads", "a single gradient"),
    (ch16.check_per_sample_grads, PER_SAMPLE.replace("(w, xs, ys)", "(w, xs, ys) * 2"), "per_sample_grads",
     "expected"),
    (ch16.check_ensemble_predict, ENSEMBLE.replace("(p, b), (x,)", "dict(models[0].named_parameters()), (x,)"),
     "ensemble_predict", "the output of the first one"),
    (ch16.check_ensemble_predict, ENSEMBLE.replace("in_dims=(0, 0, None)", "in_dims=(0, 0, None), out_dims=1"),
     "ensemble_predict", "expected"),
])
def test_wrong_answers_get_their_hint(check, source, name, hint):
    feedback = check(define(source, name))
    assert not feedback.ok
    assert hint in feedback.message, feedback.message


def test_the_stubs_are_not_yet():
    for check, name in ((ch16.check_per_sample_grads, "per_sample_grads"),
                        (ch16.check_ensemble_predict, "ensemble_predict")):
        feedback = check(define(f"def {name}(*args):\n    ...\n", name))
        assert not feedback.ok and "stub" in feedback.message

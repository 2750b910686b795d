"""Chapter 14's checks after the learnable parameter arrived (issue 14): Swish takes a beta of shape (), and the
checks ask for its gradient, summed (or left for the engine to sum) to that shape, and for a Parameter per Swish."""
import minigrad as torch
from minigrad import nn
from minigrad.autograd import Function, gradcheck
from widgets.exercises import ch14


def _swish(beta_gradient):
    class Swish(Function):
        @staticmethod
        def forward(x, beta):
            return x * torch.sigmoid(beta * x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(*inputs)

        @staticmethod
        def backward(ctx, grad_output):
            x, beta = ctx.saved_tensors
            s = torch.sigmoid(beta * x)
            return grad_output * s * (1 + beta * x * (1 - s)), beta_gradient(grad_output * x * x * s * (1 - s))
    return Swish


def test_swish_wants_the_gradient_of_beta_summed_to_its_shape():
    assert ch14.check_swish(_swish(lambda g: g.sum())).ok
    # the engine sums a gradient whose shape beta's shape () broadcasts to, as torch does: also right
    assert ch14.check_swish(_swish(lambda g: g)).ok
    feedback = ch14.check_swish(_swish(lambda g: None))
    assert not feedback.ok and "beta.grad is None" in feedback.message, feedback
    feedback = ch14.check_swish(_swish(lambda g: 2 * g.sum()))
    assert not feedback.ok and "beta.grad is" in feedback.message, feedback


def test_swish_without_beta_is_not_yet():
    class OneInput(Function):
        @staticmethod
        def forward(x):
            return x * torch.sigmoid(x)

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            s = torch.sigmoid(x)
            return grad_output * s * (1 + x * (1 - s))

    feedback = ch14.check_swish(OneInput)
    assert not feedback.ok and "TypeError" in feedback.message, feedback         # apply(x, beta) cannot bind


def test_my_gradcheck_must_pass_both_inputs():
    def right(function_class):
        x = torch.tensor([-2.0, -0.5, 0.3, 1.5], dtype=torch.float64, requires_grad=True)
        beta = torch.tensor(0.8, dtype=torch.float64, requires_grad=True)
        return gradcheck(function_class.apply, (x, beta), raise_exception=False)

    def forgets_beta(function_class):
        x = torch.tensor([-2.0, -0.5, 0.3, 1.5], dtype=torch.float64, requires_grad=True)
        return gradcheck(function_class.apply, (x,), raise_exception=False)

    assert ch14.check_my_gradcheck(right).ok
    assert not ch14.check_my_gradcheck(forgets_beta).ok


def _net(beta):
    Swish = _swish(lambda g: g.sum())

    class SwishNet(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2, self.out = nn.Linear(2, 32), nn.Linear(32, 32), nn.Linear(32, 3)
            self.beta1, self.beta2 = beta(), beta()

        def forward(self, x):
            x = Swish.apply(self.fc1(x), self.beta1)
            return self.out(Swish.apply(self.fc2(x), self.beta2))
    return SwishNet


def test_swish_net_wants_a_beta_parameter_per_swish():
    assert ch14.check_swish_net(_net(lambda: nn.Parameter(torch.tensor(1.0)))).ok
    feedback = ch14.check_swish_net(_net(lambda: torch.tensor(1.0)))          # a plain tensor: not a parameter
    assert not feedback.ok and "parameters of shape ()" in feedback.message, feedback

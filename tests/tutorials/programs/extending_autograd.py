# "Extending PyTorch" notes, sections "Extending torch.autograd" and "Extending torch.nn":
#   https://pytorch.org/docs/stable/notes/extending.html
#   (source: github.com/pytorch/pytorch, docs/source/notes/extending.rst)
# The notes' code blocks in their order, as one program. Changes, and only these:
# - The imports the snippets assume: `import torch`, `from torch import nn`, `from torch.autograd import Function`
#   (the notes' own `from torch.autograd import gradcheck` stays where the notes have it).
# - The notes define LinearFunction, MulConstant and MyCube without calling them (only `linear` goes through
#   gradcheck). Added after each definition: a gradcheck call and, for the Functions whose backward is made of
#   differentiable operations, a gradgradcheck call, all printed (they print True); for MyCube also the first and
#   second derivative through torch.autograd.grad, the double-backward use that the notes point to.
# - The gradcheck block prints as in the notes; its torch.randn inputs differ between the libraries (minigrad's
#   RNG does not reproduce torch's), which does not change what it prints.
# - The Linear module is built and called on fixed inputs (the notes only define it): print(module), the output
#   shape and the gradients, which do not depend on the random initial weights.
# The notes have no MySquare / once_differentiable example (once_differentiable is only named in "Step 3").
import torch
from torch import nn
from torch.autograd import Function

double = dict(dtype=torch.double, requires_grad=True)
x_mm = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]], **double)
w_mm = torch.tensor([[0.1, 0.2, 0.3], [-0.4, 0.5, -0.6], [0.7, -0.8, 0.9], [1.0, 1.1, -1.2]], **double)
b_mm = torch.tensor([0.01, -0.02, 0.03, -0.04], **double)


# Inherit from Function
class LinearFunction(Function):

    # Note that forward, setup_context, and backward are @staticmethods
    @staticmethod
    def forward(input, weight, bias):
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    # inputs is a Tuple of all of the inputs passed to forward.
    # output is the output of the forward().
    def setup_context(ctx, inputs, output):
        input, weight, bias = inputs
        ctx.save_for_backward(input, weight, bias)

    # This function has only a single output, so it gets only one gradient
    @staticmethod
    def backward(ctx, grad_output):
        # This is a pattern that is very convenient - at the top of backward
        # unpack saved_tensors and initialize all gradients w.r.t. inputs to
        # None. Thanks to the fact that additional trailing Nones are
        # ignored, the return statement is simple even when the function has
        # optional inputs.
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        # These needs_input_grad checks are optional and there only to
        # improve efficiency. If you want to make your code simpler, you can
        # skip them. Returning gradients for inputs that don't require it is
        # not an error.
        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


print("LinearFunction (separate setup_context):")
print(torch.autograd.gradcheck(LinearFunction.apply, (x_mm, w_mm, b_mm)))
print(torch.autograd.gradgradcheck(LinearFunction.apply, (x_mm, w_mm, b_mm)))

# Option 1: alias
linear = LinearFunction.apply


# Option 2: wrap in a function, to support default args and keyword args.
def linear(input, weight, bias=None):
    return LinearFunction.apply(input, weight, bias)


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        # ctx is a context object that can be used to stash information
        # for backward computation
        tensor, constant = inputs
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


print("MulConstant:")
print(torch.autograd.gradcheck(MulConstant.apply, (x_mm, 2.5)))
print(torch.autograd.gradgradcheck(MulConstant.apply, (x_mm, 2.5)))


class MulConstant(Function):
    @staticmethod
    def forward(tensor, constant):
        return tensor * constant

    @staticmethod
    def setup_context(ctx, inputs, output):
        tensor, constant = inputs
        ctx.set_materialize_grads(False)
        ctx.constant = constant

    @staticmethod
    def backward(ctx, grad_output):
        # Here we must handle None grad_output tensor. In this case we
        # can skip unnecessary computations and just return None.
        if grad_output is None:
            return None, None

        # We return as many input gradients as there were arguments.
        # Gradients of non-Tensor arguments to forward must be None.
        return grad_output * ctx.constant, None


print("MulConstant (set_materialize_grads(False)):")
print(torch.autograd.gradcheck(MulConstant.apply, (x_mm, 2.5)))
print(torch.autograd.gradgradcheck(MulConstant.apply, (x_mm, 2.5)))


class MyCube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        # We wish to save dx for backward. In order to do so, it must
        # be returned as an output.
        dx = 3 * x ** 2
        result = x ** 3
        return result, dx

    @staticmethod
    def setup_context(ctx, inputs, output):
        x, = inputs
        result, dx = output
        ctx.save_for_backward(x, dx)

    @staticmethod
    def backward(ctx, grad_output, grad_dx):
        x, dx = ctx.saved_tensors
        # In order for the autograd.Function to work with higher-order
        # gradients, we must add the gradient contribution of `dx`,
        # which is grad_dx * 6 * x.
        result = grad_output * dx + grad_dx * 6 * x
        return result


# Wrap MyCube in a function so that it is clearer what the output is
def my_cube(x):
    result, dx = MyCube.apply(x)
    return result


print("MyCube:")
x = torch.tensor(2., **double)
print(torch.autograd.gradcheck(my_cube, x))
print(torch.autograd.gradgradcheck(my_cube, x))
first, = torch.autograd.grad(my_cube(x), x, create_graph=True)
second, = torch.autograd.grad(first, x)
print(first, second)

print("gradcheck(linear, input):")
from torch.autograd import gradcheck

# gradcheck takes a tuple of tensors as input, check if your gradient
# evaluated with these tensors are close enough to numerical
# approximations and returns True if they all verify this condition.
input = (torch.randn(20,20,dtype=torch.double,requires_grad=True), torch.randn(30,20,dtype=torch.double,requires_grad=True))
test = gradcheck(linear, input, eps=1e-6, atol=1e-4)
print(test)


class LinearFunction(Function):
    @staticmethod
    # ctx is the first argument to forward
    def forward(ctx, input, weight, bias=None):
        # The forward pass can use ctx.
        ctx.save_for_backward(input, weight, bias)
        output = input.mm(weight.t())
        if bias is not None:
            output += bias.unsqueeze(0).expand_as(output)
        return output

    @staticmethod
    def backward(ctx, grad_output):
        input, weight, bias = ctx.saved_tensors
        grad_input = grad_weight = grad_bias = None

        if ctx.needs_input_grad[0]:
            grad_input = grad_output.mm(weight)
        if ctx.needs_input_grad[1]:
            grad_weight = grad_output.t().mm(input)
        if bias is not None and ctx.needs_input_grad[2]:
            grad_bias = grad_output.sum(0)

        return grad_input, grad_weight, grad_bias


print("LinearFunction (combined forward and ctx):")
print(torch.autograd.gradcheck(LinearFunction.apply, (x_mm, w_mm, b_mm)))
print(torch.autograd.gradgradcheck(LinearFunction.apply, (x_mm, w_mm, b_mm)))


class Linear(nn.Module):
    def __init__(self, input_features, output_features, bias=True):
        super().__init__()
        self.input_features = input_features
        self.output_features = output_features

        # nn.Parameter is a special kind of Tensor, that will get
        # automatically registered as Module's parameter once it's assigned
        # as an attribute. Parameters and buffers need to be registered, or
        # they won't appear in .parameters() (doesn't apply to buffers), and
        # won't be converted when e.g. .cuda() is called. You can use
        # .register_buffer() to register buffers.
        # nn.Parameters require gradients by default.
        self.weight = nn.Parameter(torch.empty(output_features, input_features))
        if bias:
            self.bias = nn.Parameter(torch.empty(output_features))
        else:
            # You should always register all possible parameters, but the
            # optional ones can be None if you want.
            self.register_parameter('bias', None)

        # Not a very smart way to initialize weights
        nn.init.uniform_(self.weight, -0.1, 0.1)
        if self.bias is not None:
            nn.init.uniform_(self.bias, -0.1, 0.1)

    def forward(self, input):
        # See the autograd section for explanation of what happens here.
        return LinearFunction.apply(input, self.weight, self.bias)

    def extra_repr(self):
        # (Optional)Set the extra information about this module. You can test
        # it by printing an object of this class.
        return 'input_features={}, output_features={}, bias={}'.format(
            self.input_features, self.output_features, self.bias is not None
        )


print("Linear module:")
module = Linear(3, 2)
print(module)
output = module(torch.tensor([[1., 2., 3.], [4., 5., 6.], [7., 8., 9.], [10., 11., 12.]]))
print(output.shape, output.grad_fn.name())
output.sum().backward()
print(module.weight.grad)
print(module.bias.grad)
print(Linear(3, 2, bias=False))

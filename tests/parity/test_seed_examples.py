"""Every PyTorch example of the two seed articles (../shared/seeds/), run on torch and on minigrad.

Written as in the articles, with ``lib`` for ``torch`` and fixed inputs where the articles call ``randn`` (the
article's own printed values where it shows them). The harness compares what each example prints, returns,
raises and warns. nn.ModuleList examples are a later issue.
"""
import pytest

CASES = {}


def case(fn):
    CASES[fn.__name__] = fn
    return fn


def test_module_list_apply_init_weights(run_both):
    def example(lib):
        nn = lib.nn
        module_list = nn.ModuleList([nn.Linear(10, 5), nn.Linear(5, 2)])

        def init_weights(module):
            if isinstance(module, nn.Linear):
                module.weight.data.fill_(0)
        module_list.apply(init_weights)
        for module in module_list:
            print(module.weight)
    run_both(example)


# Article 1: Tensor.apply_(callable)

@case
def tensor_apply_(lib):
    def add(x):
        return x + 1
    a = lib.tensor([[-1.6572, -0.7502, -0.9984], [0.3035, -0.6085, -0.1091]])  # the article's randn(2, 3)
    print(a)
    b = a.apply_(add)
    print(a)
    print(b)
    print(b is a)


@case
def tensor_apply_has_no_out_of_place_twin(lib):
    a = lib.tensor([[-1.6572, -0.7502, -0.9984], [0.3035, -0.6085, -0.1091]])
    a.apply(lambda x: x + 1)


# Article 1: Function.apply with the CustomReLUFunction (old ctx-in-forward style)

def custom_relu_function(lib):
    class CustomReLUFunction(lib.autograd.Function):
        @staticmethod
        def forward(ctx, *args, **kwargs):
            x = args[0]
            ctx.save_for_backward(x)
            return x.clamp(min=0)

        @staticmethod
        def backward(ctx, *grad_outputs):
            x, = ctx.saved_tensors
            grad_output = grad_outputs[0]
            grad_input = grad_output.clone()
            grad_input[x < 0] = 0
            return grad_input
    return CustomReLUFunction


@case
def custom_relu(lib):
    CustomReLUFunction = custom_relu_function(lib)
    custom_relu = CustomReLUFunction.apply
    a = lib.tensor([-1.8688, -0.0540, -0.6364, -0.9364, 1.2601], requires_grad=True)  # the article's randn(5)
    output = CustomReLUFunction.apply(a)
    output.backward(lib.ones_like(a))
    print(a)
    print(output)
    print(a.grad)
    return custom_relu(a)


# Article 1: the official LinearFunction (forward + setup_context + backward)

def linear_function(lib, print_grad_output=False):
    class LinearFunction(lib.autograd.Function):
        @staticmethod
        def forward(input, weight, bias):
            output = input.mm(weight.t())
            if bias is not None:
                output += bias.unsqueeze(0).expand_as(output)
            return output

        @staticmethod
        def setup_context(ctx, inputs, output):
            input, weight, bias = inputs
            ctx.save_for_backward(input, weight, bias)

        @staticmethod
        def backward(ctx, *grad_output):
            if print_grad_output:
                print(grad_output)
            x, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output[0].mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output[0].t().mm(x)
            if bias is not None and ctx.needs_input_grad[2]:
                grad_bias = grad_output[0].sum(0)
            return grad_input, grad_weight, grad_bias
    return LinearFunction


def linear_inputs(lib):
    a = lib.tensor([[1.0, 2.0, 3.0], [-1.0, 0.0, 1.0]])
    w = lib.tensor([[0.1, 0.2, 0.3], [0.4, 0.5, 0.6], [-0.1, -0.2, -0.3], [1.0, 0.0, -1.0]], requires_grad=True)
    b = lib.tensor([0.5, -0.5, 1.0, 0.0], requires_grad=True)
    return a, w, b


@case
def linear_function_official(lib):
    a, w, b = linear_inputs(lib)
    ln = linear_function(lib).apply(a, w, b)
    ln.backward(lib.ones(2, 4))
    no_bias = linear_function(lib).apply(a, w, None)
    return ln, w.grad, b.grad, a.grad, no_bias


@case
def linear_function_prints_grad_output(lib):
    linear = linear_function(lib, print_grad_output=True).apply
    a, w, b = linear_inputs(lib)
    ln = linear(a, w, b)
    ln.backward(lib.ones(2, 4))
    print(ln)
    return w.grad, b.grad


@case
def linear_function_gradcheck(lib):
    a, w, b = (t.detach().double().requires_grad_() for t in linear_inputs(lib))
    return lib.autograd.gradcheck(linear_function(lib).apply, (a, w, b), eps=1e-6, atol=1e-4)


# Article 1: MulConstant, plain and with set_materialize_grads(False)

def mul_constant(lib, materialize):
    class MulConstant(lib.autograd.Function):
        @staticmethod
        def forward(tensor, constant):
            return tensor * constant

        @staticmethod
        def setup_context(ctx, inputs, output):
            tensor, constant = inputs
            if not materialize:
                ctx.set_materialize_grads(False)
            ctx.constant = constant

        @staticmethod
        def backward(ctx, grad_output):
            if grad_output is None:
                return None, None
            return grad_output * ctx.constant, None
    return MulConstant


@pytest.mark.parametrize("materialize", [True, False], ids=["plain", "no_materialize"])
def test_mul_constant(run_both, materialize):
    def example(lib):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = mul_constant(lib, materialize).apply(x, 2.5)
        y.backward(lib.tensor([1.0, 1.0, 1.0]))
        print(y)
        print(x.grad)
        return y.grad_fn.constant
    run_both(example)


# Article 1: what loss.backward(grad) means, with torch.norm

@case
def norm_dim_retain_grad_backward(lib):
    x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)  # the article's randn(2, 3)
    y = lib.norm(x, dim=1)
    y.retain_grad()
    grad = lib.tensor([0.5, -1.0])  # the article's randn(2)
    y.backward(grad)
    print(grad)
    print(y.grad_fn)
    print(y.grad)
    print(x.grad)


@case
def norm_scalar_backward_of_one(lib):
    x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    z = lib.norm(x)
    z.retain_grad()
    grad = lib.tensor(1.0)
    z.backward(grad)
    print(z.grad_fn)
    print(z.grad)
    print(x.grad)


# Article 1 Q&A: a parameter gamma, old way (fails today) and new way

@case
def gamma_old_style(lib):
    class F(lib.autograd.Function):
        def __init__(self, gamma=0.1):
            super().__init__()
            self.gamma = gamma

        def forward(self, args):
            return args * self.gamma

        def backward(self, args):
            return args * self.gamma
    return F(0.5)(lib.tensor([1.0, 2.0], requires_grad=True))


@case
def gamma_new_style(lib):
    class F_new(lib.autograd.Function):  # noqa: N801  the article's name
        @staticmethod
        def forward(ctx, args, gamma):
            ctx.gamma = gamma
            return args * gamma

        @staticmethod
        def backward(ctx, args):
            return args * ctx.gamma, None
    inp = lib.tensor([1.0, 2.0], requires_grad=True)
    out = F_new.apply(inp, 0.5)
    out.sum().backward()
    print(out, inp.grad)
    return out.grad_fn.gamma            # the parameter lives on the per-call ctx, i.e. on grad_fn


# Article 2: the legacy MyReLU fails today; its migration to a static Function works

def legacy_my_relu(lib):
    class MyReLU(lib.autograd.Function):
        def forward(self, input_):
            self.save_for_backward(input_)
            output = input_.clamp(min=0)
            return output

        def backward(self, grad_output):
            input_, = self.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input_ < 0] = 0
            return grad_input
    return MyReLU


@case
def legacy_my_relu_creator(lib):
    input_ = lib.autograd.Variable(lib.tensor([0.7]))  # the article's Variable(torch.randn(1))
    relu = legacy_my_relu(lib)()
    return relu(input_)


@case
def legacy_my_relu_wrapped(lib):
    MyReLU = legacy_my_relu(lib)

    def relu(input_):
        return MyReLU()(input_)
    input_ = lib.autograd.Variable(lib.linspace(-3, 3, steps=5))
    print(input_)
    print(relu(input_))


@case
def migrated_my_relu(lib):
    class MyReLU(lib.autograd.Function):
        @staticmethod
        def forward(ctx, input_):
            ctx.save_for_backward(input_)
            return input_.clamp(min=0)

        @staticmethod
        def backward(ctx, grad_output):
            input_, = ctx.saved_tensors
            grad_input = grad_output.clone()
            grad_input[input_ < 0] = 0
            return grad_input

    def relu(input_):
        return MyReLU.apply(input_)
    input_ = lib.linspace(-3, 3, steps=5).requires_grad_()
    output_ = relu(input_)
    output_.sum().backward()
    print(input_)
    print(output_)
    print(output_.grad_fn.name(), input_.grad)


@pytest.mark.parametrize("name", list(CASES))
def test_seed_example(run_both, name):
    run_both(CASES[name])

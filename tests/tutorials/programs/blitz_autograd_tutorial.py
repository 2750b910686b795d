# "A Gentle Introduction to torch.autograd", PyTorch's 60 Minute Blitz:
#   https://pytorch.org/tutorials/beginner/blitz/autograd_tutorial.html
#   (source: github.com/pytorch/tutorials, beginner_source/blitz/autograd_tutorial.py)
# Every code block of the page, in its order, as one program (comments shortened to the code's). Changes, and
# only these:
# - No torchvision, no downloads: the line `from torchvision.models import resnet18, ResNet18_Weights` becomes the
#   small local stand-ins below (not part of the tutorial), so both `model = resnet18(weights=...)` lines stay as
#   published. The stand-in keeps what the tutorial relies on: input (1, 3, 64, 64), output (1, 1000), and a last
#   layer `model.fc` of 512 inputs; its weights are nn's default initialisation (no pretrained weights).
# - `torch.manual_seed(0)`, added after the imports: the data, labels and initial weights come from torch's
#   default generator with no seed, and PyTorch seeds that generator differently in every process
#   (torch.initial_seed() differs from run to run), so without it not even two runs on torch would print the same.
# - The page prints nothing in its training-step and finetuning parts. Added there, marked "added": the loss of
#   the training step, and the names of the parameters that still require gradients after freezing (the point of
#   that section: only model.fc's).
import torch
from torch import nn

torch.manual_seed(0)  # added: see the header


class ResNet18_Weights:  # stand-in: there are no pretrained weights here
    DEFAULT = None


class _StandInResNet(nn.Module):
    """Stand-in for torchvision's resnet18: a convolution, a max pool and a 512 -> 1000 `fc` layer."""

    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 8, kernel_size=3, padding=1)
        self.maxpool = nn.MaxPool2d(8)
        self.fc = nn.Linear(512, 1000)

    def forward(self, x):
        x = self.maxpool(torch.relu(self.conv1(x)))
        return self.fc(torch.flatten(x, 1))


def resnet18(weights=None):
    return _StandInResNet()


model = resnet18(weights=ResNet18_Weights.DEFAULT)
data = torch.rand(1, 3, 64, 64)
labels = torch.rand(1, 1000)

############################################################
# Next, we run the input data through the model through each of its layers to make a prediction.
# This is the **forward pass**.
#

prediction = model(data) # forward pass

############################################################
# We use the model's prediction and the corresponding label to calculate the error (``loss``).
# The next step is to backpropagate this error through the network.
#

loss = (prediction - labels).sum()
loss.backward() # backward pass
print(loss)  # added

############################################################
# Next, we load an optimizer, in this case SGD with a learning rate of 0.01 and momentum of 0.9.
# We register all the parameters of the model in the optimizer.
#

optim = torch.optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

######################################################################
# Finally, we call ``.step()`` to initiate gradient descent. The optimizer adjusts each parameter by its gradient stored in ``.grad``.
#

optim.step() #gradient descent

######################################################################
# Differentiation in Autograd
# ~~~~~~~~~~~~~~~~~~~~~~~~~~~
#

import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)

######################################################################
# We create another tensor ``Q`` from ``a`` and ``b``.
#
# .. math::
#    Q = 3a^3 - b^2

Q = 3*a**3 - b**2


######################################################################
# We need to explicitly pass a ``gradient`` argument in ``Q.backward()`` because it is a vector.
#
external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)


#######################################################################
# Gradients are now deposited in ``a.grad`` and ``b.grad``

# check if collected gradients are correct
print(9*a**2 == a.grad)
print(-2*b == b.grad)


######################################################################
# Exclusion from the DAG
# ^^^^^^^^^^^^^^^^^^^^^^
#
# The output tensor of an operation will require gradients even if only a
# single input tensor has ``requires_grad=True``.
#

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)

a = x + y
print(f"Does `a` require gradients? : {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")


######################################################################
# In finetuning, we freeze most of the model and typically only modify the classifier layers to make predictions on new labels.
# As before, we load a pretrained resnet18 model, and freeze all the parameters.

from torch import nn, optim

model = resnet18(weights=ResNet18_Weights.DEFAULT)

# Freeze all the parameters in the network
for param in model.parameters():
    param.requires_grad = False

######################################################################
# In resnet, the classifier is the last linear layer ``model.fc``.
# We can simply replace it with a new linear layer (unfrozen by default)
# that acts as our classifier.

model.fc = nn.Linear(512, 10)

######################################################################
# Now all parameters in the model, except the parameters of ``model.fc``, are frozen.
print([name for name, param in model.named_parameters() if param.requires_grad])  # added

# Optimize only the classifier
optimizer = optim.SGD(model.parameters(), lr=1e-2, momentum=0.9)

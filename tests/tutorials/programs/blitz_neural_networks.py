# "Neural Networks", PyTorch's 60 Minute Blitz (LeNet with conv2d and max_pool2d, MSELoss, backward, SGD):
#   https://pytorch.org/tutorials/beginner/blitz/neural_networks_tutorial.html
#   (source: github.com/pytorch/tutorials, beginner_source/blitz/neural_networks_tutorial.py)
# Every code block of the page, in its order, as one program. Changes, and only these:
# - `print(loss.grad_fn)` and the two prints of next_functions print a node's repr, which holds its memory
#   address (`<MseLossBackward0 object at 0x7f...>`), different in every run; here each goes through
#   no_address (defined below, not part of the tutorial), which drops the " at 0x..." part.
# - The page's last block (create an optim.SGD, zero_grad, forward, loss, backward, step) is shown as a code
#   block in the page's text; here it runs, and the loss after the step is printed (added, marked).
# - `torch.manual_seed(0)`, added after the imports: the weights, the input and the dummy target come from torch's
#   default generator with no seed, and PyTorch seeds that generator differently in every process
#   (torch.initial_seed() differs from run to run), so without it not even two runs on torch would print the same.
import re

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)  # added: see the header


def no_address(obj):
    """Return repr(obj) without the memory address that the repr of an autograd node holds."""
    return re.sub(r" at 0x[0-9a-fA-F]+", "", repr(obj))


class Net(nn.Module):

    def __init__(self):
        super(Net, self).__init__()
        # 1 input image channel, 6 output channels, 5x5 square convolution
        # kernel
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        # an affine operation: y = Wx + b
        self.fc1 = nn.Linear(16 * 5 * 5, 120)  # 5*5 from image dimension 
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, input):
        # Convolution layer C1: 1 input image channel, 6 output channels,
        # 5x5 square convolution, it uses RELU activation function, and
        # outputs a Tensor with size (N, 6, 28, 28), where N is the size of the batch
        c1 = F.relu(self.conv1(input))
        # Subsampling layer S2: 2x2 grid, purely functional,
        # this layer does not have any parameter, and outputs a (N, 16, 14, 14) Tensor
        s2 = F.max_pool2d(c1, (2, 2))
        # Convolution layer C3: 6 input channels, 16 output channels,
        # 5x5 square convolution, it uses RELU activation function, and
        # outputs a (N, 16, 10, 10) Tensor
        c3 = F.relu(self.conv2(s2))
        # Subsampling layer S4: 2x2 grid, purely functional,
        # this layer does not have any parameter, and outputs a (N, 16, 5, 5) Tensor
        s4 = F.max_pool2d(c3, 2)
        # Flatten operation: purely functional, outputs a (N, 400) Tensor
        s4 = torch.flatten(s4, 1)
        # Fully connected layer F5: (N, 400) Tensor input,
        # and outputs a (N, 120) Tensor, it uses RELU activation function
        f5 = F.relu(self.fc1(s4))
        # Fully connected layer F6: (N, 120) Tensor input,
        # and outputs a (N, 84) Tensor, it uses RELU activation function
        f6 = F.relu(self.fc2(f5))
        # Gaussian layer OUTPUT: (N, 84) Tensor input, and
        # outputs a (N, 10) Tensor
        output = self.fc3(f6)
        return output


net = Net()
print(net)

########################################################################
# The learnable parameters of a model are returned by ``net.parameters()``

params = list(net.parameters())
print(len(params))
print(params[0].size())  # conv1's .weight

########################################################################
# Let's try a random 32x32 input.
# Note: expected input size of this net (LeNet) is 32x32. To use this net on
# the MNIST dataset, please resize the images from the dataset to 32x32.

input = torch.randn(1, 1, 32, 32)
out = net(input)
print(out)

########################################################################
# Zero the gradient buffers of all parameters and backprops with random
# gradients:
net.zero_grad()
out.backward(torch.randn(1, 10))

########################################################################
# Loss Function
# -------------
# A simple loss is: ``nn.MSELoss`` which computes the mean-squared error
# between the output and the target.
#
# For example:

output = net(input)
target = torch.randn(10)  # a dummy target, for example
target = target.view(1, -1)  # make it the same shape as output
criterion = nn.MSELoss()

loss = criterion(output, target)
print(loss)

########################################################################
# For illustration, let us follow a few steps backward:

print(no_address(loss.grad_fn))  # MSELoss
print(no_address(loss.grad_fn.next_functions[0][0]))  # Linear
print(no_address(loss.grad_fn.next_functions[0][0].next_functions[0][0]))  # ReLU

########################################################################
# Backprop
# --------
# Now we shall call ``loss.backward()``, and have a look at conv1's bias
# gradients before and after the backward.


net.zero_grad()     # zeroes the gradient buffers of all parameters

print('conv1.bias.grad before backward')
print(net.conv1.bias.grad)

loss.backward()

print('conv1.bias.grad after backward')
print(net.conv1.bias.grad)

########################################################################
# Update the weights
# ------------------
# [the page's code block:]

import torch.optim as optim

# create your optimizer
optimizer = optim.SGD(net.parameters(), lr=0.01)

# in your training loop:
optimizer.zero_grad()   # zero the gradient buffers
output = net(input)
loss = criterion(output, target)
loss.backward()
optimizer.step()    # Does the update
print(criterion(net(input), target))  # added: the loss after the step

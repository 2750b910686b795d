# "Optimizing Model Parameters", PyTorch's "Learn the Basics" (the NeuralNetwork model trained with
# CrossEntropyLoss and SGD, train_loop and test_loop over DataLoaders):
#   https://pytorch.org/tutorials/beginner/basics/optimization_tutorial.html
#   (source: github.com/pytorch/tutorials, beginner_source/basics/optimization_tutorial.py)
# Every code block of the page, in its order, as one program (the page's prose left out). Changes, and only these:
# - No torchvision, no downloads: in place of `datasets.FashionMNIST(root="data", train=..., download=True,
#   transform=ToTensor())` (60000 / 10000 grey images of 1x28x28 in [0, 1], labels 0..9), a synthetic
#   TensorDataset of the same shapes and types: 320 training and 128 test "images" from torch.rand and labels
#   from torch.randint, after torch.manual_seed(0). The two torchvision imports go; TensorDataset is imported.
# - `epochs = 10` before the final loop becomes `epochs = 2`.
# Everything else (the model, the hyperparameters, the two loops and their prints) is as published.
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
training_data = TensorDataset(torch.rand(320, 1, 28, 28), torch.randint(0, 10, (320,)))
test_data = TensorDataset(torch.rand(128, 1, 28, 28), torch.randint(0, 10, (128,)))

train_dataloader = DataLoader(training_data, batch_size=64)
test_dataloader = DataLoader(test_data, batch_size=64)

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()


##############################################
# Hyperparameters
# -----------------

learning_rate = 1e-3
batch_size = 64
epochs = 5



#####################################
# Loss Function
# ~~~~~~~~~~~~~~~~~

# Initialize the loss function
loss_fn = nn.CrossEntropyLoss()



#####################################
# Optimizer
# ~~~~~~~~~~~~~~~~~

optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)


########################################
# Full Implementation
# -----------------------

def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    # Set the model to training mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        # Compute prediction and loss
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 100 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    # Set the model to evaluation mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0

    # Evaluating the model with torch.no_grad() ensures that no gradients are computed during test mode
    # also serves to reduce unnecessary gradient computations and memory usage for tensors with requires_grad=True
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()

    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


########################################
# We initialize the loss function and optimizer, and pass it to ``train_loop`` and ``test_loop``.

loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

epochs = 2
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")

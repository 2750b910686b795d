# "Saving and Loading Models", PyTorch tutorials (Matthew Inkawhich):
#   https://pytorch.org/tutorials/beginner/saving_loading_models.html
#   (source: github.com/pytorch/tutorials, beginner_source/saving_loading_models.py)
# The page's code blocks are fragments (`PATH`, `TheModelClass(*args, **kwargs)`, `...`); here they are, in their
# order, one program. Changes, and only these:
# - torch.manual_seed(0) first, and PATH is a file in a temporary folder (a new one for each section's file).
# - The `*args, **kwargs` of `TheModelClass(*args, **kwargs)` are dropped (the class takes none); the optimizer
#   of each checkpoint is the page's `optim.SGD(model.parameters(), lr=0.001, momentum=0.9)`, and "TheModelBClass"
#   of the warmstart section is TheModelClass with one more layer, `fc4` (so that strict=False has a key to skip).
# - The general checkpoint's `epoch` and `loss` come from two SGD steps on a random batch of 4 CIFAR-sized images
#   (torch.rand(4, 3, 32, 32), labels from torch.randint), with nn.CrossEntropyLoss, the blitz classifier's loss.
# - The page prints only the state_dicts; after each load, this program prints what came back: the keys, the
#   checkpoint's epoch and loss, load_state_dict's result, whether each loaded tensor equals the saved one
#   (torch.equal), and the model's output on the batch (its sum, 4 decimals) after model.eval().
# - The optimizer's `params` print as indices ([0, 1, ...]), as in PyTorch today (the page shows old addresses).
# - The GPU sections ("Save on GPU, Load on GPU", "Save on CPU, Load on GPU", DataParallel) are left out: they need
#   CUDA. "Save on GPU, Load on CPU" runs as written (map_location=torch.device('cpu')); "Saving an Exported
#   Program" (torch.export) is left out.
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.optim as optim

torch.manual_seed(0)
folder = tempfile.mkdtemp()
inputs, labels = torch.rand(4, 3, 32, 32), torch.randint(0, 10, (4,))


def same(a, b):
    """Whether two state_dicts hold the same names and equal tensors."""
    return list(a) == list(b) and all(torch.equal(a[k], b[k]) for k in a)


def output_sum(model):
    with torch.no_grad():
        return f"{model(inputs).sum().item():.4f}"


######################################################################
# What is a ``state_dict``?
# Define model
class TheModelClass(nn.Module):
    def __init__(self):
        super(TheModelClass, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.view(-1, 16 * 5 * 5)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

# Initialize model
model = TheModelClass()

# Initialize optimizer
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

# Print model's state_dict
print("Model's state_dict:")
for param_tensor in model.state_dict():
    print(param_tensor, "\t", model.state_dict()[param_tensor].size())

# Print optimizer's state_dict
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])


######################################################################
# Saving & Loading Model for Inference: Save/Load ``state_dict`` (Recommended)
PATH = os.path.join(folder, "model_weights.pt")
saved = model.state_dict()
torch.save(model.state_dict(), PATH)

model = TheModelClass()
model.load_state_dict(torch.load(PATH, weights_only=True))
model.eval()
print("state_dict loaded:", same(model.state_dict(), saved), output_sum(model))

# Save/Load Entire Model
PATH = os.path.join(folder, "model.pt")
torch.save(model, PATH)

# Model class must be defined somewhere
model = torch.load(PATH, weights_only=False)
model.eval()
print("entire model loaded:", type(model).__name__, same(model.state_dict(), saved), output_sum(model))


######################################################################
# Saving & Loading a General Checkpoint for Inference and/or Resuming Training
criterion = nn.CrossEntropyLoss()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)
for epoch in range(2):
    optimizer.zero_grad()
    loss = criterion(model(inputs), labels)
    loss.backward()
    optimizer.step()

PATH = os.path.join(folder, "checkpoint.tar")
torch.save({
            'epoch': epoch,
            'model_state_dict': model.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(),
            'loss': loss,
            }, PATH)

saved, saved_optimizer = model.state_dict(), optimizer.state_dict()
model = TheModelClass()
optimizer = optim.SGD(model.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH, weights_only=True)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']

model.eval()
# - or -
model.train()
print("checkpoint:", sorted(checkpoint), "epoch", epoch, "loss", f"{loss.item():.4f}", loss.requires_grad)
print("model", same(model.state_dict(), saved), "optimizer", optimizer.state_dict()['param_groups'])
print("momentum buffers equal:", all(torch.equal(optimizer.state_dict()['state'][i]['momentum_buffer'],
                                                 saved_optimizer['state'][i]['momentum_buffer'])
                                     for i in saved_optimizer['state']))


######################################################################
# Saving Multiple Models in One File
modelA, modelB = TheModelClass(), TheModelClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)
PATH = os.path.join(folder, "models.tar")
torch.save({
            'modelA_state_dict': modelA.state_dict(),
            'modelB_state_dict': modelB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
            }, PATH)
savedA, savedB = modelA.state_dict(), modelB.state_dict()

modelA = TheModelClass()
modelB = TheModelClass()
optimizerA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH, weights_only=True)
modelA.load_state_dict(checkpoint['modelA_state_dict'])
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optimizerA.load_state_dict(checkpoint['optimizerA_state_dict'])
optimizerB.load_state_dict(checkpoint['optimizerB_state_dict'])

modelA.eval()
modelB.eval()
# - or -
modelA.train()
modelB.train()
print("two models:", same(modelA.state_dict(), savedA), same(modelB.state_dict(), savedB),
      output_sum(modelA), output_sum(modelB))


######################################################################
# Warmstarting Model Using Parameters from a Different Model
class TheModelBClass(TheModelClass):
    def __init__(self):
        super().__init__()
        self.fc4 = nn.Linear(10, 2)

PATH = os.path.join(folder, "modelA.pt")
torch.save(modelA.state_dict(), PATH)

modelB = TheModelBClass()
print(modelB.load_state_dict(torch.load(PATH, weights_only=True), strict=False))
print("warmstarted:", all(torch.equal(modelB.state_dict()[k], v) for k, v in savedA.items()))


######################################################################
# Saving & Loading Model Across Devices: Save on GPU, Load on CPU
PATH = os.path.join(folder, "model_cpu.pt")
torch.save(model.state_dict(), PATH)

device = torch.device('cpu')
model = TheModelClass()
model.load_state_dict(torch.load(PATH, map_location=device, weights_only=True))
print("map_location=cpu:", output_sum(model))

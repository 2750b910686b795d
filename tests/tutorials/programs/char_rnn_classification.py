# "NLP From Scratch: Classifying Names with a Character-Level RNN", PyTorch's tutorial in its 2025 form (names as
# one-hot letter tensors in a `Dataset`, `random_split`, a `CharRNN` of nn.RNN -> nn.Linear -> nn.LogSoftmax,
# trained in minibatches with NLLLoss, clip_grad_norm_ and SGD, then a confusion matrix on the held-out names):
#   https://pytorch.org/tutorials/intermediate/char_rnn_classification_tutorial.html
#   (source: github.com/pytorch/tutorials, intermediate_source/char_rnn_classification_tutorial.py)
# Every code block of the page, in its order, as one program (the prose left out). Changes, and only these:
# - No download of data.zip (18 files, 20,074 names): a few names for each of 8 languages are embedded below, and
#   written as data/names/<Language>.txt into a TemporaryDirectory, which `NamesDataset` then reads as published.
# - `sorted(glob.glob(...))` in `NamesDataset`: the order in which a directory lists its files differs between
#   two directories, so the two runs would number the names differently.
# - `torch.manual_seed(0)` and `random.seed(0)` after the imports: the page seeds only random_split's generator,
#   so the weights and the shuffled batches would change from run to run.
# - The wall-clock time of the training is not printed; matplotlib draws on the Agg backend (no window), and
#   `evaluate` also prints the confusion matrix that it plots.
import os
import random
import tempfile

import matplotlib

matplotlib.use("Agg")  # added: see the header

NAMES = {  # added: see the header
    "Chinese": ["Ang", "Bai", "Chan", "Chen", "Deng", "Fang", "Gao", "Huang", "Liu", "Zhou"],
    "English": ["Adams", "Baker", "Clarke", "Davies", "Evans", "Fisher", "Green", "Hughes", "Jackson", "Walker"],
    "French": ["Bernard", "Blanc", "Dubois", "Durand", "Fournier", "Girard", "Lefèvre", "Moreau", "Rousseau",
               "Vincent"],
    "German": ["Bauer", "Becker", "Fischer", "Hoffmann", "Keller", "Koch", "Müller", "Schmidt", "Schneider",
               "Wagner"],
    "Italian": ["Abate", "Bianchi", "Colombo", "Esposito", "Ferrari", "Gallo", "Greco", "Ricci", "Romano", "Russo"],
    "Japanese": ["Abe", "Fujita", "Hayashi", "Inoue", "Kato", "Kobayashi", "Nakamura", "Sato", "Tanaka",
                 "Yamamoto"],
    "Russian": ["Abramov", "Bogdanov", "Ivanov", "Kuznetsov", "Morozov", "Petrov", "Popov", "Smirnov", "Sokolov",
                "Volkov"],
    "Spanish": ["Alvarez", "Castillo", "Díaz", "Fernandez", "García", "Gómez", "Lopez", "Martinez", "Ramos",
                "Torres"],
}
scratch = tempfile.TemporaryDirectory()  # added: see the header
os.makedirs(os.path.join(scratch.name, "data", "names"))
for language, names in NAMES.items():
    with open(os.path.join(scratch.name, "data", "names", language + ".txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(names) + "\n")

######################################################################
# Preparing Torch
# ==========================

import torch

# Check if CUDA is available
device = torch.device('cpu')
if torch.cuda.is_available():
    device = torch.device('cuda')

torch.set_default_device(device)
print(f"Using device = {torch.get_default_device()}")

torch.manual_seed(0)  # added: see the header
random.seed(0)  # added: see the header

######################################################################
# Preparing the Data
# ==================

import string
import unicodedata

# We can use "_" to represent an out-of-vocabulary character, that is, any character we are not handling in our model
allowed_characters = string.ascii_letters + " .,;'" + "_"
n_letters = len(allowed_characters)

# Turn a Unicode string to plain ASCII, thanks to https://stackoverflow.com/a/518232/2809427
def unicodeToAscii(s):
    return ''.join(
        c for c in unicodedata.normalize('NFD', s)
        if unicodedata.category(c) != 'Mn'
        and c in allowed_characters
    )

#########################
# Here's an example of converting a unicode alphabet name to plain ASCII. This simplifies the input layer

print (f"converting 'Ślusàrski' to {unicodeToAscii('Ślusàrski')}")

######################################################################
# Turning Names into Tensors
# ==========================

# Find letter index from all_letters, e.g. "a" = 0
def letterToIndex(letter):
    # return our out-of-vocabulary character if we encounter a letter unknown to our model
    if letter not in allowed_characters:
        return allowed_characters.find("_")
    else:
        return allowed_characters.find(letter)

# Turn a line into a <line_length x 1 x n_letters>,
# or an array of one-hot letter vectors
def lineToTensor(line):
    tensor = torch.zeros(len(line), 1, n_letters)
    for li, letter in enumerate(line):
        tensor[li][0][letterToIndex(letter)] = 1
    return tensor

#########################
# Here are some examples of how to use ``lineToTensor()`` for a single and multiple character string.

print (f"The letter 'a' becomes {lineToTensor('a')}") #notice that the first position in the tensor = 1
print (f"The name 'Ahn' becomes {lineToTensor('Ahn')}") #notice 'A' sets the 27th index to 1

#########################
# Congratulations, you have built the foundational tensor objects for this learning task! You can use a similar
# approach for other RNN tasks with text.
#
# Next, we need to combine all our examples into a dataset so we can train, test and validate our models.

from io import open
import glob
import os
import time

import torch
from torch.utils.data import Dataset

class NamesDataset(Dataset):

    def __init__(self, data_dir):
        self.data_dir = data_dir #for provenance of the dataset
        self.load_time = time.localtime #for provenance of the dataset
        labels_set = set() #set of all classes

        self.data = []
        self.data_tensors = []
        self.labels = []
        self.labels_tensors = []

        #read all the ``.txt`` files in the specified directory
        text_files = sorted(glob.glob(os.path.join(data_dir, '*.txt')))  # sorted: see the header
        for filename in text_files:
            label = os.path.splitext(os.path.basename(filename))[0]
            labels_set.add(label)
            lines = open(filename, encoding='utf-8').read().strip().split('\n')
            for name in lines:
                self.data.append(name)
                self.data_tensors.append(lineToTensor(name))
                self.labels.append(label)

        #Cache the tensor representation of the labels
        self.labels_uniq = list(labels_set)
        for idx in range(len(self.labels)):
            temp_tensor = torch.tensor([self.labels_uniq.index(self.labels[idx])], dtype=torch.long)
            self.labels_tensors.append(temp_tensor)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, idx):
        data_item = self.data[idx]
        data_label = self.labels[idx]
        data_tensor = self.data_tensors[idx]
        label_tensor = self.labels_tensors[idx]

        return label_tensor, data_tensor, data_label, data_item


#########################
# Here we can load our example data into the ``NamesDataset``

alldata = NamesDataset(os.path.join(scratch.name, "data", "names"))  # the embedded names: see the header
print(f"loaded {len(alldata)} items of data")
print(f"example = {alldata[0]}")

#########################
# Using the dataset object allows us to easily split the data into train and test sets. Here we create a 80/20
# split but the ``torch.utils.data`` has more useful utilities. Here we specify a generator since we need to use the
# same device as PyTorch defaults to above.

train_set, test_set = torch.utils.data.random_split(alldata, [.85, .15], generator=torch.Generator(device=device).manual_seed(2024))

print(f"train examples = {len(train_set)}, validation examples = {len(test_set)}")

######################################################################
# Creating the Network
# ====================

import torch.nn as nn
import torch.nn.functional as F

class CharRNN(nn.Module):
    def __init__(self, input_size, hidden_size, output_size):
        super(CharRNN, self).__init__()

        self.rnn = nn.RNN(input_size, hidden_size)
        self.h2o = nn.Linear(hidden_size, output_size)
        self.softmax = nn.LogSoftmax(dim=1)

    def forward(self, line_tensor):
        rnn_out, hidden = self.rnn(line_tensor)
        output = self.h2o(hidden[0])
        output = self.softmax(output)

        return output


###########################
# We can then create an RNN with 58 input nodes, 128 hidden nodes, and 18 outputs:

n_hidden = 128
rnn = CharRNN(n_letters, n_hidden, len(alldata.labels_uniq))
print(rnn)

######################################################################
# After that we can pass our Tensor to the RNN to obtain a predicted output. Subsequently,
# we use a helper function, ``label_from_output``, to derive a text label for the class.

def label_from_output(output, output_labels):
    top_n, top_i = output.topk(1)
    label_i = top_i[0].item()
    return output_labels[label_i], label_i

input = lineToTensor('Albert')
output = rnn(input) #this is equivalent to ``output = rnn.forward(input)``
print(output)
print(label_from_output(output, alldata.labels_uniq))

######################################################################
#
# Training
# ========

import random
import numpy as np

def train(rnn, training_data, n_epoch = 10, n_batch_size = 64, report_every = 50, learning_rate = 0.2, criterion = nn.NLLLoss()):
    """
    Learn on a batch of training_data for a specified number of iterations and reporting thresholds
    """
    # Keep track of losses for plotting
    current_loss = 0
    all_losses = []
    rnn.train()
    optimizer = torch.optim.SGD(rnn.parameters(), lr=learning_rate)

    start = time.time()
    print(f"training on data set with n = {len(training_data)}")

    for iter in range(1, n_epoch + 1):
        rnn.zero_grad() # clear the gradients

        # create some minibatches
        # we cannot use dataloaders because each of our names is a different length
        batches = list(range(len(training_data)))
        random.shuffle(batches)
        batches = np.array_split(batches, len(batches) //n_batch_size )

        for idx, batch in enumerate(batches):
            batch_loss = 0
            for i in batch: #for each example in this batch
                (label_tensor, text_tensor, label, text) = training_data[i]
                output = rnn.forward(text_tensor)
                loss = criterion(output, label_tensor)
                batch_loss += loss

            # optimize parameters
            batch_loss.backward()
            nn.utils.clip_grad_norm_(rnn.parameters(), 3)
            optimizer.step()
            optimizer.zero_grad()

            current_loss += batch_loss.item() / len(batch)

        all_losses.append(current_loss / len(batches) )
        if iter % report_every == 0:
            print(f"{iter} ({iter / n_epoch:.0%}): \t average batch loss = {all_losses[-1]}")
        current_loss = 0

    return all_losses

##########################################################################
# We can now train a dataset with minibatches for a specified number of epochs. The number of epochs for this
# example is reduced to speed up the build. You can get better results with different parameters.

start = time.time()
all_losses = train(rnn, train_set, n_epoch=27, learning_rate=0.15, report_every=5)
end = time.time()
# print(f"training took {end-start}s")   # left out: see the header

######################################################################
# Plotting the Results
# --------------------

import matplotlib.pyplot as plt
import matplotlib.ticker as ticker

plt.figure()
plt.plot(all_losses)
plt.show()

######################################################################
# Evaluating the Results
# ======================

def evaluate(rnn, testing_data, classes):
    confusion = torch.zeros(len(classes), len(classes))

    rnn.eval() #set to eval mode
    with torch.no_grad(): # do not record the gradients during eval phase
        for i in range(len(testing_data)):
            (label_tensor, text_tensor, label, text) = testing_data[i]
            output = rnn(text_tensor)
            guess, guess_i = label_from_output(output, classes)
            label_i = classes.index(label)
            confusion[label_i][guess_i] += 1

    # Normalize by dividing every row by its sum
    for i in range(len(classes)):
        denom = confusion[i].sum()
        if denom > 0:
            confusion[i] = confusion[i] / denom
    print(confusion)  # added: see the header

    # Set up plot
    fig = plt.figure()
    ax = fig.add_subplot(111)
    cax = ax.matshow(confusion.cpu().numpy()) #numpy uses cpu here so we need to use a cpu version
    fig.colorbar(cax)

    # Set up axes
    ax.set_xticks(np.arange(len(classes)), labels=classes, rotation=90)
    ax.set_yticks(np.arange(len(classes)), labels=classes)

    # Force label at every tick
    ax.xaxis.set_major_locator(ticker.MultipleLocator(1))
    ax.yaxis.set_major_locator(ticker.MultipleLocator(1))

    # sphinx_gallery_thumbnail_number = 2
    plt.show()



evaluate(rnn, test_set, classes=alldata.labels_uniq)

# Dive into Deep Learning, section 3.5 "Concise Implementation of Linear Regression", the PyTorch tab:
#   https://d2l.ai/chapter_linear-regression/linear-regression-concise.html
#   (source: github.com/d2l-ai/d2l-en, chapter_linear-regression/linear-regression-concise.md)
# Its PyTorch cells in order, as one program. Changes, and only these:
# - The `d2l` package is not available (and would import torchvision, matplotlib, pandas, ...). The few parts of
#   it that this section uses are inlined below, copied from d2l/torch.py (the versions of sections 3.2
#   "Object-Oriented Design", 3.3 "Synthetic Regression Data" and, for Trainer.prepare_batch and fit_epoch, 3.4
#   "Linear Regression Implementation from Scratch"): add_to_class, HyperParameters, ProgressBoard, Module,
#   DataModule, Trainer, SyntheticRegressionData and the aliases cpu, numpy, to, normal, zeros, tensor, matmul,
#   reshape, reduce_mean, randn; they are collected in a namespace named `d2l`, so the section's code
#   (`d2l.Module`, `@d2l.add_to_class(LinearRegression)`, ...) is unchanged.
# - No plots: ProgressBoard.draw keeps its averaging of points (every_n) and leaves out the matplotlib drawing.
#   In place of the figure that trainer.fit shows, the points it would draw are printed after training (added,
#   marked), 4 decimals.
# The model is nn.LazyLinear(1), as published: its weight.data.normal_ on the still uninitialised parameter is
# overwritten when the first batch materialises it (nn's default initialisation), in torch as in the book.
# - `torch.manual_seed(0)`, added after the imports: the data, the initial weights and the DataLoader's shuffling
#   come from torch's default generator with no seed, and PyTorch seeds that generator differently in every
#   process (torch.initial_seed() differs from run to run), so without it not even two runs on torch would print
#   the same.
import collections
import inspect
import types

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)  # added: see the header


# ---- the parts of d2l (d2l/torch.py) that this section uses, inlined --------------------------------------
def add_to_class(Class):  #@save
    """Register functions as methods in created class."""
    def wrapper(obj):
        setattr(Class, obj.__name__, obj)
    return wrapper


class HyperParameters:  #@save
    """The base class of hyperparameters."""
    def save_hyperparameters(self, ignore=[]):
        """Save function arguments into class attributes."""
        frame = inspect.currentframe().f_back
        _, _, _, local_vars = inspect.getargvalues(frame)
        self.hparams = {k:v for k, v in local_vars.items()
                        if k not in set(ignore+['self']) and not k.startswith('_')}
        for k, v in self.hparams.items():
            setattr(self, k, v)


class ProgressBoard(HyperParameters):  #@save
    """The board that plots data points in animation."""
    def __init__(self, xlabel=None, ylabel=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'],
                 fig=None, axes=None, figsize=(3.5, 2.5), display=True):
        self.save_hyperparameters()

    def draw(self, x, y, label, every_n=1):
        Point = collections.namedtuple('Point', ['x', 'y'])
        if not hasattr(self, 'raw_points'):
            self.raw_points = collections.OrderedDict()
            self.data = collections.OrderedDict()
        if label not in self.raw_points:
            self.raw_points[label] = []
            self.data[label] = []
        points = self.raw_points[label]
        line = self.data[label]
        points.append(Point(x, y))
        if len(points) != every_n:
            return
        mean = lambda x: sum(x) / len(x)
        line.append(Point(mean([p.x for p in points]),
                          mean([p.y for p in points])))
        points.clear()
        # (the matplotlib drawing of d2l's draw is left out)


class Module(nn.Module, HyperParameters):  #@save
    """The base class of models."""
    def __init__(self, plot_train_per_epoch=2, plot_valid_per_epoch=1):
        super().__init__()
        self.save_hyperparameters()
        self.board = ProgressBoard()

    def loss(self, y_hat, y):
        raise NotImplementedError

    def forward(self, X):
        assert hasattr(self, 'net'), 'Neural network is defined'
        return self.net(X)

    def plot(self, key, value, train):
        """Plot a point in animation."""
        assert hasattr(self, 'trainer'), 'Trainer is not inited'
        self.board.xlabel = 'epoch'
        if train:
            x = self.trainer.train_batch_idx / \
                self.trainer.num_train_batches
            n = self.trainer.num_train_batches / \
                self.plot_train_per_epoch
        else:
            x = self.trainer.epoch + 1
            n = self.trainer.num_val_batches / \
                self.plot_valid_per_epoch
        self.board.draw(x, d2l.numpy(d2l.to(value, d2l.cpu())),
                        ('train_' if train else 'val_') + key,
                        every_n=int(n))

    def training_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.plot('loss', l, train=True)
        return l

    def validation_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.plot('loss', l, train=False)

    def configure_optimizers(self):
        raise NotImplementedError


class DataModule(HyperParameters):  #@save
    """The base class of data."""
    def __init__(self, root='../data', num_workers=4):
        self.save_hyperparameters()

    def get_dataloader(self, train):
        raise NotImplementedError

    def train_dataloader(self):
        return self.get_dataloader(train=True)

    def val_dataloader(self):
        return self.get_dataloader(train=False)

    def get_tensorloader(self, tensors, train, indices=slice(0, None)):
        tensors = tuple(a[indices] for a in tensors)
        dataset = torch.utils.data.TensorDataset(*tensors)
        return torch.utils.data.DataLoader(dataset, self.batch_size,
                                           shuffle=train)


class Trainer(HyperParameters):  #@save
    """The base class for training models with data."""
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0):
        self.save_hyperparameters()
        assert num_gpus == 0, 'No GPU support yet'

    def prepare_data(self, data):
        self.train_dataloader = data.train_dataloader()
        self.val_dataloader = data.val_dataloader()
        self.num_train_batches = len(self.train_dataloader)
        self.num_val_batches = (len(self.val_dataloader)
                                if self.val_dataloader is not None else 0)

    def prepare_model(self, model):
        model.trainer = self
        model.board.xlim = [0, self.max_epochs]
        self.model = model

    def fit(self, model, data):
        self.prepare_data(data)
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        self.epoch = 0
        self.train_batch_idx = 0
        self.val_batch_idx = 0
        for self.epoch in range(self.max_epochs):
            self.fit_epoch()

    def prepare_batch(self, batch):
        """Defined in :numref:`sec_linear_scratch`"""
        return batch

    def fit_epoch(self):
        """Defined in :numref:`sec_linear_scratch`"""
        self.model.train()
        for batch in self.train_dataloader:
            loss = self.model.training_step(self.prepare_batch(batch))
            self.optim.zero_grad()
            with torch.no_grad():
                loss.backward()
                if self.gradient_clip_val > 0:  # To be discussed later
                    self.clip_gradients(self.gradient_clip_val, self.model)
                self.optim.step()
            self.train_batch_idx += 1
        if self.val_dataloader is None:
            return
        self.model.eval()
        for batch in self.val_dataloader:
            with torch.no_grad():
                self.model.validation_step(self.prepare_batch(batch))
            self.val_batch_idx += 1


class SyntheticRegressionData(DataModule):  #@save
    """Synthetic data for linear regression."""
    def __init__(self, w, b, noise=0.01, num_train=1000, num_val=1000,
                 batch_size=32):
        super().__init__()
        self.save_hyperparameters()
        n = num_train + num_val
        self.X = d2l.randn(n, len(w))
        noise = d2l.randn(n, 1) * noise
        self.y = d2l.matmul(self.X, d2l.reshape(w, (-1, 1))) + b + noise

    def get_dataloader(self, train):
        i = slice(0, self.num_train) if train else slice(self.num_train, None)
        return self.get_tensorloader((self.X, self.y), train, i)


d2l = types.SimpleNamespace(
    add_to_class=add_to_class, HyperParameters=HyperParameters, ProgressBoard=ProgressBoard, Module=Module,
    DataModule=DataModule, Trainer=Trainer, SyntheticRegressionData=SyntheticRegressionData,
    cpu=lambda: torch.device('cpu'),
    numpy=lambda x, *args, **kwargs: x.detach().numpy(*args, **kwargs),
    to=lambda x, *args, **kwargs: x.to(*args, **kwargs),
    normal=torch.normal, zeros=torch.zeros, tensor=torch.tensor, matmul=torch.matmul, randn=torch.randn,
    reshape=lambda x, *args, **kwargs: x.reshape(*args, **kwargs),
    reduce_mean=lambda x, *args, **kwargs: x.mean(*args, **kwargs))
# ---- end of the inlined d2l; from here on, the section's PyTorch cells -------------------------------------


class LinearRegression(d2l.Module):  #@save
    """The linear regression model implemented with high-level APIs."""
    def __init__(self, lr):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.LazyLinear(1)
        self.net.weight.data.normal_(0, 0.01)
        self.net.bias.data.fill_(0)


@d2l.add_to_class(LinearRegression)  #@save
def forward(self, X):
    return self.net(X)


@d2l.add_to_class(LinearRegression)  #@save
def loss(self, y_hat, y):
    fn = nn.MSELoss()
    return fn(y_hat, y)


@d2l.add_to_class(LinearRegression)  #@save
def configure_optimizers(self):
    return torch.optim.SGD(self.parameters(), self.lr)


model = LinearRegression(lr=0.03)
data = d2l.SyntheticRegressionData(w=d2l.tensor([2, -3.4]), b=4.2)
trainer = d2l.Trainer(max_epochs=3)
trainer.fit(model, data)
for label, line in model.board.data.items():  # added: the points of the figure
    print(label, ' '.join(f'({p.x:.4f}, {p.y:.4f})' for p in line))


@d2l.add_to_class(LinearRegression)  #@save
def get_w_b(self):
    return (self.net.weight.data, self.net.bias.data)

w, b = model.get_w_b()

print(f'error in estimating w: {data.w - d2l.reshape(w, data.w.shape)}')
print(f'error in estimating b: {data.b - b}')

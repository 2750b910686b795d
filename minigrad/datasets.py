"""Small datasets generated with numpy from a seed: no download, the same data on every machine.

`make_moons` and `make_spirals` are 2-D point clouds for classifiers you can plot; `make_digits` is a tiny
8x8 digits-like image set. Each returns `(X, y)`: float32 inputs and int64 class labels, as minigrad tensors,
ready for `nn.CrossEntropyLoss`.

Example:
    >>> from minigrad.datasets import make_moons
    >>> X, y = make_moons(200, noise=0.1, seed=0)
    >>> X.shape, y.shape
    (torch.Size([200, 2]), torch.Size([200]))
"""
import numpy as np

from ._tensor.creation import from_numpy


def _as_tensors(X, y, rng):
    order = rng.permutation(len(y))   # shuffle, so that a prefix of the data has every class
    return from_numpy(np.ascontiguousarray(X[order], np.float32)), from_numpy(y[order].astype(np.int64))


def make_moons(n_samples=200, noise=0.1, seed=0):
    """Return two interleaving half circles in 2-D (class 0 on top, class 1 below), shuffled.

    Same shapes as `sklearn.datasets.make_moons`: the upper moon is (cos t, sin t), the lower one
    (1 - cos t, 0.5 - sin t), for t in [0, pi]; then Gaussian noise of standard deviation `noise`.

    Args:
        n_samples: total number of points (split as evenly as possible between the two moons).
        noise: standard deviation of the Gaussian noise added to every coordinate.
        seed: seed of the numpy generator; the same seed gives the same data.

    Returns:
        X (n_samples, 2) float32, y (n_samples,) int64 in {0, 1}.
    """
    rng = np.random.default_rng(seed)
    n_top = n_samples // 2
    n_bottom = n_samples - n_top
    t_top, t_bottom = np.linspace(0, np.pi, n_top), np.linspace(0, np.pi, n_bottom)
    top = np.stack([np.cos(t_top), np.sin(t_top)], axis=1)
    bottom = np.stack([1 - np.cos(t_bottom), 0.5 - np.sin(t_bottom)], axis=1)
    X = np.concatenate([top, bottom]) + rng.normal(0.0, noise, (n_samples, 2))
    y = np.concatenate([np.zeros(n_top), np.ones(n_bottom)])
    return _as_tensors(X, y, rng)


def make_spirals(n_samples=300, n_classes=3, noise=0.2, seed=0):
    """Return `n_classes` spiral arms in 2-D, one class per arm, shuffled (the CS231n toy problem).

    Arm k has points at radius r in [0, 1] and angle 4k + 4r (+ noise): no straight line separates the arms,
    so a linear model fails and a small MLP succeeds.

    Returns:
        X (n_samples, 2) float32, y (n_samples,) int64 in {0, ..., n_classes - 1}.
    """
    rng = np.random.default_rng(seed)
    sizes = [n_samples // n_classes + (k < n_samples % n_classes) for k in range(n_classes)]
    X, y = [], []
    for k, n in enumerate(sizes):
        r = np.linspace(0.0, 1.0, n)
        t = np.linspace(4.0 * k, 4.0 * (k + 1), n) + rng.normal(0.0, noise, n)
        X.append(np.stack([r * np.sin(t), r * np.cos(t)], axis=1))
        y.append(np.full(n, k))
    return _as_tensors(np.concatenate(X), np.concatenate(y), rng)


# 5x7 glyphs of the ten digits; '#' is ink
_GLYPHS = [
    [" ### ", "#   #", "#  ##", "# # #", "##  #", "#   #", " ### "],
    ["  #  ", " ##  ", "  #  ", "  #  ", "  #  ", "  #  ", " ### "],
    [" ### ", "#   #", "    #", "   # ", "  #  ", " #   ", "#####"],
    ["#####", "   # ", "  #  ", "   # ", "    #", "#   #", " ### "],
    ["   # ", "  ## ", " # # ", "#  # ", "#####", "   # ", "   # "],
    ["#####", "#    ", "#### ", "    #", "    #", "#   #", " ### "],
    ["  ## ", " #   ", "#    ", "#### ", "#   #", "#   #", " ### "],
    ["#####", "    #", "   # ", "  #  ", " #   ", " #   ", " #   "],
    [" ### ", "#   #", "#   #", " ### ", "#   #", "#   #", " ### "],
    [" ### ", "#   #", "#   #", " ####", "    #", "   # ", " ##  "],
]
_DIGITS = np.array([[[c == "#" for c in row] for row in glyph] for glyph in _GLYPHS], np.float32)


def make_digits(n_per_class=50, noise=0.15, seed=0):
    """Return 8x8 grey images of the digits 0-9: a 5x7 glyph at a random place, with noise.

    Each image is one of ten fixed glyphs, shifted by up to 3 pixels right and 1 down inside the 8x8 frame,
    with Gaussian noise of standard deviation `noise` added and values clipped to [0, 1]. Small enough to
    train on in seconds, hard enough that a linear model is not perfect when the noise is high.

    Returns:
        X (10 * n_per_class, 8, 8) float32 in [0, 1], y (10 * n_per_class,) int64 in {0, ..., 9}.
        Flatten X (`nn.Flatten()` or `X.reshape(len(X), 64)`) for a Linear layer.
    """
    rng = np.random.default_rng(seed)
    n = 10 * n_per_class
    y = np.repeat(np.arange(10), n_per_class)
    X = np.zeros((n, 8, 8), np.float32)
    dx, dy = rng.integers(0, 4, n), rng.integers(0, 2, n)
    for i in range(n):
        X[i, dy[i]:dy[i] + 7, dx[i]:dx[i] + 5] = _DIGITS[y[i]]
    X = np.clip(X + rng.normal(0.0, noise, X.shape), 0.0, 1.0)
    return _as_tensors(X, y, rng)


def train_test_split(X, y, test_fraction=0.25):
    """Split `(X, y)` into `(X_train, y_train, X_test, y_test)`, the last `test_fraction` of the rows for testing.

    The generators above already shuffle, so taking the tail is a random split.
    """
    n_test = int(round(len(y) * test_fraction))
    n_train = len(y) - n_test
    return X[:n_train], y[:n_train], X[n_train:], y[n_train:]

"""minigrad.datasets: shapes, dtypes, determinism, and the geometry each generator promises."""
import numpy as np
import pytest

import minigrad
from minigrad.datasets import make_digits, make_moons, make_spirals, train_test_split


@pytest.mark.parametrize("make, n, features, classes", [
    (lambda seed: make_moons(101, seed=seed), 101, (2,), 2),
    (lambda seed: make_spirals(100, n_classes=3, seed=seed), 100, (2,), 3),
    (lambda seed: make_digits(7, seed=seed), 70, (8, 8), 10),
])
def test_shapes_dtypes_and_determinism(make, n, features, classes):
    X, y = make(0)
    assert isinstance(X, minigrad.Tensor) and X.dtype is minigrad.float32 and y.dtype is minigrad.int64
    assert tuple(X.shape) == (n, *features) and tuple(y.shape) == (n,)
    counts = np.bincount(y.numpy(), minlength=classes)
    assert len(counts) == classes and counts.max() - counts.min() <= 1       # balanced classes
    X2, y2 = make(0)
    assert np.array_equal(X.numpy(), X2.numpy()) and np.array_equal(y.numpy(), y2.numpy())
    X3, _ = make(1)
    assert not np.array_equal(X.numpy(), X3.numpy())
    assert (np.diff(y.numpy()) < 0).any()                                    # shuffled, not sorted by class


def test_moons_without_noise_lie_on_the_two_half_circles():
    X, y = make_moons(50, noise=0.0)
    a, labels = X.numpy().astype(np.float64), y.numpy()
    top, bottom = a[labels == 0], a[labels == 1]
    np.testing.assert_allclose(np.hypot(top[:, 0], top[:, 1]), 1.0, atol=1e-6)
    np.testing.assert_allclose(np.hypot(bottom[:, 0] - 1, bottom[:, 1] - 0.5), 1.0, atol=1e-6)
    assert (top[:, 1] >= -1e-6).all() and (bottom[:, 1] <= 0.5 + 1e-6).all()


def test_spiral_radius_grows_along_each_arm():
    X, y = make_spirals(300, n_classes=3, noise=0.0)
    r = np.hypot(*X.numpy().T)
    assert r.min() == 0.0 and r.max() == pytest.approx(1.0)


def test_digits_are_glyphs_in_the_unit_range():
    X, y = make_digits(5, noise=0.0)
    a = X.numpy()
    assert a.min() == 0.0 and a.max() == 1.0
    ones = a[y.numpy() == 1]
    assert (ones.sum(axis=(1, 2)) == 10).all()     # the glyph of 1 has 10 inked pixels, wherever it is shifted
    noisy, _ = make_digits(5, noise=0.3)
    assert 0.0 <= noisy.numpy().min() and noisy.numpy().max() <= 1.0


def test_train_test_split_takes_the_tail():
    X, y = make_moons(100)
    X_train, y_train, X_test, y_test = train_test_split(X, y, test_fraction=0.2)
    assert len(y_train) == 80 and len(y_test) == 20
    assert np.array_equal(X_test.numpy(), X.numpy()[80:])

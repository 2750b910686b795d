"""Parity with real PyTorch for F.pdist / torch.pdist and torch.cdist (issue 26): values, graphs and gradients for
every kind of p, with repeated rows (zero distances, where the gradient is defined as 0), batches that broadcast,
both of cdist's roads, and the error torch raises for a second derivative of pdist and of cdist's direct road.
(They are not op-table rows: the coverage test there takes third derivatives of every row.)"""
import pytest

P_VALUES = [0, 0.5, 1, 1.5, 2, 3, float("inf")]


def graph(node):
    """The graph below a node as nested (name, (children...)); None for an edge that carries no gradient."""
    if node is None:
        return None
    return (node.name().replace("torch::autograd::", ""), tuple(graph(n) for n, _ in node.next_functions))


def _rows(L, dtype):
    """Five rows, two of them equal (a zero distance) and one pair equal in one column only (a zero difference)."""
    L.manual_seed(0)
    x = L.randn(5, 3, dtype=dtype)
    x[3] = x[1]
    x[4, 0] = x[0, 0]
    return x.requires_grad_()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("p", P_VALUES, ids=[f"p={p}" for p in P_VALUES])
def test_pdist_values_graph_and_gradient_are_torchs(p, dtype, parity):
    def example(L):
        x = _rows(L, getattr(L, dtype))
        y = L.pdist(x, p)
        (y * L.linspace(-1, 1, y.numel(), dtype=y.dtype)).sum().backward()
        return y, x.grad, graph(y.grad_fn), y.grad_fn._saved_p
    parity(example)


def test_pdist_functional_and_edge_shapes(parity):
    def example(L):
        F = L.nn.functional
        one, none = L.ones(1, 3, requires_grad=True), L.ones(0, 2)
        no_columns = L.ones(3, 0)
        transposed = L.arange(6.0).view(2, 3).t()             # not contiguous: pdist copies it first
        return (F.pdist(L.tensor([[0.0, 0.0], [3.0, 4.0], [6.0, 8.0]])), L.pdist(one), L.pdist(none),
                L.pdist(no_columns), L.pdist(transposed.requires_grad_()), graph(L.pdist(one).grad_fn))
    parity(example)


def test_pdist_second_derivative_raises_torchs_error(parity):
    def example(L):
        x = _rows(L, L.float64)
        (g,) = L.autograd.grad(L.pdist(x).sum(), x, create_graph=True)
        names = graph(g.grad_fn)
        g.sum().backward()
        return names
    parity(example)


@pytest.mark.parametrize("p", P_VALUES, ids=[f"p={p}" for p in P_VALUES])
@pytest.mark.parametrize("shapes", [((4, 3), (5, 3)), ((2, 4, 3), (5, 3)), ((2, 1, 3, 2), (4, 5, 2)),
                                    ((1, 3, 2), (2, 4, 2))], ids=["2d", "batch_x1", "broadcast", "batch_of_one"])
def test_cdist_direct_values_graph_and_gradients_are_torchs(p, shapes, parity):
    def example(L):
        L.manual_seed(1)
        x1 = L.randn(*shapes[0], requires_grad=True)
        x2 = L.randn(*shapes[1])
        with L.no_grad():
            x2[..., 0, :] = x1[..., 0, :] if x2.dim() >= x1.dim() else x1[0, 0]     # a zero distance
        x2.requires_grad_()
        y = L.cdist(x1, x2, p)
        (y * L.linspace(-1, 1, y.numel()).view(y.shape)).sum().backward()
        return y, x1.grad, x2.grad, graph(y.grad_fn)
    parity(example)


@pytest.mark.parametrize("mode", ["use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                                  "donot_use_mm_for_euclid_dist"])
@pytest.mark.parametrize("rows", [3, 26])
def test_cdist_compute_modes_take_torchs_road(mode, rows, parity):
    """Above 25 rows (or when asked) p = 2 goes through a matrix product: another node, other rounding."""
    def example(L):
        L.manual_seed(2)
        x1, x2 = L.randn(2, rows, 4, requires_grad=True), L.randn(rows, 4, requires_grad=True)
        y = L.cdist(x1, x2, compute_mode=mode)
        y.sum().backward()
        return y, x1.grad, x2.grad, graph(y.grad_fn)
    parity(example)


def test_cdist_second_derivatives(parity):
    """The matrix-product road is differentiable twice, as in torch; the direct road raises torch's error."""
    def example(L):
        L.manual_seed(3)
        x1, x2 = L.randn(3, 2, dtype=L.float64, requires_grad=True), L.randn(4, 2, dtype=L.float64, requires_grad=True)
        y = L.cdist(x1, x2, compute_mode="use_mm_for_euclid_dist")
        (g1,) = L.autograd.grad(y.sum(), x1, create_graph=True)
        (g1 * g1).sum().backward()
        mm = (g1, x1.grad, x2.grad)
        (g2,) = L.autograd.grad(L.cdist(x1, x2, p=1).sum(), x2, create_graph=True)
        names = graph(g2.grad_fn)
        try:
            g2.sum().backward()
        except NotImplementedError as exc:
            return mm, names, str(exc)
    parity(example, rtol=1e-9, atol=1e-11)


def test_cdist_empty_inputs(parity):
    def example(L):
        return (L.cdist(L.ones(0, 3), L.ones(4, 3)), L.cdist(L.ones(2, 0), L.ones(4, 0)),
                L.cdist(L.ones(2, 0, 3), L.ones(30, 3)))
    parity(example)


def test_cdist_matrix_product_road_passes_gradcheck_and_gradgradcheck():
    """Its backward is made of differentiable ops: checked against finite differences, to the second order."""
    import minigrad
    from minigrad.autograd import gradcheck, gradgradcheck
    minigrad.manual_seed(4)
    x1 = minigrad.randn(2, 26, 3, dtype=minigrad.float64, requires_grad=True)
    x2 = minigrad.randn(4, 3, dtype=minigrad.float64, requires_grad=True)
    assert minigrad.cdist(x1, x2).grad_fn.next_functions[0][0].name() == "EuclideanDistBackward0"
    assert gradcheck(minigrad.cdist, (x1, x2)), "received a gradient unlike finite differences, expected theirs"
    assert gradgradcheck(minigrad.cdist, (x1, x2)), "received a second derivative unlike finite differences"


@pytest.mark.parametrize("fn", [lambda L, x: L.pdist(x[0]), lambda L, x: L.cdist(x[0], x[1], p=1),
                                lambda L, x: L.cdist(x[0], x[1], compute_mode="use_mm_for_euclid_dist")],
                         ids=["pdist", "cdist", "cdist_mm"])
def test_forward_mode_is_refused_as_in_torch(fn, parity):
    def example(L):
        x, t = L.ones(2, 3, 2, dtype=L.float64), L.ones(2, 3, 2, dtype=L.float64)
        return L.func.jvp(lambda x: fn(L, x), (x,), (t,))
    parity(example)

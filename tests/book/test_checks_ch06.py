"""Chapter 6's checks accept the solutions (and other right answers) and say "not yet" to typical wrong ones.

Each answer is defined the way a notebook cell defines it: source run in a namespace where `torch` is minigrad,
next to the chapter's `call_node` helper.
"""
import importlib.util

import pytest

from widgets.exercises import ch06

CALL_NODE = '''
def call_node(node, grad_output):
    with torch.no_grad():
        grads = node.apply(grad_output) if hasattr(node, "apply") else node(grad_output)
    return grads if isinstance(grads, tuple) else (grads,)
'''

COUNT = '''
def count_dependencies(loss):
    counts = {loss.grad_fn: 0}
    stack = [loss.grad_fn]
    while stack:
        node = stack.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:
                continue
            if next_node not in counts:
                counts[next_node] = 0
                stack.append(next_node)
            counts[next_node] += 1
    return counts
'''

BACKWARD = '''
def my_backward(loss):
    dependencies = count_dependencies(loss)
    buffers = {loss.grad_fn: torch.ones_like(loss)}
    ready, order = [loss.grad_fn], []
    while ready:
        node = ready.pop()
        order.append(node)
        grads = call_node(node, buffers.pop(node))
        for (next_node, _), grad in zip(node.next_functions, grads):
            if next_node is None:
                continue
            buffers[next_node] = grad if next_node not in buffers else buffers[next_node] + grad
            dependencies[next_node] -= 1
            if dependencies[next_node] == 0:
                ready.append(next_node)
    return order
'''

TOPO = '''
def topological_order(loss):
    order, visited = [], set()
    def visit(node):
        if node is None or node in visited:
            return
        visited.add(node)
        for next_node, _ in node.next_functions:
            visit(next_node)
        order.append(node)
    visit(loss.grad_fn)
    return order[::-1]
'''


def define(*sources, name):
    namespace = {"__name__": "__main__"}
    exec("import minigrad as torch\nfrom minigrad import autograd\n" + CALL_NODE + "".join(sources), namespace)
    return namespace[name]


def verdict(feedback):
    return "✓ correct" if feedback.ok else "✗ not yet"


def test_count_dependencies_accepts_the_solution_and_rejects_stubs():
    assert ch06.check_count_dependencies(define(COUNT, name="count_dependencies")).ok
    assert not ch06.check_count_dependencies(...).ok
    assert not ch06.check_count_dependencies(define("def count_dependencies(loss):\n    ...\n",
                                                    name="count_dependencies")).ok


@pytest.mark.parametrize("wrong, hint", [
    (COUNT.replace("            counts[next_node] += 1\n", "                counts[next_node] = 1\n"),
     "count every next_functions entry"),                                   # counts nodes, not edges
    (COUNT.replace("counts = {loss.grad_fn: 0}", "counts = {}"), "the root should be in the dict with 0"),
    (COUNT.replace("            if next_node is None:\n                continue\n", ""), "(None, 0)"),
])
def test_count_dependencies_rejects_typical_mistakes(wrong, hint):
    feedback = ch06.check_count_dependencies(define(wrong, name="count_dependencies"))
    assert verdict(feedback) == "✗ not yet" and hint in feedback.message, feedback


def test_my_backward_accepts_the_solution_on_minigrad_and_on_torch():
    feedback = ch06.check_my_backward(define(COUNT, BACKWARD, name="my_backward"))
    assert feedback.ok, feedback
    if importlib.util.find_spec("torch") is not None:
        assert "real PyTorch 2.13" in feedback.message, feedback
    else:
        assert "skipped" in feedback.message, feedback


def test_my_backward_accepts_a_queue_instead_of_a_stack():
    fifo = BACKWARD.replace("node = ready.pop()", "node = ready.pop(0)")
    assert ch06.check_my_backward(define(COUNT, fifo, name="my_backward")).ok


def test_my_backward_says_not_yet_to_the_stub_and_to_a_missing_exercise_1():
    stub = BACKWARD.split("        for (next_node")[0] + "        ...\n    return order\n"
    assert "exercise 1" in ch06.check_my_backward(
        define("def count_dependencies(loss):\n    ...\n", stub, name="my_backward")).message
    feedback = ch06.check_my_backward(define(COUNT, stub, name="my_backward"))
    assert not feedback.ok and ".grad is still None" in feedback.message, feedback
    assert not ch06.check_my_backward(...).ok


@pytest.mark.parametrize("wrong, hint", [
    # runs a node as soon as one gradient arrives, instead of when its count reaches 0
    (BACKWARD.replace("            if dependencies[next_node] == 0:\n                ready.append(next_node)\n",
                      "            if next_node not in ready:\n                ready.append(next_node)\n")
     .replace("buffers.pop(node)", "buffers.pop(node, None)"), "ran"),
    # overwrites the buffer instead of adding
    (BACKWARD.replace("grad if next_node not in buffers else buffers[next_node] + grad", "grad"), "buffer"),
    # adds into a buffer in place: an Add node gives both inputs one gradient tensor, so another buffer changes too
    (BACKWARD.replace("            buffers[next_node] = grad if next_node not in buffers else buffers[next_node] + grad\n",
                      "            if next_node in buffers:\n                buffers[next_node] += grad\n"
                      "            else:\n                buffers[next_node] = grad\n"), "buffer += g"),
    # forgets the (None, 0) edges
    (BACKWARD.replace("            if next_node is None:\n                continue\n", ""), "(None, 0)"),
    # forgets to return the order
    (BACKWARD.replace("    return order\n", "    return None\n"), "return `order`"),
])
def test_my_backward_rejects_typical_mistakes(wrong, hint):
    feedback = ch06.check_my_backward(define(COUNT, wrong, name="my_backward"))
    assert verdict(feedback) == "✗ not yet" and hint in feedback.message, feedback


def test_my_backward_that_only_works_on_minigrad_is_caught_on_torch(torch):
    # minigrad's nodes keep their queue priority in a private attribute torch's nodes do not have
    minigrad_only = BACKWARD.replace("node = ready.pop()",
                                     "ready.sort(key=lambda n: n._priority)\n        node = ready.pop()")
    assert ch06.check_my_backward(define(COUNT, minigrad_only.replace("ready.sort(key=lambda n: n._priority)",
                                                                      "pass"), name="my_backward")).ok
    feedback = ch06.check_my_backward(define(COUNT, minigrad_only, name="my_backward"))
    assert not feedback.ok and "on real PyTorch" in feedback.message, feedback


def test_topological_order_accepts_the_solution_and_kahns_algorithm():
    assert ch06.check_topological_order(define(TOPO, name="topological_order")).ok
    kahn = COUNT + '''
def topological_order(loss):
    counts, order, ready = count_dependencies(loss), [], [loss.grad_fn]
    while ready:
        node = ready.pop()
        order.append(node)
        for next_node, _ in node.next_functions:
            if next_node is not None:
                counts[next_node] -= 1
                if counts[next_node] == 0:
                    ready.append(next_node)
    return order
'''
    assert ch06.check_topological_order(define(kahn, name="topological_order")).ok


@pytest.mark.parametrize("wrong, hint", [
    (TOPO.replace("return order[::-1]", "return order"), "post-order"),
    (TOPO.replace("if node is None or node in visited:", "if node is None:"), "appears twice"),
])
def test_topological_order_rejects_typical_mistakes(wrong, hint):
    feedback = ch06.check_topological_order(define(wrong, name="topological_order"))
    assert verdict(feedback) == "✗ not yet" and hint in feedback.message, feedback
    assert not ch06.check_topological_order(...).ok

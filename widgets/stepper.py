"""BackwardStepper: run backward one node at a time, with the real engine, and see what each node did.

Each Step pulls one `BackwardStep` from `minigrad.autograd.backward_steps`, the generator that
`Tensor.backward()` itself runs to the end, so what you watch is the backward pass, not a re-enactment.

Going back is not something an engine can do (it has added into `.grad`), so Back is "reset, then replay one
step fewer": Reset puts every leaf's `.grad` back to what it was when the stepper was made and starts a new
generator. To make replays possible the generator runs with `retain_graph=True`; when the pass reaches its
last node with `retain_graph=False` (the default, as for `.backward()`), the stepper runs the whole pass
once more with `retain_graph=False`, so the graph ends exactly as `.backward()` leaves it: `.grad` filled,
saved tensors freed. That last pass keeps every record and, after each step, a copy of the leaves' `.grad`;
from then on Back, Reset, the slider and Run to end replay those copies (the engine cannot run a freed graph).
"""
import contextlib
import io

import ipywidgets as w
import numpy as np

import minigrad
from minigrad.autograd import backward_steps
from minigrad.autograd.graph import FREED_MESSAGE, count_dependencies, get_gradient_edge, retained_tensors, saved_values

from ._controls import StepControls, Stepping
from ._format import (NON_SCALAR_MESSAGE, InputTypeError, InputValueError, check_graph, check_tensor, shape_text,
                      tensor_text)
from .graph import _names, draw_graph, leaves_of, walk
from .i18n import _
from .stepper_panel import FREED_NOTE, panel_html


class BackwardStepper(Stepping, w.VBox):
    """Step through the backward pass of `tensor`, one node per click, and see what each node did.

    Args:
        tensor: the output to differentiate (e.g. a loss).
        gradient: d(something)/d(tensor), needed when `tensor` has more than one element, as for `.backward()`.
        retain_graph: keep the saved tensors after the last step (default False, as `.backward()`).
        create_graph: record the backward pass itself, as `.backward(create_graph=True)` does: the gradients
            on the edges then have a grad_fn of their own (shown) and can be differentiated again.
        names, **named: names for tensors in the picture, as in `draw_graph` (`a=a` or `names={"a": a}`).
        model: an `nn.Module`: its parameters are named by `named_parameters()` (`fc1.weight`, ...).
        show_values, show_saved, max_nodes: drawing options, as in `draw_graph`.

    Programmatic use (what the buttons call): `.step()`, `.back()`, `.reset()`, `.run_to_end()`, `.go_to(n)`;
    `.steps` (the `BackwardStep` records so far), `.current` (the last one), `.printed` (what each step's
    backward printed), `.position`, `.total`, `.dot` (the current DOT source).

    Example:
        >>> stepper = BackwardStepper(loss, names={"w": w})
        >>> stepper.step().name
        'SumBackward0'
    """

    def __init__(self, tensor, gradient=None, retain_graph=False, names=None, show_values=True,
                 show_saved=True, max_nodes=300, create_graph=False, model=None, **named):
        check_tensor(tensor, "BackwardStepper")
        check_graph(tensor, "BackwardStepper")
        _check_gradient(tensor, gradient)
        self._tensor_names = _names(names, named, model)
        nodes = walk([tensor])
        if any(saved_values(n) is None for n in nodes):
            raise InputValueError(_("BackwardStepper: this graph was already used by a backward pass that freed "
                                    "it. {message}").format(message=FREED_MESSAGE))
        self.tensor, self.gradient, self.create_graph = tensor, gradient, bool(create_graph)
        self.retain_graph = bool(retain_graph) or self.create_graph     # as in backward(): create_graph retains
        self.options = {"show_values": show_values, "show_saved": show_saved, "max_nodes": max_nodes}
        # each node runs exactly once in a backward pass: the engine's own count is the number of steps
        self.total = len(count_dependencies([get_gradient_edge(tensor)[0]]))
        leaves = leaves_of(nodes) or ([tensor] if tensor.grad_fn is None else [])
        # Reset puts back the .grad of the leaves, and of non-leaf tensors that asked for retain_grad()
        self._initial = [(t, None if t.grad is None else t.grad.detach().clone())
                         for t in leaves + _retained_tensors(nodes)]
        self.steps, self.printed = [], []
        self._generator, self.exhausted, self.freed = None, False, False
        self._replay = None      # after the graph is freed: [(record, printed, .grad of each tracked tensor)]
        self.controls = StepControls(self, self.total)
        super().__init__(children=self._children())
        self._render()

    # ---- state ------------------------------------------------------------------------------------------
    @property
    def position(self):
        """How many nodes have run."""
        return len(self.steps)

    @property
    def current(self):
        """The record of the node that ran last, or None before the first step."""
        return self.steps[-1] if self.steps else None

    @property
    def finished(self):
        """True when every node has run (and, after a freed pass, the replay stands at its last step)."""
        return self.exhausted or (self.freed and self.position >= self.total)

    @property
    def dot(self):
        """The DOT source of the picture as it is now (current node highlighted, gradients on the edges)."""
        return self._digraph().source

    # ---- actions ----------------------------------------------------------------------------------------
    def step(self):
        """Run the next node's backward (one `next()` on the engine's generator); return its record."""
        record = self._advance()
        self._render()
        return record

    def run_to_end(self):
        """Run every remaining node; afterwards each leaf's `.grad` is what `.backward()` gives."""
        if self.freed:
            return self.go_to(self.total)
        while not self.finished:
            self._advance()
        self._render()

    def back(self):
        """Undo the last step: reset, then replay all steps but one."""
        self.go_to(self.position - 1)

    def reset(self):
        """Go back to before the first step: leaves' `.grad` as they were when the stepper was made."""
        self.go_to(0)

    def go_to(self, n):
        """Move to the state after `n` steps (forwards by stepping, backwards by reset and replay)."""
        n = max(int(n), 0)
        if self.freed:
            self._replay_to(min(n, self.total))
            self._render()
            return
        if n < self.position:
            self._restart()
        while self.position < n and not self.finished:
            self._advance()
        self._render()

    # ---- the engine -------------------------------------------------------------------------------------
    def _restart(self):
        for t, grad in self._initial:
            t.grad = None if grad is None else grad.detach().clone()
        self.steps, self.printed = [], []
        self._generator, self.exhausted = None, False

    def _advance(self):
        """Pull one step from the engine; on the last one, honour retain_graph=False (see the module doc)."""
        if self.finished:
            return None
        if self.freed:
            self._replay_to(self.position + 1)
            return self.current
        before = self.position
        try:
            if not self.retain_graph and before >= self.total - 1:
                return self._final_pass()
            if self._generator is None:
                self._generator = backward_steps(self.tensor, self.gradient, True, self.create_graph)
            return self._pull(self._generator)
        except Exception:
            self._rewind(before)     # an error inside backward ends the generator: rebuild the last good state
            raise

    def _rewind(self, n):
        self._restart()
        try:
            self._generator = backward_steps(self.tensor, self.gradient, True, self.create_graph)
            while self.position < n and self._pull(self._generator) is not None:
                pass
        except Exception:  # noqa: BLE001 - cannot replay (e.g. the graph got freed): start from scratch
            self._restart()

    def _pull(self, generator):
        printed = io.StringIO()
        before = [None if t.grad is None else t.grad.detach().clone() for t, _ in self._initial]
        try:
            with contextlib.redirect_stdout(printed):   # what a custom backward prints goes to the panel
                record = next(generator)
        except StopIteration:
            self.exhausted = True
            self.total = self.position
            return None
        self.steps.append(record)
        self.printed.append(printed.getvalue())
        # the engine copies nothing for views: the stepper keeps the .grad that an AccumulateGrad step added into
        record.grad_before = next((g for (t, _), g in zip(self._initial, before) if t is record.variable), None)
        self.total = max(self.total, self.position)
        return record

    def _final_pass(self):
        """Run the whole pass with retain_graph=False (the graph ends as `.backward()` leaves it), recording
        each step and the `.grad` it left, for the replays that follow."""
        self._restart()
        generator = backward_steps(self.tensor, self.gradient, False, self.create_graph)
        grads = [grad for _, grad in self._initial]
        replay = []
        while self._pull(generator) is not None:
            grads = _grads_now(self._initial, grads)
            replay.append((self.current, self.printed[-1], grads))
        self._replay, self.freed = replay, True
        self.exhausted = False      # from now on `finished` means "the replay stands at its last step"
        return self.current

    def _replay_to(self, n):
        """Show the state after `n` recorded steps of the freed pass: its records, and the `.grad` it left."""
        self.steps = [record for record, _, _ in self._replay[:n]]
        self.printed = [printed for _, printed, _ in self._replay[:n]]
        grads = self._replay[n - 1][2] if n else [grad for _, grad in self._initial]
        for (t, _), grad in zip(self._initial, grads):
            t.grad = None if grad is None else grad.detach().clone()    # a copy: the record stays as it was

    # ---- drawing ----------------------------------------------------------------------------------------
    def _digraph(self):
        edge_labels = {("output", 0): "grad " + _seed_text(self.tensor, self.gradient)}
        for record in self.steps:
            for slot, (g, (next_node, _)) in enumerate(zip(record.grad_inputs, record.next_functions)):
                if next_node is not None and g is not None:
                    edge_labels[(record.node, slot)] = tensor_text(g)
        done = {record.node: record.index + 1 for record in self.steps}
        current = self.current.node if self.current is not None else None
        names = {name: t for t, name in self._tensor_names.values()}
        return draw_graph(self.tensor, names=names, highlight=current, done=done, edge_labels=edge_labels,
                          **self.options)

    def _render(self):
        self._show(self._digraph(), panel_html(self), at_end=self.finished or self.position >= self.total)

    def __repr__(self):
        if self.current is None:        # (never finished: every pass runs at least the root's node)
            line = _("BackwardStepper: step {n} of {total}, nothing run yet")
        elif self.finished:
            line = _("BackwardStepper: step {n} of {total}, after {name}, finished")
        else:
            line = _("BackwardStepper: step {n} of {total}, after {name}")
        name = self.current.name if self.current is not None else ""
        return "<" + line.format(n=self.position, total=self.total, name=name) + ">"


def _check_gradient(tensor, gradient):
    """Refuse, with `.backward()`'s own words, a missing or mis-shaped gradient."""
    if gradient is not None and not isinstance(gradient, minigrad.Tensor):
        # as .backward(): a list or tuple holds one gradient per output, and each must be a Tensor
        items = gradient if isinstance(gradient, (list, tuple)) else [gradient]
        bad = next((g for g in items if not isinstance(g, minigrad.Tensor)), items[0] if items else gradient)
        raise InputTypeError(f"gradients can be either Tensors or None, but got {type(bad).__name__}")
    if gradient is None:
        if tensor.numel() != 1:
            raise InputValueError(NON_SCALAR_MESSAGE + _(" (this tensor has shape {shape}: pass gradient=, a tensor "
                                                         "of that shape, as for .backward(gradient))").format(
                                                             shape=shape_text(tensor)))
        return
    if gradient.shape != tensor.shape:
        raise InputValueError(f"Mismatch in shape: grad_output[0] has a shape of {gradient.shape!r} and "
                              f"output[0] has a shape of {tensor.shape!r}.")


def _retained_tensors(nodes):
    """The non-leaf tensors on which retain_grad() was called: backward fills their .grad too."""
    return [t for node in nodes for t in retained_tensors(node).values()]


def _grads_now(tracked, before):
    """Copy the `.grad` of each tracked tensor, reusing the copy from `before` where it did not change."""
    now = []
    for (t, _), old in zip(tracked, before):
        grad = t.grad
        unchanged = (grad is None and old is None) or (
            grad is not None and old is not None and grad.shape == old.shape
            and np.array_equal(grad.data.numpy(), old.data.numpy()))
        now.append(old if unchanged else grad.detach().clone())
    return now


def _seed_text(tensor, gradient):
    return "1" if gradient is None else tensor_text(gradient)

"""The side panel of BackwardStepper: what the current node received, returned, saved and printed.

Everything shown comes from the engine's `BackwardStep` record and the node itself (`needs_input_grad`, the
tensors it saved, the attributes a custom Function put on its ctx). All text is escaped.
"""
import re

from minigrad.autograd import AccumulateGrad
from minigrad.autograd.graph import ctx_attributes, output_metadata, saved_values

from ._format import esc_html, shape_text, tensor_text
from ._render import message_html, panel_box, printed_html
from .graph import node_name
from .i18n import N_, _

FREED_NOTE = N_(
    "The graph was freed: because retain_graph=False, the last step dropped the saved tensors, as "
    "`.backward()` does, so this graph cannot run backward again (a second `.backward()` would fail). "
    "Back, Reset and the slider still work: they replay the steps recorded during the pass and the .grad "
    "each step left, without running the engine. To run the engine again, build the graph again, or make "
    "the stepper with BackwardStepper(..., retain_graph=True).")

# A sentence about a tensor comes whole from the catalogue, once with the tensor's name and once for each way an
# unnamed one is described: Chinese spaces them differently ("x 的 .grad", but "形状为 (2,) 的叶子张量的 .grad").
ADDS_INTO = {"named": N_("adds it into {leaf}.grad: {before} → {after}"),
             "leaf": N_("adds it into the .grad of the leaf of shape {shape}: {before} → {after}")}
OF_LEAF = {"named": N_("{node} of {leaf}"), "leaf": N_("{node} of the leaf of shape {shape}")}
GRAD_IS = {"named": N_("{leaf}.grad = {grad}"), "leaf": N_("the .grad of the leaf of shape {shape} = {grad}"),
           "tensor": N_("the .grad of the tensor of shape {shape} = {grad}")}


def panel_html(stepper):
    """Return the panel for the stepper's current state as HTML."""
    parts = [message_html(stepper.error)] if stepper.error else []
    record = stepper.current
    if record is None:
        root = stepper.tensor.grad_fn
        first = node_name(root) if root is not None else _("the leaf's AccumulateGrad")
        parts.append(_("<b>Step 0 of {total}</b>: nothing has run yet. <i>Step</i> calls {first} with the "
                       "starting gradient {seed}.").format(total=stepper.total, first=esc_html(first),
                                                            seed=_code(_seed(stepper))))
    else:
        parts.append(_("<b>Step {n} of {total}: {name}</b>").format(n=record.index + 1, total=stepper.total,
                                                                     name=esc_html(record.name)))
        parts.extend(_record_sections(stepper, record))
    if stepper.finished:
        parts.append(_summary(stepper))
    if stepper.freed:
        # `code` in the catalogue's sentence is shown as code, not as backticks
        parts.append("<i>" + re.sub(r"`([^`]+)`", r"<code>\1</code>", esc_html(_(FREED_NOTE))) + "</i>")
    return panel_box(parts)


def _record_sections(stepper, record):
    node = record.node
    sections = [_list(_("received (grad_output)"), [_code(tensor_text(g)) for g in record.grad_outputs])]
    if type(node) is AccumulateGrad:
        sections.append(_about(stepper, record.variable, ADDS_INTO, before=_code(tensor_text(record.grad_before)),
                               after=_code(tensor_text(record.grad_after))))
    else:
        returned = []
        for g, (next_node, nr) in zip(record.grad_inputs, record.next_functions):
            returned.append(f"{_code(tensor_text(g))} → {esc_html(_destination(stepper, next_node, nr))}")
        sections.append(_list(_("returned (grad_input)"), returned or [_("nothing")]))
        needs = getattr(node, "needs_input_grad", None)
        if needs is not None:
            sections.append(f"needs_input_grad: {_code(needs)}")
        sections.append(_saved(node))
        attributes = _ctx_attributes(node)
        if attributes:
            sections.append(_list(_("stored on ctx"), attributes))
    printed = stepper.printed[record.index] if record.index < len(stepper.printed) else ""
    if printed:
        sections.append(_("backward printed:") + printed_html(printed))
    return sections


def _destination(stepper, node, output_nr):
    if node is None:
        return _("nowhere (that input needs no gradient)")
    if type(node) is AccumulateGrad:
        return _about(stepper, node.variable, OF_LEAF, escape=str, node=node_name(node))   # escaped by the caller
    many = len(output_metadata(node)) > 1
    return node_name(node) + (_(" (its output {nr})").format(nr=output_nr) if many else "")


def _saved(node):
    saved = saved_values(node)
    if saved is None:
        return _("saved tensors: freed (backward ran with retain_graph=False)")
    if not saved:
        return _("saved tensors: none")
    return _list(_("saved tensors"), ["None" if t is None else _code(tensor_text(t)) for t in saved])


def _ctx_attributes(node):
    items = []
    for key, value in ctx_attributes(node).items():
        text = repr(value)
        items.append(f"ctx.{esc_html(key)} = {_code(text if len(text) <= 60 else text[:57] + '...')}")
    return items


def _summary(stepper):
    lines = [_about(stepper, t, GRAD_IS, grad=_code(tensor_text(t.grad)))
             + ("" if t.grad_fn is None else _(" (retain_grad)")) for t, _grad in stepper._initial]
    return _list(_("<b>Backward finished.</b> Gradients:"), lines or [_("(none)")])


def _about(stepper, tensor, sentences, escape=esc_html, **values):
    """Fill in the one of `sentences` that says how `tensor` is called: by its name, or (unnamed) by its shape."""
    named = stepper._tensor_names.get(id(tensor))
    if named:
        return _(sentences["named"]).format(leaf=escape(named[1]), **values)
    kind = "leaf" if tensor.grad_fn is None else "tensor"     # an AccumulateGrad's variable is always a leaf
    return _(sentences[kind]).format(shape=shape_text(tensor), **values)


def _seed(stepper):
    return "1" if stepper.gradient is None else tensor_text(stepper.gradient)


def _list(title, items):
    return f"{title}<br>" + "<br>".join(f"&nbsp;&nbsp;[{i}] {item}" for i, item in enumerate(items))


def _code(value):
    return f"<code>{esc_html(value)}</code>"

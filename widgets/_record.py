"""Record every widget a notebook showed, step by step, for the static site (`make site`).

The site has no kernel, so a stepper there cannot run the engine. Instead the site builder, after running a
chapter, calls `save_frames` in the same kernel: for every BackwardStepper and ModuleApplyView the chapter
displayed, it records the picture and the panel at each position (step 0 to the end), and for every GraphView
the picture as it was when its cell ran. The page then steps through those frames in plain JavaScript.
Each widget is left at the position it was displayed at, so the saved widget state matches the page.
The page's own texts (`player_texts`) come from the same catalogue as the widget's, in the page's language.
"""
import json

from ._picture import SHOWN
from .i18n import N_, _

# What the site's player (.ci/site_player.py, site_player.js) writes on the page. Its buttons are the widget's
# own (the same msgids); the rest is the page's: Play/Pause as words (the widget's Play is an icon), the
# position as text, and the notes saying what needs a kernel.
PLAYER_TEXTS = {
    "step": N_("Step"), "back": N_("Back"), "run": N_("Run to end"), "reset": N_("Reset"),
    "play": N_("Play"), "pause": N_("Pause"), "play_tip": N_("play / pause"),
    "zoom": N_("zoom"), "fit": N_("fit"), "values": N_("values"), "saved": N_("saved tensors"),
    "refresh": N_("Refresh"), "unit_step": N_("step"), "unit_visit": N_("visit"),
    "position_step": N_("step {n} of {total}"), "position_visit": N_("visit {n} of {total}"),
    "note_frames": N_("These steps were recorded when this page was built: the buttons replay them, no kernel "
                      "needed."),
    "note_view": N_("A picture stored when this page was built: its options and Refresh need a running notebook."),
    "download": N_('<a href="{notebook}">Download the notebook</a>, or open it live with <code>make lab</code>.'),
}


def player_texts():
    """{key: text} of `PLAYER_TEXTS` in the current language (see widgets/i18n.py)."""
    return {key: _(message) for key, message in PLAYER_TEXTS.items()}


def frames(widget):
    """[{svg, panel, focus}] for positions 0..end of a stepper (or a ModuleApplyView), as its buttons show them:
    from Reset, one Step at a time, so the frames are the first pass a learner would see. A backward that raises
    ends the recording with its message in the panel, as a click shows it."""
    widget.on_reset(None)
    recorded = [_frame(widget)]
    while not widget.controls.step.disabled and widget.error is None:
        widget.on_step(None)
        recorded.append(_frame(widget))
    return recorded


def _frame(widget):
    return {"svg": widget.graph_html.value, "panel": widget.panel_html.value,
            "focus": getattr(widget.picture.digraph, "focus", None) or ""}


def record(widget, shown):
    """What the site shows for one displayed widget; `shown` is its snapshot from when its cell ran."""
    kind = type(widget).__name__
    if "position" not in shown:              # a GraphView: one picture, its options need a kernel
        return {"kind": kind, "svg": shown["svg"]}
    entry = {"kind": kind, "start": shown["position"], "unit": "visit" if kind == "ModuleApplyView" else "step",
             "frames": frames(widget)}
    widget.go_to(shown["position"])
    return entry


def save_frames(path):
    """Write {model id: record} for every widget displayed so far to `path` (JSON); return how many."""
    out = {}
    for model, (widget, shown) in SHOWN.items():
        try:
            out[model] = record(widget, shown)
        except Exception as error:  # noqa: BLE001 - a widget that cannot replay keeps its stored picture
            out[model] = {"kind": type(widget).__name__, "svg": shown.get("svg", ""), "error": str(error)}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f)
    return len(out)

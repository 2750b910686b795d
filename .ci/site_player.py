"""The static site's widgets: steppers that play recorded frames, pictures whose live controls are disabled.

`build_site.py` runs each chapter with one extra cell at the end, `RECORD_CELL`, which writes what every
minigrad widget showed (widgets/_record.py). `replace_widgets` then puts, in place of each such widget's
output, HTML that site_player.js brings to life: Step, Back, Play, Run to end, Reset and the slider step through
the recorded frames. GraphView's checkboxes and Refresh need a kernel: they are drawn disabled, with a note.
"""
import json
from pathlib import Path

from jinja2 import Environment
from markupsafe import Markup

PLAYER_JS = Path(__file__).with_name("site_player.js")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def record_cell(frames_path):
    """The code run after a chapter's last cell: save the frames of every widget it showed."""
    return f"import widgets._record\nwidgets._record.save_frames({str(frames_path)!r})"


TEMPLATES = Environment(autoescape=True).from_string("""
{%- macro note() -%}
<div class="mg-note">{{ note_text }} <a href="notebooks/{{ notebook }}">Download the notebook</a>, or open it
live with <code>make lab</code>.</div>
{%- endmacro -%}
{%- if entry.frames -%}
<div class="mg-player" data-start="{{ entry.start }}" data-unit="{{ entry.unit }}">
 <div class="mg-controls">
  <button data-act="step">Step</button> <button data-act="back">Back</button>
  <button data-act="play">▶ Play</button> <button data-act="run">Run to end</button>
  <button data-act="reset">Reset</button>
  <input class="mg-slider" type="range" min="0" value="0" aria-label="{{ entry.unit }}">
  <span class="mg-position"></span>
  <span class="mg-zoom">zoom <button data-zoom="fit">fit</button> <button data-zoom="100">100 %</button></span>
 </div>
 <div class="mg-row"><div class="mg-graph"></div><div class="mg-panel"></div></div>
 <script type="application/json" class="mg-frames">{{ frames_json }}</script>
 {{ note() }}
</div>
{%- else -%}
<div class="mg-view">
 <div class="mg-controls"><label><input type="checkbox" disabled checked> values</label>
  <label><input type="checkbox" disabled checked> saved tensors</label> <button disabled>Refresh</button></div>
 <div class="mg-graph">{{ svg }}</div>
 {{ note() }}
</div>
{%- endif -%}
""")

CSS = """
.mg-controls { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 4px 0;
  font-family: sans-serif; font-size: 13px; }
.mg-controls button { padding: 2px 10px; }
.mg-zoom { margin-left: 12px; color: #555; }
.mg-row { display: flex; gap: 12px; }
.mg-graph { flex: 3 1 0%; min-width: 0; overflow: auto; max-height: 80vh; }
.mg-panel { flex: 2 1 0%; }
.mg-note { font-family: sans-serif; font-size: 12px; color: #666; margin-top: 4px; }
@media (max-width: 900px) { .mg-row { flex-direction: column; } }
"""

NOTES = {
    "frames": "These steps were recorded when this page was built: the buttons replay them, no kernel needed.",
    "view": "A picture stored when this page was built: its options and Refresh need a running notebook.",
}


def player_html(entry, notebook):
    """The HTML standing for one recorded widget."""
    frames_json = json.dumps(entry.get("frames", [])).replace("</", "<\\/")
    return TEMPLATES.render(entry=entry, notebook=notebook, frames_json=Markup(frames_json),
                            svg=Markup(entry.get("svg", "")),
                            note_text=NOTES["frames" if entry.get("frames") else "view"])


def replace_widgets(nb, recorded, notebook):
    """Replace the output of every widget in `recorded` ({model id: record}) by its site HTML; return how many."""
    replaced = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            model = output.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
            if model in recorded:
                output["data"] = {"text/html": player_html(recorded[model], notebook),
                                  "text/plain": output["data"].get("text/plain", "")}
                replaced += 1
    if not any(WIDGET_VIEW in o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])):
        nb.metadata.pop("widgets", None)        # no widget left for the saved state to draw
    return replaced

"""The static site's widgets: steppers that play recorded frames, pictures whose live controls are disabled.

`build_site.py` runs each chapter with one extra cell at the end, `RECORD_CELL`, which writes what every
minigrad widget showed (widgets/_record.py). `replace_widgets` then puts, in place of each such widget's
output, HTML that site_player.js brings to life: Step, Back, Play, Run to end, Reset and the slider step through
the recorded frames. GraphView's checkboxes and Refresh need a kernel: they are drawn disabled, with a note.
Every text on it is the page's language's (widgets/_record.py PLAYER_TEXTS, from the widgets' catalogue): the
buttons read as the widget's own do in a notebook of that language.
"""
import json
from pathlib import Path

from jinja2 import Environment
from markupsafe import Markup

from widgets._record import player_texts
from widgets.i18n import using_language

PLAYER_JS = Path(__file__).with_name("site_player.js")
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def record_cell(frames_path):
    """The code run after a chapter's last cell: save the frames of every widget it showed."""
    return f"import widgets._record\nwidgets._record.save_frames({str(frames_path)!r})"


TEMPLATES = Environment(autoescape=True).from_string("""
{%- macro note(text) -%}
<div class="mg-note">{{ text }} {{ download }}</div>
{%- endmacro -%}
{%- if entry.frames -%}
<div class="mg-player" data-start="{{ entry.start }}" data-position="{{ t['position_' + entry.unit] }}"
 data-play="▶ {{ t.play }}" data-pause="❚❚ {{ t.pause }}">
 <div class="mg-controls">
  <button data-act="step">{{ t.step }}</button> <button data-act="back">{{ t.back }}</button>
  <button data-act="play" title="{{ t.play_tip }}">▶ {{ t.play }}</button>
  <button data-act="run">{{ t.run }}</button> <button data-act="reset">{{ t.reset }}</button>
  <input class="mg-slider" type="range" min="0" value="0" aria-label="{{ t['unit_' + entry.unit] }}">
  <span class="mg-position"></span>
  <span class="mg-zoom">{{ t.zoom }} <button data-zoom="fit">{{ t.fit }}</button>
   <button data-zoom="100">100 %</button></span>
 </div>
 <div class="mg-row"><div class="mg-graph"></div><div class="mg-panel"></div></div>
 <script type="application/json" class="mg-frames">{{ frames_json }}</script>
 {{ note(t.note_frames) }}
</div>
{%- else -%}
<div class="mg-view">
 <div class="mg-controls"><label><input type="checkbox" disabled checked> {{ t['values'] }}</label>
  <label><input type="checkbox" disabled checked> {{ t.saved }}</label>
  <button disabled>{{ t.refresh }}</button></div>
 <div class="mg-graph">{{ svg }}</div>
 {{ note(t.note_view) }}
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


def player_html(entry, notebook, language="en"):
    """The HTML standing for one recorded widget, its texts in `language` ("en" or "zh", the page's)."""
    with using_language(language):
        texts = player_texts()
    frames_json = json.dumps(entry.get("frames", [])).replace("</", "<\\/")
    download = Markup(texts["download"]).format(notebook=f"notebooks/{notebook}")     # the href is escaped
    return TEMPLATES.render(entry=entry, t=texts, frames_json=Markup(frames_json), download=download,
                            svg=Markup(entry.get("svg", "")))


def replace_widgets(nb, recorded, notebook, language="en"):
    """Replace the output of every widget in `recorded` ({model id: record}) by its site HTML, its texts in
    `language`; return how many."""
    replaced = 0
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            model = output.get("data", {}).get(WIDGET_VIEW, {}).get("model_id")
            if model in recorded:
                output["data"] = {"text/html": player_html(recorded[model], notebook, language),
                                  "text/plain": output["data"].get("text/plain", "")}
                replaced += 1
    if not any(WIDGET_VIEW in o.get("data", {}) for c in nb.cells for o in c.get("outputs", [])):
        nb.metadata.pop("widgets", None)        # no widget left for the saved state to draw
    return replaced

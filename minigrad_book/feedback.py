"""One feedback page per student: each exercise's points, status, and the check's hint (HTML, no scripts)."""
from itertools import groupby
from pathlib import Path

import jinja2

from .messages import STATUS

PAGE = jinja2.Template("""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Feedback for {{ student }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; line-height: 1.4 }
table { border-collapse: collapse; width: 100% }
td, th { border-bottom: 1px solid #ddd; padding: .4rem; text-align: left }
.correct { color: #1a7f37 } .other { color: #b35900 } code { white-space: pre-wrap }
</style></head><body>
<h1>Feedback for {{ student }}</h1>
<p>Total: {{ "%g"|format(total) }} of {{ "%g"|format(possible) }} points.</p>
{% for chapter, rows in chapters %}
<h2>{{ chapter }}</h2>
<table><tr><th>Exercise</th><th>Points</th><th>Status</th><th>What the grader says</th></tr>
{% for row in rows %}<tr>
<td>{{ row.exercise or "—" }}</td><td>{{ row.points }} / {{ row.max_points }}</td>
<td class="{{ 'correct' if row.status == 'correct' else 'other' }}">{{ row.status }}</td>
<td>{{ explain[row.status] }}
{% if row.message %}<br>Check: <code>{{ row.message }}</code>{% endif %}
{% if row.detail %}<br>Details: <code>{{ row.detail }}</code>{% endif %}</td>
</tr>{% endfor %}
</table>
{% endfor %}
</body></html>
""", autoescape=True)


def write_pages(rows, folder):
    """Write folder/<student>.html for every student in `rows` (sorted by student, then chapter)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    for student, mine in groupby(rows, key=lambda r: r["student"]):
        mine = list(mine)
        chapters = [(chapter, list(group)) for chapter, group in groupby(mine, key=lambda r: r["chapter"])]
        html = PAGE.render(student=student, chapters=chapters, explain=STATUS,
                           total=sum(float(r["points"]) for r in mine),
                           possible=sum(float(r["max_points"]) for r in mine))
        (folder / f"{_safe(student)}.html").write_text(html, encoding="utf-8")


def _safe(name):
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name).lstrip(".") or "_"

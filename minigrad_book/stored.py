"""How the book stores a notebook after running it: one rule for `make book` (.ci/execute_notebooks.py) and for
the student copies that `minigrad-book release` re-executes, so both store the same bytes.

What cannot be stored reproducibly is dropped: the widget state (`metadata.widgets`, random model ids), the
widget-view part of widget outputs (their text and PNG stay), per-cell timings of an earlier run; and consecutive
pieces of one stream are joined (how output gets split depends on timing, not on the code).
"""
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def store_like_the_book(nb):
    """Change `nb` in place as described above."""
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        cell.metadata.pop("execution", None)
        merged = []
        for out in cell.get("outputs", []):
            out.get("data", {}).pop(WIDGET_VIEW, None)
            if (merged and out.get("output_type") == "stream" == merged[-1].get("output_type")
                    and merged[-1]["name"] == out["name"]):
                merged[-1]["text"] += out["text"]
            else:
                merged.append(out)
        if "outputs" in cell:
            cell["outputs"] = merged

"""The step controls shared by BackwardStepper and ModuleApplyView: Step, Back, Play/Pause, Run to end, Reset.

`Stepping` holds the named handlers (`on_step`, `on_back`, ...), so tests call them directly, as a click
would. The widget that mixes it in provides `position`, `total`, `step()`, `back()`, `reset()`,
`run_to_end()`, `go_to(n)` and `_render()`. `Stepping` also lays the widget out: the controls on top, then the
picture (with its zoom buttons) and the panel beside it, or below it when the graph is wide.
"""
import ipywidgets as w

from ._picture import Picture, Stored, arrange_row, picture_row
from .i18n import N_, _

# the tooltips of Step, Back and Run to end, and the slider's name, for each unit the controls count in
UNIT_TEXTS = {"step": (N_("next step"), N_("previous step"), N_("every remaining step"), N_("step")),
              "visit": (N_("next visit"), N_("previous visit"), N_("every remaining visit"), N_("visit"))}


class StepControls:
    """The buttons and sliders; `box` is the row to put on screen."""

    def __init__(self, owner, total, unit="step"):
        def button(description, icon, tooltip):
            return w.Button(description=description, icon=icon, tooltip=tooltip,
                            layout=w.Layout(width="auto"))
        next_tip, previous_tip, remaining_tip, unit_name = UNIT_TEXTS[unit]
        self.step = button(_("Step"), "step-forward", _(next_tip))
        self.back = button(_("Back"), "step-backward", _(previous_tip))
        self.run = button(_("Run to end"), "fast-forward", _(remaining_tip))
        self.reset = button(_("Reset"), "undo", _("back to the start"))
        self.play = w.Play(value=0, min=0, max=max(total, 1), interval=800, show_repeat=False,
                           tooltip=_("play / pause"))
        self.speed = w.IntSlider(value=800, min=100, max=3000, step=100, description=_("ms per step"),
                                 style={"description_width": "initial"}, layout=w.Layout(width="260px"))
        self.slider = w.IntSlider(value=0, min=0, max=max(total, 1), description=_(unit_name),
                                  layout=w.Layout(width="320px"))
        self.step.on_click(owner.on_step)
        self.back.on_click(owner.on_back)
        self.run.on_click(owner.on_run)
        self.reset.on_click(owner.on_reset)
        self.play.observe(owner.on_play, names="value")
        self.slider.observe(owner.on_slider, names="value")
        self.speed.observe(owner.on_speed, names="value")
        self.box = w.VBox([w.HBox([self.step, self.back, self.play, self.run, self.reset]),
                           w.HBox([self.slider, self.speed])])


class Stepping(Stored):
    """Named handlers for the controls; each one does what its button says and redraws."""

    _syncing = False
    error = None        # the message of the last handler that failed (also shown in the panel)

    def on_step(self, _):
        self._safely(self.step)

    def on_back(self, _):
        self._safely(self.back)

    def on_run(self, _):
        self._safely(self.run_to_end)

    def on_reset(self, _):
        self._safely(self.reset)

    def on_slider(self, change):
        if not self._syncing:
            self._safely(self.go_to, change["new"])

    def on_play(self, change):
        # the Play widget counts in the browser; each tick asks for that step (its stop button asks for 0)
        if not self._syncing:
            self._safely(self.go_to, change["new"])

    def on_speed(self, change):
        self.controls.play.interval = change["new"]

    def _safely(self, action, *args):
        """Run a handler's action; if it fails, show the error in the panel instead of losing it in a log."""
        self.error = None
        try:
            action(*args)
        except Exception as error:  # noqa: BLE001 - a click must never end in an invisible traceback
            self.error = f"{type(error).__name__}: {error}"
            self._render()

    def _children(self):
        """The widget's rows: the controls, then the picture and the panel."""
        self.picture = Picture()
        self.graph_html, self.panel_html = self.picture.html, w.HTML()
        self._row = picture_row(self.picture, self.panel_html)
        return [self.controls.box, self._row]

    def _show(self, digraph, panel, at_end):
        """Draw the picture and the panel, and set the controls for this position."""
        self.picture.show(digraph)
        self.panel_html.value = panel
        arrange_row(self._row, self.picture)
        self._sync_controls(at_end)

    def description(self):
        return _("{summary} (a widget: run the cell in Jupyter to step through it)").format(summary=repr(self)[1:-1])

    def snapshot(self):
        return {"position": self.position, "svg": self.picture.html.value}

    def _sync_controls(self, at_end):
        """Move the slider and the Play widget to `position`, without their observers stepping again.

        Back and Reset always work (a finished pass is replayed from its records); Step, Run to end and Play
        are disabled at the end only, and come back after Back or Reset.
        """
        c = self.controls
        self._syncing = True
        try:
            for widget in (c.slider, c.play):
                widget.max = max(self.total, self.position, 1)
                widget.value = self.position
            if at_end:
                c.play.playing = False
            c.step.disabled = c.run.disabled = c.play.disabled = at_end
            c.back.disabled = self.position == 0
            c.reset.disabled = False
        finally:
            self._syncing = False

#!/usr/bin/env python3
"""Time the widgets: drawing a 300-node graph to SVG, and one BackwardStepper step on a 100-node graph.

    .venv/bin/python bench/widgets_bench.py            # 7 runs each, medians
    .venv/bin/python bench/widgets_bench.py --runs 15

A measurement, not a test: nothing here asserts a time. The graphs are layers of `h = tanh(h * w + b)`
(5 nodes per layer: Mul, Add, Tanh and two AccumulateGrad), so 60 layers make 300 nodes and 20 make 100.
"""
import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import minigrad  # noqa: E402
from widgets import BackwardStepper, draw_graph, find_dot  # noqa: E402
from widgets._render import to_svg  # noqa: E402
from widgets.graph import walk  # noqa: E402


def layers(n, width=4):
    """A graph of n layers (5 backward nodes each) ending in a scalar loss."""
    minigrad.manual_seed(0)
    h = minigrad.randn(width)
    for _ in range(n):
        w = minigrad.randn(width, requires_grad=True)
        b = minigrad.randn(width, requires_grad=True)
        h = (h * w + b).tanh()
    return h.sum()


def median_ms(fn, runs, setup=None):
    times = []
    for _ in range(runs):
        state = setup() if setup else None
        start = time.perf_counter()
        fn(state)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times), max(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    if find_dot() is None:
        sys.exit("no Graphviz renderer: run `make dot` first")

    big = layers(60)
    nodes = len(walk([big])) - 1          # SumBackward0 is the 301st node
    rows = []
    graph = draw_graph(big)
    rows.append((f"draw_graph: DOT for a {nodes + 1}-node graph", *median_ms(lambda _: draw_graph(big), args.runs)))
    rows.append((f"dot -Tsvg of that graph ({len(graph.body)} DOT lines)",
                 *median_ms(lambda _: to_svg(graph), args.runs)))
    rows.append(("draw_graph + SVG, together", *median_ms(lambda _: to_svg(draw_graph(big)), args.runs)))

    small_nodes = len(walk([layers(20)]))

    def fresh_stepper_at(k):
        def setup():
            stepper = BackwardStepper(layers(20), retain_graph=True)
            stepper.go_to(k)
            return stepper
        return setup
    rows.append((f"stepper.step() on a {small_nodes}-node graph (engine + DOT + SVG + panel)",
                 *median_ms(lambda s: s.step(), args.runs, fresh_stepper_at(50))))
    rows.append(("  of which the engine's next() and bookkeeping",
                 *median_ms(lambda s: s._advance(), args.runs, fresh_stepper_at(50))))
    rows.append(("stepper.back() from step 50 (reset + replay 49 + draw)",
                 *median_ms(lambda s: s.back(), args.runs, fresh_stepper_at(50))))
    rows.append((f"last step with retain_graph=False (replays all {small_nodes})",
                 *median_ms(lambda s: s.step(), args.runs,
                            lambda: _at_last(BackwardStepper(layers(20))))))
    rows.append(("BackwardStepper(...) construction (first picture)",
                 *median_ms(lambda g: BackwardStepper(g), args.runs, lambda: layers(20))))

    width = max(len(r[0]) for r in rows)
    print(f"{'what':<{width}}  {'median ms':>9}  {'min':>7}  {'max':>7}   ({args.runs} runs)")
    for name, med, lo, hi in rows:
        print(f"{name:<{width}}  {med:9.2f}  {lo:7.2f}  {hi:7.2f}")


def _at_last(stepper):
    stepper.go_to(stepper.total - 1)
    return stepper


if __name__ == "__main__":
    main()

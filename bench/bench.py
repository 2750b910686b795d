#!/usr/bin/env python3
"""Time the same workloads on minigrad and on real PyTorch, in one run, and print the ratio.

    .venv/bin/python bench/bench.py            # every workload, 7 alternating runs each
    .venv/bin/python bench/bench.py --runs 15  # steadier medians
    .venv/bin/python bench/bench.py --runs 40 --stat min   # on a noisy machine: the best run of each library

Each library runs in its own worker process, as it would in a user's program (in one process, Python's
garbage collector would also scan the other library's objects), single-threaded, BLAS included. Runs
alternate minigrad, torch, minigrad, ...; the table shows the median of each (the minimum with `--stat min`)
and minigrad/torch. Without torch installed only minigrad's column is filled. Peak memory is measured in a
fresh subprocess per library (peak RSS above the post-import baseline, with large blocks mmap'd so that freed
memory shows).
"""
import os

for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[var] = "1"

import argparse  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

import numpy as np  # noqa: E402


def load(name):
    """Import one library the way the workloads use it; None if it is not installed."""
    try:
        lib = __import__(name)
    except ImportError:
        return None
    if name == "torch":
        lib.set_num_threads(1)
    return lib


def per_op_overhead(lib, data):
    """300 elementwise ops on 16-element tensors, forward + backward."""
    x = lib.tensor(data["v16"], requires_grad=True)
    y = x
    for _ in range(100):
        y = (y * 1.01 + 0.5).tanh()
    y.sum().backward()


def small_mlp_training(lib, data):
    """20 SGD steps of a 2-16-16-1 MLP on 100 points (full batch), with the three-line loop."""
    nn = lib.nn
    model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 16), nn.ReLU(), nn.Linear(16, 1))
    opt = lib.optim.SGD(model.parameters(), lr=0.1)
    x, y = lib.tensor(data["x100"]), lib.tensor(data["y100"])
    loss_fn = nn.MSELoss()
    for _ in range(20):
        opt.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        opt.step()


def large_mlp_step(lib, data):
    """One training step of a 784-256-10 MLP on a batch of 256 (cross-entropy, SGD with momentum)."""
    nn = lib.nn
    lib.manual_seed(0)
    model = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
    opt = lib.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    x, y = lib.tensor(data["x784"]), lib.tensor(data["y784"])
    opt.zero_grad()
    nn.functional.cross_entropy(model(x), y).backward()
    opt.step()


def custom_function_loop(lib, data):
    """A custom Function (forward + setup_context + backward) applied 200 times in a chain."""
    Square = data["square"][lib.__name__]
    x = lib.tensor(data["v16"], requires_grad=True)
    y = x
    for _ in range(200):
        y = Square.apply(y * 0.5)
    y.sum().backward()


def long_chain(lib, data):
    """A 20,000-node chain (scalar), forward + backward."""
    x = lib.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(20_000):
        y = y * 1.0
    y.backward()


WORKLOADS = [per_op_overhead, small_mlp_training, large_mlp_step, custom_function_loop, long_chain]


def make_square(lib):
    class Square(lib.autograd.Function):
        @staticmethod
        def forward(x):
            return x * x

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(inputs[0])

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return 2 * x * grad_output
    return Square


def make_data(lib):
    rng = np.random.default_rng(0)
    return {
        "v16": rng.random(16).astype(np.float32),
        "x100": rng.standard_normal((100, 2)).astype(np.float32),
        "y100": rng.standard_normal((100, 1)).astype(np.float32),
        "x784": rng.standard_normal((256, 784)).astype(np.float32),
        "y784": rng.integers(0, 10, 256),
        "square": {lib.__name__: make_square(lib)},
    }


def timed(fn, lib, data):
    start = time.perf_counter()
    fn(lib, data)
    return time.perf_counter() - start


MEMORY_SCRIPT = """
import os, resource, sys
for v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[v] = "1"
import numpy as np
lib = __import__(sys.argv[1])
def rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024
x = lib.tensor(np.ones(1_000_000, np.float32), requires_grad=True)
base = rss_mb()
peak = base
y = x
for _ in range(50):
    y = (y * 1.0001).tanh()      # each node saves a 4 MB tensor
    peak = max(peak, rss_mb())
y.sum().backward()
peak = max(peak, rss_mb())
after = rss_mb()                 # saved tensors freed by backward (y itself still alive)
print(peak - base, after - base)
"""


def memory(lib_name):
    # large blocks straight from mmap, so that freeing them shows in the RSS (glibc would keep them otherwise)
    env = dict(os.environ, MALLOC_MMAP_THRESHOLD_="131072")
    out = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT, lib_name], capture_output=True, text=True,
                         check=True, env=env).stdout.split()
    return float(out[0]), float(out[1])


def worker(name):
    """Serve timing requests on stdin: a workload's name in, its time in seconds out."""
    lib = load(name)
    print("ready" if lib else "missing", flush=True)
    if lib is None:
        return
    data = make_data(lib)
    workloads = {fn.__name__: fn for fn in WORKLOADS}
    for line in sys.stdin:
        print(timed(workloads[line.strip()], lib, data), flush=True)


class Worker:
    def __init__(self, name):
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", name], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)
        self.available = self.proc.stdout.readline().strip() == "ready"

    def time(self, workload):
        self.proc.stdin.write(workload + "\n")
        self.proc.stdin.flush()
        return float(self.proc.stdout.readline())

    def close(self):
        self.proc.stdin.close()
        self.proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--stat", choices=("median", "min"), default="median",
                        help="median (default); min is what a quiet machine would show, on a shared one")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        return worker(args.worker)
    mg, th = Worker("minigrad"), Worker("torch")
    workers = [mg] + ([th] if th.available else [])
    if not th.available:
        print("torch not installed (`make torch`): minigrad's times only, no ratios")
    print(f"{'workload':24s} {'minigrad':>12s} {'torch':>12s} {'ratio':>7s}")
    worst = 0.0
    for fn in WORKLOADS:
        for w in workers:                      # warm-up
            w.time(fn.__name__)
        times = {w: [] for w in workers}
        for _ in range(args.runs):
            for w in workers:
                times[w].append(w.time(fn.__name__))
        stat = min if args.stat == "min" else statistics.median
        m = stat(times[mg])
        t = stat(times[th]) if th.available else None
        ratio = m / t if t else None
        worst = max(worst, ratio or 0)
        print(f"{fn.__name__:24s} {m * 1e3:9.2f} ms " + (f"{t * 1e3:9.2f} ms {ratio:7.2f}" if t else
                                                         f"{'not installed':>12s} {'-':>7s}"))
    for w in workers:
        w.close()
    mg_peak, mg_after = memory("minigrad")
    line = f"{'chain peak memory':24s} {mg_peak:9.0f} MB"
    if th.available:
        th_peak, th_after = memory("torch")
        line += f" {th_peak:9.0f} MB {mg_peak / th_peak:7.2f}"
        worst = max(worst, mg_peak / th_peak)
    print(line)
    print(f"{'memory after backward':24s} {mg_after:9.0f} MB" + (f" {th_after:9.0f} MB" if th.available else ""))
    if th.available:
        print(f"worst ratio: {worst:.2f}")


if __name__ == "__main__":
    main()

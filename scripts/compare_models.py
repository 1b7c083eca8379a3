#!/usr/bin/env python3
"""Compare the model kernels with numpy (OpenBLAS) and onnxruntime, in one run.

Measures, on this machine and in this order:

1. numpy's 512x512x512 f32 matrix product with OpenBLAS on 1 and 2 threads;
2. onnxruntime running the forward pass of TFRT's `bm_mnist` (batch 100,
   784 -> 512 -> 10, ReLU, argmax, accuracy) on weights of ones, with 1 and
   2 intra-op threads;
3. `cargo bench -p bef --bench models`, the same two computations through
   the host runtime under the work queues `s` and `mstd:2`;

then prints one table of medians with the ratios. numpy and onnxruntime run
in child processes so that each gets its own thread settings.

`--rounds N` repeats the measurements N times, each round running every
engine once in the same order, so that load from other processes falls on
all of them alike; the table then gives the median of the rounds' medians
and the fastest sample of all rounds, and each round's medians are printed
as they come. `--mlp-only` leaves out the 512³ products.

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install -r scripts/requirements.txt
    /tmp/venv/bin/python scripts/compare_models.py [--rounds N] [--mlp-only]
"""

import argparse

import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
SIDE = 512
BATCH, INPUTS, HIDDEN, CLASSES = 100, 784, 512, 10
MATMUL_FLOPS = 2 * SIDE**3
MLP_FLOPS = 2 * BATCH * (INPUTS * HIDDEN + HIDDEN * CLASSES)
SECONDS_PER_CASE = 5.0


def timed(run, seconds=SECONDS_PER_CASE):
    """Median and fastest seconds per call of `run`, after a warm-up."""
    for _ in range(10):
        run()
    samples = []
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline or len(samples) < 20:
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples), min(samples)


def numpy_matmul():
    import numpy as np

    a = np.full((SIDE, SIDE), 0.5, dtype=np.float32)
    b = np.full((SIDE, SIDE), 2.0, dtype=np.float32)
    c = np.empty((SIDE, SIDE), dtype=np.float32)
    return timed(lambda: np.matmul(a, b, out=c))


def onnxruntime_mlp(threads):
    import numpy as np
    import onnx
    import onnxruntime as ort
    from onnx import TensorProto, helper, numpy_helper

    ones = lambda *shape: np.ones(shape, dtype=np.float32)
    weights = {"w1": ones(INPUTS, HIDDEN), "b1": ones(HIDDEN), "w2": ones(HIDDEN, CLASSES), "b2": ones(CLASSES)}
    nodes = [
        helper.make_node("MatMul", ["x", "w1"], ["xw1"]),
        helper.make_node("Add", ["xw1", "b1"], ["h_pre"]),
        helper.make_node("Relu", ["h_pre"], ["h"]),
        helper.make_node("MatMul", ["h", "w2"], ["hw2"]),
        helper.make_node("Add", ["hw2", "b2"], ["scores"]),
        helper.make_node("ArgMax", ["scores"], ["predicted"], axis=1, keepdims=0),
        helper.make_node("Cast", ["labels"], ["labels64"], to=TensorProto.INT64),
        helper.make_node("Equal", ["predicted", "labels64"], ["equal"]),
        helper.make_node("Cast", ["equal"], ["correct"], to=TensorProto.FLOAT),
        helper.make_node("ReduceMean", ["correct"], ["accuracy"], keepdims=0),
    ]
    graph = helper.make_graph(
        nodes,
        "bm_mnist",
        [
            helper.make_tensor_value_info("x", TensorProto.FLOAT, [BATCH, INPUTS]),
            helper.make_tensor_value_info("labels", TensorProto.INT32, [BATCH]),
        ],
        [helper.make_tensor_value_info("accuracy", TensorProto.FLOAT, [])],
        initializer=[numpy_helper.from_array(v, k) for k, v in weights.items()],
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    onnx.checker.check_model(model)
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = ort.InferenceSession(model.SerializeToString(), options, providers=["CPUExecutionProvider"])
    feeds = {"x": ones(BATCH, INPUTS), "labels": np.full(BATCH, 7, dtype=np.int32)}
    return timed(lambda: session.run(["accuracy"], feeds))


def child(case, threads):
    """Runs `case` in a child process with `threads` threads everywhere."""
    env = dict(os.environ)
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        env[name] = str(threads)
    out = subprocess.run(
        [sys.executable, __file__, "--child", case, str(threads)],
        env=env, check=True, capture_output=True, text=True,
    ).stdout
    return tuple(json.loads(out))


def criterion(group, queue):
    """The median and fastest sample of a criterion benchmark, in seconds."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    base = target / "criterion" / group / queue.replace(":", "_") / "new"
    estimates = json.loads((base / "estimates.json").read_text())
    sample = json.loads((base / "sample.json").read_text())
    fastest = min(t / n for t, n in zip(sample["times"], sample["iters"]))
    return estimates["median"]["point_estimate"] / 1e9, fastest / 1e9


def threads_of(engine):
    """Threads an engine computes on: `s` is one, `mstd:2` two."""
    if engine.endswith("queue s"):
        return 1
    if engine.endswith("queue mstd:2"):
        return 2
    return int(engine.rsplit(", ", 1)[1].split(" ")[0])


def one_round(mlp_only):
    """Every engine once: rows of (computation, engine, (median, fastest), flops)."""
    rows = []
    if not mlp_only:
        for threads in (1, 2):
            print(f"numpy matmul, {threads} thread(s)...", file=sys.stderr)
            rows.append(("matmul 512³", f"numpy (OpenBLAS), {threads} thread(s)", child("numpy", threads), MATMUL_FLOPS))
    for threads in (1, 2):
        print(f"onnxruntime forward pass, {threads} thread(s)...", file=sys.stderr)
        rows.append(("bm_mnist forward", f"onnxruntime, {threads} thread(s)", child("onnxruntime", threads), MLP_FLOPS))
    print("cargo bench -p bef --bench models ...", file=sys.stderr)
    groups = [("mlp_forward", "bm_mnist forward", MLP_FLOPS)]
    if not mlp_only:
        groups.insert(0, ("matmul_512", "matmul 512³", MATMUL_FLOPS))
    bench = ["cargo", "bench", "-p", "bef", "--bench", "models", "--", "--noplot"]
    if mlp_only:
        bench.append("^mlp_forward/")
    subprocess.run(bench, cwd=ROOT, check=True, stdout=sys.stderr)
    for group, label, flops in groups:
        for queue in ("s", "mstd:2"):
            rows.append((label, f"bef, queue {queue}", criterion(group, queue), flops))
    return rows


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        case, threads = sys.argv[2], int(sys.argv[3])
        result = numpy_matmul() if case == "numpy" else onnxruntime_mlp(threads)
        print(json.dumps(result))
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=1, help="rounds of every engine, alternated")
    parser.add_argument("--mlp-only", action="store_true", help="only the bm_mnist forward pass")
    args = parser.parse_args()

    rounds = []
    for index in range(max(args.rounds, 1)):
        rows = one_round(args.mlp_only)
        rounds.append(rows)
        print(f"round {index + 1}: " + "; ".join(
            f"{label}, {engine}: median {median * 1e3:.3f} ms, fastest {fastest * 1e3:.3f} ms"
            for label, engine, (median, fastest), _ in rows
        ), file=sys.stderr)
    rows = []
    for label, engine, _, flops in rounds[0]:
        samples = [r[2] for rows_of_round in rounds for r in rows_of_round if r[:2] == (label, engine)]
        median = statistics.median(m for m, _ in samples)
        fastest = min(f for _, f in samples)
        rows.append((label, engine, (median, fastest), flops))

    if len(rounds) > 1:
        print(f"Medians of {len(rounds)} rounds; fastest sample of all rounds.")
    print("| computation | engine | median | GFLOP/s (median) | fastest | vs. best baseline (median) | vs. baseline on as many threads (median) |")
    print("|---|---|---|---|---|---|---|")
    for label in ("matmul 512³", "bm_mnist forward"):
        cases = [r for r in rows if r[0] == label]
        if not cases:
            continue
        baselines = [r for r in cases if not r[1].startswith("bef")]
        best_baseline = min(r[2][0] for r in baselines)
        for _, engine, (median, fastest), flops in cases:
            same = [r[2][0] for r in baselines if threads_of(r[1]) == threads_of(engine)]
            vs_same = f"{same[0] / median:.2f}×" if engine.startswith("bef") and same else ""
            print(
                f"| {label} | {engine} | {median * 1e3:.3f} ms | {flops / median / 1e9:.1f} | "
                f"{fastest * 1e3:.3f} ms | {best_baseline / median:.2f}× | {vs_same} |"
            )


if __name__ == "__main__":
    main()

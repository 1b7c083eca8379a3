#!/usr/bin/env python3
"""Time `bef-trace record` against `bef run` on a chain of cheap kernels.

Generates (once, into --dir) `chain.mlir`: `func.func @chain() -> i32`, a
constant then N chained `tfrt.add.i32` (200,000 by default), returning the
last. Then, for ROUNDS rounds, runs each variant once per round in turn
(so load from other processes falls on all of them alike) and prints the
wall time of each run, the median per variant and its ratio to `bef run`:

  run          bef run chain.mlir
  record       bef-trace record chain.mlir -o OUT
  no-embed     ... --no-embed
  no-source    ... --no-source

    cargo build --release -p bef --features cli --bin bef
    cargo build --release -p bef-trace --features cli --bin bef-trace
    scripts/record_cost.py --bin $CARGO_TARGET_DIR/release --dir /tmp/rc
"""

import argparse
import os
import statistics
import subprocess
import sys
import time


def generate(path, kernels):
    lines = ["func.func @chain() -> i32 {", "  %c = tfrt.constant.i32 1", "  %v0 = tfrt.constant.i32 0"]
    for n in range(1, kernels + 1):
        lines.append(f"  %v{n} = tfrt.add.i32 %v{n - 1}, %c")
    lines.append(f"  tfrt.return %v{kernels} : i32")
    lines.append("}")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin", required=True, help="directory holding bef and bef-trace")
    parser.add_argument("--dir", required=True, help="where the program and recordings go")
    parser.add_argument("--kernels", type=int, default=200_000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    os.makedirs(args.dir, exist_ok=True)
    program = os.path.join(args.dir, f"chain{args.kernels}.mlir")
    if not os.path.exists(program):
        generate(program, args.kernels)
    bef = os.path.join(args.bin, "bef")
    trace = os.path.join(args.bin, "bef-trace")
    out = os.path.join(args.dir, "out.beftrace")
    variants = {
        "run": [bef, "run", program],
        "record": [trace, "record", program, "-o", out],
        "no-embed": [trace, "record", program, "-o", out, "--no-embed"],
        "no-source": [trace, "record", program, "-o", out, "--no-source"],
    }
    times = {name: [] for name in variants}
    for round_ in range(args.rounds):
        for name, command in variants.items():
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            elapsed = time.perf_counter() - start
            times[name].append(elapsed)
            print(f"round {round_ + 1} {name:10} {elapsed * 1000:8.1f} ms", file=sys.stderr)
    base = statistics.median(times["run"])
    print(f"{'variant':10} {'median ms':>10} {'ratio':>6}")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"{name:10} {median * 1000:10.1f} {median / base:6.2f}")


if __name__ == "__main__":
    main()

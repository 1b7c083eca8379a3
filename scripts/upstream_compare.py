#!/usr/bin/env python3
"""Time `bef` against upstream MLIR's `iree-opt` on a large generated program.

Generates, once, a program of FUNCTIONS functions, each a chain of CHAIN
`"tfrt.add.i32"` ops in the generic op form (2,000 x 400 by default, about
45 MB), then runs each path ROUNDS times, alternating ours and upstream's
within each round, as a user runs tools one after another. Every run goes
through `/usr/bin/time` for wall time, user and system time and peak RSS.

Paths:
  text -> bytecode      bef translate --emit-bytecode  |  iree-opt --emit-bytecode
  text -> BEF           bef translate --mlir-to-bef    |  (upstream: text -> bytecode)
  bytecode -> bytecode  both read upstream's bytecode of the program

    python3 -m venv /work/venv-iree && /work/venv-iree/bin/pip install iree-base-compiler
    cargo build --release -p bef
    scripts/upstream_compare.py --bef $CARGO_TARGET_DIR/release/bef \\
        --iree-opt /work/venv-iree/bin/iree-opt --dir /tmp/compare

Extra environment for our runs only: --env NAME=VALUE (repeatable), e.g.
--env MIMALLOC_ALLOW_THP=0 to compare allocator settings.
Prints one line per run and a table of medians with the ratios.
"""

import argparse
import os
import statistics
import subprocess
import sys


def generate(path, functions, chain):
    """Writes the program unless a file of that name exists."""
    if os.path.exists(path):
        return
    with open(path + ".part", "w") as out:
        out.write('"builtin.module"() ({\n')
        for f in range(functions):
            out.write(
                '  "func.func"() <{function_type = (i32) -> i32, '
                f'sym_name = "chain{f}"}}> ({{\n'
                "  ^bb0(%arg0: i32):\n"
            )
            previous = "%arg0"
            for i in range(chain):
                out.write(
                    f'    %{i} = "tfrt.add.i32"({previous}, %arg0) : (i32, i32) -> i32\n'
                )
                previous = f"%{i}"
            out.write(f'    "tfrt.return"({previous}) : (i32) -> ()\n')
            out.write("  }) : () -> ()\n")
        out.write("}) : () -> ()\n")
    os.replace(path + ".part", path)


def timed(command, env):
    """(wall s, user+sys s, peak RSS MiB) of one run; exits if it fails."""
    timing = ["/usr/bin/time", "-f", "%e %U %S %M"]
    done = subprocess.run(
        timing + command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    last = done.stderr.strip().splitlines()[-1] if done.stderr.strip() else ""
    if done.returncode != 0:
        sys.exit(f"error: {' '.join(command)} failed:\n{done.stderr}")
    wall, user, system, rss_kib = last.split()
    return float(wall), float(user) + float(system), int(rss_kib) / 1024


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bef", required=True)
    parser.add_argument("--iree-opt", required=True)
    parser.add_argument("--dir", required=True, help="where the program and outputs go")
    parser.add_argument("--functions", type=int, default=2000)
    parser.add_argument("--chain", type=int, default=400)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--env", action="append", default=[], metavar="NAME=VALUE")
    parser.add_argument("--paths", default="bytecode,bef,roundtrip")
    args = parser.parse_args()

    os.makedirs(args.dir, exist_ok=True)
    text = os.path.join(args.dir, f"chain_{args.functions}x{args.chain}.mlir")
    generate(text, args.functions, args.chain)
    upstream_bc = text + ".upstream.mlirbc"
    upstream = [args.iree_opt, "--allow-unregistered-dialect"]
    if not os.path.exists(upstream_bc):
        subprocess.run(upstream + ["--emit-bytecode", text, "-o", upstream_bc], check=True)
    out = lambda name: os.path.join(args.dir, name)
    ours_env = dict(os.environ)
    for setting in args.env:
        name, _, value = setting.partition("=")
        ours_env[name] = value
    size = os.path.getsize(text) / 1e6
    print(f"program: {text}, {size:.1f} MB; our environment: {args.env or 'unchanged'}")

    upstream_text = upstream + ["--emit-bytecode", text, "-o", out("upstream.mlirbc")]
    paths = {
        "bytecode": (
            "text -> bytecode",
            [args.bef, "translate", "--emit-bytecode", text, "-o", out("ours.mlirbc")],
            upstream_text,
        ),
        "bef": (
            "text -> BEF (upstream: text -> bytecode)",
            [args.bef, "translate", "--mlir-to-bef", text, "-o", out("ours.bef")],
            upstream_text,
        ),
        "roundtrip": (
            "bytecode -> bytecode",
            [args.bef, "translate", "--emit-bytecode", upstream_bc, "-o", out("ours2.mlirbc")],
            upstream + ["--emit-bytecode", upstream_bc, "-o", out("upstream2.mlirbc")],
        ),
    }
    results = {}
    for round_number in range(1, args.rounds + 1):
        for key in args.paths.split(","):
            label, ours, theirs = paths[key]
            for who, command, env in (("ours", ours, ours_env), ("upstream", theirs, None)):
                figures = timed(command, env)
                results.setdefault((key, who), []).append(figures)
                wall, cpu, rss = figures
                print(f"round {round_number} {label:42} {who:8} "
                      f"wall {wall:6.2f} s  user+sys {cpu:6.2f} s  peak {rss:7.1f} MiB",
                      flush=True)
    print("\nmedians | wall ours / upstream | user+sys ours / upstream | peak MiB ours / upstream")
    for key in args.paths.split(","):
        label = paths[key][0]
        med = lambda who, i: statistics.median(r[i] for r in results[(key, who)])
        o, u = [med("ours", i) for i in range(3)], [med("upstream", i) for i in range(3)]
        print(f"{label:42} | {o[0]:.2f} / {u[0]:.2f} s = {u[0] / o[0]:.2f}x faster "
              f"| {o[1]:.2f} / {u[1]:.2f} s | {o[2]:.0f} / {u[2]:.0f} "
              f"({o[2] / u[2]:.2f})")


if __name__ == "__main__":
    main()

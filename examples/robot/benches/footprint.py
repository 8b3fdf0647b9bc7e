#!/usr/bin/env python3
"""The code footprint of one request, from a callgrind profile of `intent_paired --alone`.

    valgrind --tool=callgrind --dump-instr=yes --compress-pos=no \\
        --callgrind-out-file=OUT <intent_paired binary> --bench --alone NAME --rounds 50
    python3 benches/footprint.py OUT 10000 [TOP]

Prints the number of distinct 64-byte lines of code holding an instruction that ran at
least 99% as many times as there were iterations (10,000 for 50 rounds of 200): the code
every request runs, which is what the first-level instruction cache must hold. With TOP,
the functions with the most such lines, each with its lines and its instructions per
iteration. See BENCHMARKS.md, issue 29, "Why time and instructions disagree".
"""
import collections
import re
import sys

LINE = 64


def main() -> None:
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    path, iterations = sys.argv[1], int(sys.argv[2])
    top = int(sys.argv[3]) if len(sys.argv) > 3 else 0
    at_least = int(iterations * 0.99)
    names: dict[str, str] = {}
    fn = None
    addr = 0
    after_call = False
    columns = None
    lines: dict[str, set[int]] = collections.defaultdict(set)
    executed: collections.Counter[str] = collections.Counter()
    with open(path) as f:
        for raw in f:
            line = raw.rstrip("\n")
            if not line:
                continue
            if line.startswith("positions:"):
                columns = line.split()[1:]
                if columns[0] != "instr":
                    sys.exit("the profile needs --dump-instr=yes")
                continue
            if line.startswith(("fn=", "cfn=")):
                m = re.match(r"c?fn=\((\d+)\)(?: (.*))?", line)
                if m:
                    if m.group(2):
                        names[m.group(1)] = m.group(2)
                    if line.startswith("fn="):
                        fn = names.get(m.group(1))
                continue
            if line.startswith("calls="):
                after_call = True
                continue
            if line[0].isdigit() or line[0] in "+-*":
                parts = line.split()
                pos = parts[0]
                if pos.startswith("0x"):
                    addr = int(pos, 16)
                elif pos.startswith("+"):
                    addr += int(pos[1:])
                elif pos.startswith("-"):
                    addr -= int(pos[1:])
                if after_call:
                    # The inclusive cost of the call just named, not this function's own.
                    after_call = False
                    continue
                cost = int(parts[len(columns)]) if columns and len(parts) > len(columns) else 0
                if fn is not None and cost >= at_least:
                    lines[fn].add(addr // LINE)
                    executed[fn] += cost
    every = set().union(*lines.values()) if lines else set()
    print(f"{len(every)} lines of {LINE} bytes ({len(every) * LINE} bytes) run on every iteration")
    for name, held in sorted(lines.items(), key=lambda kv: -len(kv[1]))[:top]:
        print(f"{len(held):5} lines {executed[name] / iterations:8.0f} instructions  {name[:110]}")


if __name__ == "__main__":
    main()

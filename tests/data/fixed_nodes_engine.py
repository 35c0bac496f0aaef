#!/usr/bin/env python3
"""A UCI engine at a fixed node count per move, whatever `go` asks.

    python3 tests/data/fixed_nodes_engine.py NODES ENGINE [ARGS...]

Every `go ...` line (but `go perft`) reaches ENGINE as `go nodes NODES`;
everything else passes through both ways unchanged. It gives a match a
fixed opponent while the engine under test keeps its own limits (the
UCI_Elo calibration in docs/strength-limits.md: `--engine-b "python3
tests/data/fixed_nodes_engine.py 10000 target/release/kiln"`, with a
generous clock for both so only the limited engine's own budget binds).
"""

import subprocess
import sys
import threading


def main() -> int:
    if len(sys.argv) < 3 or not sys.argv[1].isdigit():
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    nodes = sys.argv[1]
    engine = subprocess.Popen(
        sys.argv[2:],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )

    def forward_output() -> None:
        for line in engine.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()

    reader = threading.Thread(target=forward_output, daemon=True)
    reader.start()
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["go"] and words[1:2] != ["perft"]:
            line = f"go nodes {nodes}\n"
        try:
            engine.stdin.write(line)
            engine.stdin.flush()
        except BrokenPipeError:
            break
        if words[:1] == ["quit"]:
            break
    try:
        engine.stdin.close()
    except BrokenPipeError:
        pass
    engine.wait()
    reader.join(timeout=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())

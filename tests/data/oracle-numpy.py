"""An exec-device oracle around numpy: D = np.dot(A, B) + C in float32.

    oracle-numpy.py [dot|matmul] [--len N]

Each case's A and B (f32 words, the vector line format, framed or not)
are the first K elements of float32 vectors of length N (default K); the
other elements are zero, so the order found is the one numpy's reduction
of length N takes over those K positions (zeros add nothing). `matmul`
runs the (1 x N) @ (N x 1) product instead of the dot of two vectors.
What numpy (its BLAS) does is whatever it does: this reports, it promises
no order.
"""
import sys

import numpy as np


def main():
    args = sys.argv[1:]
    how = args.pop(0) if args and args[0] in ("dot", "matmul") else "dot"
    length = int(args[1]) if len(args) == 2 and args[0] == "--len" else 0
    for line in sys.stdin:
        frame = ""
        if line.startswith("@"):
            frame, line = line.split(" ", 1)
            frame += " "
        fields = line.strip().split(";")
        a = np.array([int(w, 16) for w in fields[0].split(",")], dtype=np.uint32)
        b = np.array([int(w, 16) for w in fields[1].split(",")], dtype=np.uint32)
        c = np.array([int(fields[2], 16)], dtype=np.uint32).view(np.float32)[0]
        n = max(length, len(a))
        x = np.zeros(n, dtype=np.float32)
        y = np.zeros(n, dtype=np.float32)
        x[: len(a)] = a.view(np.float32)
        y[: len(b)] = b.view(np.float32)
        if how == "dot":
            d = np.dot(x, y)
        else:
            d = (x.reshape(1, n) @ y.reshape(n, 1))[0, 0]
        d = np.float32(d) + c
        word = int(np.array([d], dtype=np.float32).view(np.uint32)[0])
        sys.stdout.write("%s%08x\n" % (frame, word))
        sys.stdout.flush()


main()

#!/usr/bin/env python3
"""The peers of bench_reduce_cuda: PyTorch eager and torch.compile on the same reductions and
sizes (an 8192 x 8192 float matrix, 2^26 floats per vector), timed the same way (CUDA events
around each call, median after a warm-up) against a device-to-device copy of the matrix measured
in the same process. A reduction's bandwidth is the bytes it reads over its time; the copy's is
the bytes it reads plus writes. Run it on the GPU machine next to `bench_reduce_cuda` and compare
the medians:

    python3 bench/torch_reduce.py [--repetitions 50]
"""
import torch

from torch_timing import print_bandwidth_table, repetitions_from_arguments, uniform

ROWS = 1 << 13
COUNT = ROWS * ROWS


def row_sums(m):
    return torch.sum(m, dim=1)


def column_sums(m):
    return torch.sum(m, dim=0)


def row_max(m):
    return torch.amax(m, dim=1)


def full_sum(a):
    return torch.sum(a)


def dot_sum(a, b):
    return torch.sum(a * b)


def softmax_rows(m):
    return torch.softmax(m, dim=1)


def main():
    repetitions = repetitions_from_arguments(__doc__)
    a = uniform((COUNT,), -4.0, 4.0, 1)
    b = uniform((COUNT,), -1.0, 1.0, 2)
    c = uniform((COUNT,), -1.0, 1.0, 3)
    m = a.view(ROWS, ROWS)
    # (name, function, arguments, matrices of floats read per call)
    cases = [
        ("row_sums", row_sums, (m,), 1),
        ("column_sums", column_sums, (m,), 1),
        ("row_max", row_max, (m,), 1),
        ("full_sum", full_sum, (a,), 1),
        ("dot_sum", dot_sum, (a, b), 2),
        ("softmax_rows", softmax_rows, (m,), 1),
    ]
    print_bandwidth_table(cases, COUNT, a, c, repetitions, f"{ROWS} x {ROWS} floats")


if __name__ == "__main__":
    main()

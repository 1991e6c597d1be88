#!/usr/bin/env python3
"""The peers of bench_reduce_cuda: PyTorch eager and torch.compile on the same reductions and
sizes (an 8192 x 8192 float matrix, 2^26 floats per vector), timed the same way (CUDA events
around each call, median after a warm-up) against a device-to-device copy of the matrix measured
in the same process. A reduction's bandwidth is the bytes it reads over its time; the copy's is
the bytes it reads plus writes. Run it on the GPU machine next to `bench_reduce_cuda` and compare
the medians:

    python3 bench/torch_reduce.py [--repetitions 50]
"""
import argparse

import torch

from torch_timing import median_seconds, uniform

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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=50)
    args = parser.parse_args()

    a = uniform((COUNT,), -4.0, 4.0, 1)
    b = uniform((COUNT,), -1.0, 1.0, 2)
    c = uniform((COUNT,), -1.0, 1.0, 3)
    m = a.view(ROWS, ROWS)

    copy_time = median_seconds(c.copy_, (a,), args.repetitions)
    copy_bandwidth = 2 * COUNT * 4 / copy_time

    # (name, function, arguments, matrices of floats read per call)
    cases = [
        ("row_sums", row_sums, (m,), 1),
        ("column_sums", column_sums, (m,), 1),
        ("row_max", row_max, (m,), 1),
        ("full_sum", full_sum, (a,), 1),
        ("dot_sum", dot_sum, (a, b), 2),
        ("softmax_rows", softmax_rows, (m,), 1),
    ]
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, {ROWS} x {ROWS} floats, median of {args.repetitions}")
    print(f"copy (device to device): {copy_time * 1e3:.3f} ms, "
          f"{copy_bandwidth * 1e-9:.0f} GB/s")
    header = f"| {'case':<14} | {'mode':<8} | {'ms':>8} | {'GB/s':>7} | {'of copy':>7} |"
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    for name, function, arguments, matrices in cases:
        modes = [("eager", function), ("compile", torch.compile(function))]
        for mode, callable_ in modes:
            seconds = median_seconds(callable_, arguments, args.repetitions)
            bandwidth = matrices * COUNT * 4 / seconds
            print(f"| {name:<14} | {mode:<8} | {seconds * 1e3:8.3f} | "
                  f"{bandwidth * 1e-9:7.0f} | {bandwidth / copy_bandwidth:7.2f} |")


if __name__ == "__main__":
    main()

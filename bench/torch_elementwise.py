#!/usr/bin/env python3
"""The peers of bench_elementwise_cuda: PyTorch eager and torch.compile on the same expressions
and sizes (2^26 floats per stream, an 8192 x 8192 matrix with an 8192-element bias row), timed
the same way (CUDA events around each call, median after a warm-up) against a device-to-device
copy of 2^26 floats measured in the same process. Run it on the GPU machine next to
`bench_elementwise_cuda` and compare the medians:

    python3 bench/torch_elementwise.py [--repetitions 50]
"""
import argparse

import torch

from torch_timing import median_seconds, uniform

COUNT = 1 << 26
ROWS = 1 << 13


def triad(a, b, d):
    return a * b + 2.0 * d


def sigmoid(a):
    return torch.sigmoid(a)


def sigmoid_literal(a):
    return 1.0 / (1.0 + torch.exp(-a))


def bias_relu(x, bias):
    return torch.relu(x + bias)


def transpose(x):
    return x.t().contiguous()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=50)
    args = parser.parse_args()

    a = uniform((COUNT,), -6.0, 6.0, 1)
    b = uniform((COUNT,), -1.0, 1.0, 2)
    d = uniform((COUNT,), -1.0, 1.0, 3)
    c = uniform((COUNT,), -1.0, 1.0, 4)
    bias = uniform((ROWS,), -0.5, 0.5, 5)
    a2 = a.view(ROWS, ROWS)

    copy_time = median_seconds(c.copy_, (a,), args.repetitions)
    copy_bandwidth = 2 * COUNT * 4 / copy_time

    # (name, function, arguments, arrays of 2^26 floats read or written per call)
    cases = [
        ("triad", triad, (a, b, d), 4),
        ("sigmoid", sigmoid, (a,), 2),
        ("sigmoid_literal", sigmoid_literal, (a,), 2),
        ("bias_relu", bias_relu, (a2, bias), 2),
        ("transpose", transpose, (a2,), 2),
    ]
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, {COUNT} floats per stream, "
          f"median of {args.repetitions}")
    print(f"copy (device to device): {copy_time * 1e3:.3f} ms, "
          f"{copy_bandwidth * 1e-9:.0f} GB/s")
    header = f"| {'case':<16} | {'mode':<8} | {'ms':>8} | {'GB/s':>7} | {'of copy':>7} |"
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    for name, function, arguments, streams in cases:
        modes = [("eager", function), ("compile", torch.compile(function))]
        for mode, callable_ in modes:
            seconds = median_seconds(callable_, arguments, args.repetitions)
            bandwidth = streams * COUNT * 4 / seconds
            print(f"| {name:<16} | {mode:<8} | {seconds * 1e3:8.3f} | "
                  f"{bandwidth * 1e-9:7.0f} | {bandwidth / copy_bandwidth:7.2f} |")


if __name__ == "__main__":
    main()

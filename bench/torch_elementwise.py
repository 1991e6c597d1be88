#!/usr/bin/env python3
"""The peers of bench_elementwise_cuda (and of bench_random_cuda's dropout): PyTorch eager and torch.compile on the same expressions
and sizes (2^26 floats per stream, an 8192 x 8192 matrix with an 8192-element bias row), timed
the same way (CUDA events around each call, median after a warm-up) against a device-to-device
copy of 2^26 floats measured in the same process. Run it on the GPU machine next to
`bench_elementwise_cuda` and compare the medians:

    python3 bench/torch_elementwise.py [--repetitions 50]
"""
import torch

from torch_timing import print_bandwidth_table, repetitions_from_arguments, uniform

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


def dropout(x):
    return torch.nn.functional.dropout(x, p=0.1, training=True)


def main():
    repetitions = repetitions_from_arguments(__doc__)
    a = uniform((COUNT,), -6.0, 6.0, 1)
    b = uniform((COUNT,), -1.0, 1.0, 2)
    d = uniform((COUNT,), -1.0, 1.0, 3)
    c = uniform((COUNT,), -1.0, 1.0, 4)
    bias = uniform((ROWS,), -0.5, 0.5, 5)
    a2 = a.view(ROWS, ROWS)
    # (name, function, arguments, arrays of 2^26 floats read or written per call)
    cases = [
        ("triad", triad, (a, b, d), 4),
        ("sigmoid", sigmoid, (a,), 2),
        ("sigmoid_literal", sigmoid_literal, (a,), 2),
        ("bias_relu", bias_relu, (a2, bias), 2),
        ("transpose", transpose, (a2,), 2),
        ("dropout", dropout, (a,), 2),
    ]
    print_bandwidth_table(cases, COUNT, a, c, repetitions, f"{COUNT} floats per stream")


if __name__ == "__main__":
    main()

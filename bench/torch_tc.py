#!/usr/bin/env python3
"""The PyTorch peers of bench_tc_cuda: Tensor Comprehensions' workloads at the paper's sizes,
eager and under torch.compile, timed the same way (CUDA events around each call, median after a
warm-up):
  - tmm C = A B^T at (M, N, K) = (128, 256, 32), (128, 1024, 1024), (128, 16384, 4096);
  - tbmm Z = X Y^T per batch at (B, N, M, K) = (500, 26, 72, 26);
  - gconv, the grouped 3x3 convolution (cuDNN through conv2d with groups) at
    (N, G, F, C, W, H) = (32, 32, 16, 16, 14, 14) and (32, 32, 4, 4, 56, 56);
  - 2LUT, two embedding gathers summed over L (tables of 10^7 x 64, or TENSORX_TC_LUT_ROWS);
  - MLP1 and MLP3, relu(x w^T + bias) layers of 2000 -> 128 -> 64 -> 32 -> 2 at batch 128.
Run it on the GPU machine next to bench_tc_cuda and compare the medians:

    python3 bench/torch_tc.py [--repetitions 50]
"""
import os

import torch

from torch_timing import median_seconds, repetitions_from_arguments, uniform


def transposed_matmul(a, b):
    return torch.matmul(a, b.transpose(-1, -2))


def grouped_convolution(images, weights, groups):
    return torch.nn.functional.conv2d(images, weights, groups=groups)


def two_lut(lut1, ids1, lut2, ids2):
    return lut1[ids1].sum(1), lut2[ids2].sum(1)


def mlp(x, layers):
    for w, bias in layers:
        x = torch.relu(torch.addmm(bias, x, w.t()))
    return x


def report(name, mode, seconds, flop):
    rate = f"{flop / seconds * 1e-12:7.2f}" if flop else "      -"
    print(f"| {name:<40} | {mode:<8} | {seconds * 1e6:10.1f} | {rate} |")


def both(name, function, arguments, flop, repetitions):
    """Times `function` eager and compiled and prints a row for each."""
    compiled = torch.compile(function)
    for mode, callable_ in (("eager", function), ("compile", compiled)):
        report(name, mode, median_seconds(callable_, arguments, repetitions), flop)


def main():
    repetitions = repetitions_from_arguments(__doc__)
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, median of {repetitions}")
    print(f"| {'case':<40} | {'mode':<8} | {'us':>10} | {'TFLOP/s':>7} |")
    print(f"|{'-' * 42}|{'-' * 10}|{'-' * 12}|{'-' * 9}|")

    for m, n, k in ((128, 256, 32), (128, 1024, 1024), (128, 16384, 4096)):
        a = uniform((m, k), -1.0, 1.0, 1)
        b = uniform((n, k), -1.0, 1.0, 2)
        both(f"tmm/M:{m}/N:{n}/K:{k}", transposed_matmul, (a, b), 2.0 * m * n * k, repetitions)

    batch, n, m, k = 500, 26, 72, 26
    x = uniform((batch, n, m), -1.0, 1.0, 4)
    y = uniform((batch, k, m), -1.0, 1.0, 5)
    both("tbmm", transposed_matmul, (x, y), 2.0 * batch * n * m * k, repetitions)

    for images, groups, outputs, channels, width, height in ((32, 32, 16, 16, 14, 14),
                                                            (32, 32, 4, 4, 56, 56)):
        # NCHW with the groups' channels side by side: tensorx's (n, g, c, h, w).
        inputs = uniform((images, groups * channels, height, width), -1.0, 1.0, 7)
        weights = uniform((groups * outputs, channels, 3, 3), -1.0, 1.0, 8)
        flop = 2.0 * images * groups * outputs * (height - 2) * (width - 2) * channels * 9
        both(f"gconv/N:{images}/G:{groups}/F:{outputs}/C:{channels}/W:{width}/H:{height}",
             lambda i, w: grouped_convolution(i, w, groups), (inputs, weights), flop, repetitions)

    rows = int(os.environ.get("TENSORX_TC_LUT_ROWS", "10000000"))
    lut1 = torch.full((rows, 64), 0.5, device="cuda")
    lut2 = torch.full((rows, 64), -0.5, device="cuda")
    generator = torch.Generator(device="cuda").manual_seed(10)
    ids1 = torch.randint(0, rows, (128, 50), device="cuda", generator=generator)
    ids2 = torch.randint(0, rows, (128, 50), device="cuda", generator=generator)
    both("2lut", two_lut, (lut1, ids1, lut2, ids2), 0.0, repetitions)
    del lut1, lut2

    widths = (2000, 128, 64, 32, 2)
    layers = [(uniform((widths[i + 1], widths[i]), -1.0, 1.0, 21 + 2 * i),
               uniform((widths[i + 1],), -1.0, 1.0, 22 + 2 * i)) for i in range(4)]
    for name, first, last in (("mlp1", 0, 1), ("mlp3", 1, 4)):
        x = uniform((128, widths[first]), -1.0, 1.0, 20)
        flop = sum(2.0 * 128 * widths[i] * widths[i + 1] for i in range(first, last))
        both(name, lambda v, chosen=tuple(layers[first:last]): mlp(v, chosen), (x,), flop,
             repetitions)


if __name__ == "__main__":
    main()

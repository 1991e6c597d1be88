#!/usr/bin/env python3
"""The PyTorch peers of bench_gemm_cuda and bench_fc_cuda, on the same sizes and timed the same
way (CUDA events around each call, median after a warm-up):
  - 4096^3 matmul in float and float16 (torch.matmul; TF32 off, as cuBLAS's default for float);
  - the Tensor Comprehensions sizes: transposed matmul C = A B^T with (M, K, N) = (128, 32, 256),
    (128, 1024, 1024), (128, 4096, 16384), and batched transposed matmul Z = X Y^T with
    (B, N, M, K) = (500, 26, 72, 26);
  - the fully connected layer relu(x w + bias) of bench_fc_cuda, eager (two kernels: addmm, relu)
    and torch.compile.
Run it on the GPU machine next to those programs and compare the medians:

    python3 bench/torch_gemm.py [--repetitions 50]
"""
import torch

from torch_timing import median_seconds, repetitions_from_arguments, uniform


def matmul(a, b):
    return torch.matmul(a, b)


def transposed_matmul(a, b):
    return torch.matmul(a, b.transpose(-1, -2))


def fc_relu(x, w, bias):
    return torch.relu(torch.addmm(bias, x, w))


def report(name, seconds, flop):
    print(f"| {name:<46} | {seconds * 1e6:10.1f} | {flop / seconds * 1e-12:7.2f} |")


def main():
    repetitions = repetitions_from_arguments(__doc__)
    torch.backends.cuda.matmul.allow_tf32 = False
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, median of {repetitions}")
    print(f"| {'case':<46} | {'us':>10} | {'TFLOP/s':>7} |")
    print(f"|{'-' * 48}|{'-' * 12}|{'-' * 9}|")

    for dtype, label in ((torch.float32, "float"), (torch.float16, "float16")):
        a = uniform((4096, 4096), -1.0, 1.0, 1, dtype)
        b = uniform((4096, 4096), -1.0, 1.0, 2, dtype)
        report(f"square_4096/{label}/torch", median_seconds(matmul, (a, b), repetitions),
               2.0 * 4096**3)

    for m, k, n in ((128, 32, 256), (128, 1024, 1024), (128, 4096, 16384)):
        a = uniform((m, k), -1.0, 1.0, 3)
        b = uniform((n, k), -1.0, 1.0, 4)
        report(f"tc_transposed_matmul_{m}x{k}x{n}/float/torch",
               median_seconds(transposed_matmul, (a, b), repetitions), 2.0 * m * n * k)
    batch, n, m, k = 500, 26, 72, 26
    x = uniform((batch, m, k), -1.0, 1.0, 5)
    y = uniform((batch, n, k), -1.0, 1.0, 6)
    report(f"tc_batched_transposed_matmul_{batch}x{n}x{m}x{k}/float/torch",
           median_seconds(transposed_matmul, (x, y), repetitions), 2.0 * batch * m * n * k)

    compiled_fc_relu = torch.compile(fc_relu)
    for batch, width_in, width_out in ((4096, 4096, 4096), (256, 1024, 1024), (8192, 1024, 4096)):
        for dtype, label in ((torch.float32, "float"), (torch.float16, "float16")):
            x = uniform((batch, width_in), -1.0, 1.0, 7, dtype)
            w = uniform((width_in, width_out), -1.0, 1.0, 8, dtype)
            bias = uniform((width_out,), -1.0, 1.0, 9, dtype)
            flop = 2.0 * batch * width_in * width_out
            name = f"fc_relu_{batch}x{width_in}x{width_out}/{label}"
            for mode, function in (("eager", fc_relu), ("compile", compiled_fc_relu)):
                report(f"{name}/torch_{mode}",
                       median_seconds(function, (x, w, bias), repetitions), flop)


if __name__ == "__main__":
    main()

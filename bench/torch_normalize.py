#!/usr/bin/env python3
"""The peers of bench_normalize_cuda: PyTorch eager and torch.compile on the same normalisations
along rows (softmax, log_softmax, layer_norm, rms_norm), element types (float, bfloat16) and
shapes (2^26 elements as rows of 256 to 262144; 8192 is the 8192 x 8192 matrix), timed the same
way (CUDA events around each call, median after a warm-up) against a device-to-device copy of the
same bytes measured in the same process, one per element type. Each case reads its input once
and writes its output once, so its bandwidth over the copy's is its fraction of the
read-once/write-once bound. Each case is compiled afresh for its shape and type (one static
kernel per case). Run it on the GPU machine next to `bench_normalize_cuda` and compare the
medians:

    python3 bench/torch_normalize.py [--repetitions 50]
"""
import torch

from torch_timing import (compiled_afresh, median_seconds, print_bandwidth_rows,
                          repetitions_from_arguments, uniform)

COUNT = 1 << 26
# The 8192 x 8192 matrix (DESIGN.md section 10's bar) first, so that a run cut short by its time
# limit (56 cases, each compiled afresh) still has it; then the others from short rows to long.
ROW_LENGTHS = (8192, 256, 1024, 4096, 16384, 65536, 262144)
LAYER_NORM_EPS = 1e-5
RMS_NORM_EPS = 1e-6


def softmax(x, gamma, beta):
    return torch.softmax(x, dim=1)


def log_softmax(x, gamma, beta):
    return torch.log_softmax(x, dim=1)


def layer_norm(x, gamma, beta):
    return torch.nn.functional.layer_norm(x, (x.shape[1],), gamma, beta, LAYER_NORM_EPS)


def rms_norm(x, gamma, beta):
    return torch.nn.functional.rms_norm(x, (x.shape[1],), gamma, RMS_NORM_EPS)


def main():
    repetitions = repetitions_from_arguments(__doc__)
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, {COUNT} elements as rows of "
          f"{', '.join(map(str, sorted(ROW_LENGTHS)))}, median of {repetitions}")
    # Per element type: the input, the bytes a case moves and the copy's bandwidth.
    inputs = {}
    for dtype, label in ((torch.float32, "float"), (torch.bfloat16, "bfloat16")):
        x = uniform((COUNT,), -4.0, 4.0, 1, dtype)
        y = uniform((COUNT,), -1.0, 1.0, 2, dtype)
        moved = 2 * COUNT * x.element_size()
        copy_time = median_seconds(y.copy_, (x,), repetitions)
        print(f"copy of {label} (device to device): {copy_time * 1e3:.3f} ms, "
              f"{moved / copy_time * 1e-9:.0f} GB/s")
        inputs[label] = (x, moved, moved / copy_time)
    # (name, function, arguments, bytes read and written, the copy's bandwidth)
    rows = []
    for length in ROW_LENGTHS:
        for name, function in (("softmax", softmax), ("layer_norm", layer_norm),
                               ("log_softmax", log_softmax), ("rms_norm", rms_norm)):
            for label, (x, moved, ceiling) in inputs.items():
                gamma = uniform((length,), 0.5, 1.5, 3, x.dtype)
                beta = uniform((length,), -0.5, 0.5, 4, x.dtype)
                rows.append((f"{name}_{label}/row_length:{length}", function,
                             (x.view(COUNT // length, length), gamma, beta), moved, ceiling))
    print_bandwidth_rows(rows, repetitions, compiled_afresh)


if __name__ == "__main__":
    main()

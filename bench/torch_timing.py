"""What the PyTorch peers of the GPU benchmarks share: timing a call the way the tensorx GPU
benchmarks time one (CUDA events around each call, the median after a warm-up), and seeded random
operands on the GPU."""
import statistics

import torch

DEVICE = "cuda"


def median_seconds(function, arguments, repetitions):
    """Median time of function(*arguments) on the GPU, from events recorded around each call."""
    for _ in range(3):
        function(*arguments)
    torch.cuda.synchronize()
    start = torch.cuda.Event(enable_timing=True)
    stop = torch.cuda.Event(enable_timing=True)
    times = []
    for _ in range(repetitions):
        start.record()
        function(*arguments)
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) * 1e-3)
    return statistics.median(times)


def uniform(shape, low, high, seed, dtype=torch.float32):
    """A tensor of `shape` on the GPU, uniform in [low, high), the same for the same seed."""
    generator = torch.Generator(device=DEVICE).manual_seed(seed)
    values = torch.empty(shape, device=DEVICE).uniform_(low, high, generator=generator)
    return values.to(dtype)

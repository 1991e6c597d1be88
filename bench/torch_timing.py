"""What the PyTorch peers of the GPU benchmarks share: timing a call the way the tensorx GPU
benchmarks time one (CUDA events around each call, the median after a warm-up), and seeded random
operands on the GPU."""
import argparse
import statistics

import torch
import torch._dynamo

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


def repetitions_from_arguments(description):
    """The --repetitions option (default 50) of a peer script described by `description`."""
    parser = argparse.ArgumentParser(description=description.split("\n\n")[0])
    parser.add_argument("--repetitions", type=int, default=50)
    return parser.parse_args().repetitions


def print_bandwidth_table(cases, count, source, target, repetitions, size_text):
    """Times every case eager and under torch.compile and prints a table of its bandwidth against
    a device-to-device copy of `source` into `target` (each `count` floats). A case is
    (name, function, arguments, streams): `streams` arrays of `count` floats move per call."""
    copy_time = median_seconds(target.copy_, (source,), repetitions)
    copy_bandwidth = 2 * count * 4 / copy_time
    print(f"{torch.cuda.get_device_name()}, torch {torch.__version__}, "
          f"CUDA {torch.version.cuda}, {size_text}, median of {repetitions}")
    print(f"copy (device to device): {copy_time * 1e3:.3f} ms, "
          f"{copy_bandwidth * 1e-9:.0f} GB/s")
    rows = [(name, function, arguments, streams * count * 4, copy_bandwidth)
            for name, function, arguments, streams in cases]
    print_bandwidth_rows(rows, repetitions)


def compiled_afresh(function):
    """torch.compile of `function` specialised to the shapes of its next calls, with dynamo's
    caches cleared first: a script that times one function at several shapes and element types
    then gets one static kernel per case, neither a dynamic-shape kernel (dynamo's choice at a
    function's second shape) nor eager code (past its recompile limit)."""
    torch._dynamo.reset()
    return torch.compile(function, dynamic=False)


def print_bandwidth_rows(rows, repetitions, compile_function=torch.compile):
    """Times every row eager and compiled by `compile_function` and prints the table of its
    bandwidth, as GB/s and as a fraction of a ceiling. A row is (name, function, arguments,
    bytes, ceiling): `bytes` read plus written per call, `ceiling` a copy's bytes per second."""
    width = max(len(row[0]) for row in rows)
    header = f"| {'case':<{width}} | {'mode':<8} | {'ms':>8} | {'GB/s':>7} | {'of copy':>7} |"
    print(header)
    print("|" + "|".join("-" * (len(cell)) for cell in header.split("|")[1:-1]) + "|")
    for name, function, arguments, moved, ceiling in rows:
        for mode, callable_ in (("eager", function), ("compile", compile_function(function))):
            seconds = median_seconds(callable_, arguments, repetitions)
            bandwidth = moved / seconds
            print(f"| {name:<{width}} | {mode:<8} | {seconds * 1e3:8.3f} | "
                  f"{bandwidth * 1e-9:7.0f} | {bandwidth / ceiling:7.2f} |")

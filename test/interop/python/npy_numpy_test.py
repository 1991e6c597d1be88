#!/usr/bin/env python3
"""The .npy format against NumPy, both ways, through npy_tool (tensorx's side):
for every element type, C and Fortran order and ranks 0 to 6,
  - files NumPy writes (format versions 1.0, 2.0 and 3.0) read by tensorx element for element,
    with Fortran-order files read as column-major views;
  - files tensorx writes read by NumPy, in the order tensorx wrote them;
  - NumPy -> tensorx -> NumPy copies that come back bitwise equal and in the same order.
Usage: npy_numpy_test.py NPY_TOOL"""
import os
import random
import subprocess
import sys
import tempfile
import warnings

from numpy_peer import Checks, require_numpy

np = require_numpy()
DTYPES = ["float16", "float32", "float64", "int32", "int64"]
VERSIONS = [(1, 0), (2, 0), (3, 0)]


def random_array(dtype, shape, order, rng):
    """Random values, the awkward ones included: NaN, infinities, -0.0, integer extremes."""
    count = int(np.prod(shape))
    if dtype.startswith("int"):
        info = np.iinfo(dtype)
        values = rng.integers(info.min, info.max, size=count, dtype=dtype, endpoint=True)
        specials = [info.min, info.max, 0, -1]
    else:
        values = (rng.standard_normal(count) * 100).astype(dtype)
        specials = [np.nan, np.inf, -np.inf, -0.0]
    values[: min(count, len(specials))] = specials[: min(count, len(specials))]
    return np.asarray(values.reshape(shape), order=order)


def expected_values(dtype, count):
    """What `npy_tool write` stores at row-major position i (its test_value)."""
    i = np.arange(count, dtype=np.int64)
    if dtype.startswith("int"):
        return (i * 1000003 - 7).astype(dtype)
    return (((i * 37) % 251 - 125) * 0.5).astype(dtype)


def element_strides(shape, fortran):
    """Strides in elements of a dense C- or Fortran-order array."""
    strides, stride = [0] * len(shape), 1
    for d in (range(len(shape)) if fortran else reversed(range(len(shape)))):
        strides[d] = stride
        stride *= shape[d]
    return strides


def run_tool(tool, *args):
    result = subprocess.run([tool, *map(str, args)], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"npy_tool {' '.join(map(str, args))} failed: {result.stderr.strip()}")
    return result.stdout


def parse_dump(text, dtype):
    """(header fields, elements) of `npy_tool dump` output."""
    lines = text.splitlines()
    header = dict(field.split("=") for field in lines[0].split())
    convert = int if dtype.startswith("int") else float
    return header, np.array([convert(line) for line in lines[1:]], dtype=np.float64
                            if convert is float else np.int64)


def same_bits(a, b):
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def main():
    tool = sys.argv[1]
    checks = Checks()
    rng = np.random.default_rng(2026)
    shapes = random.Random(7)
    warnings.simplefilter("ignore")  # NumPy warns that version 3.0 files need NumPy 1.17
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "a.npy")
        copy_path = os.path.join(directory, "b.npy")
        for dtype in DTYPES:
            for rank in range(7):
                for order in "CF":
                    shape = tuple(shapes.choice([0, 1, 2, 3, 4]) if shapes.random() < 0.15
                                  else shapes.randint(1, 4) for _ in range(rank))
                    case = f"{dtype}, shape {shape}, {order} order"
                    # Where C and Fortran order coincide (one extent above 1, or none, or no
                    # elements), tensorx writes C order, as NumPy does.
                    fortran = order == "F" and not np.empty(shape, order="F").flags.c_contiguous
                    a = random_array(dtype, shape, order, rng)

                    # NumPy writes, tensorx reads: every version, element for element.
                    for version in VERSIONS:
                        with open(path, "wb") as f:
                            np.lib.format.write_array(f, a, version=version)
                        header, elements = parse_dump(run_tool(tool, "dump", path), dtype)
                        what = f"{case}, version {version}: tensorx reads"
                        checks.check(header["dtype"] == dtype, f"{what} dtype {header['dtype']}")
                        checks.check(header["shape"] == ",".join(map(str, shape)),
                                     f"{what} shape {header['shape']}")
                        checks.check(header["fortran"] == str(int(np.isfortran(a))),
                                     f"{what} fortran_order {header['fortran']}")
                        checks.check(header["strides"] == ",".join(
                            map(str, element_strides(shape, np.isfortran(a)))),
                            f"{what} strides {header['strides']}")
                        reference = a.reshape(-1).astype(elements.dtype)
                        checks.check(np.array_equal(elements, reference, equal_nan=True) and
                                     np.array_equal(np.signbit(elements), np.signbit(reference)),
                                     f"{what} other elements")

                    # tensorx writes, NumPy reads, in the order tensorx wrote.
                    run_tool(tool, "write", dtype, order, path, *shape)
                    b = np.load(path)
                    expected = expected_values(dtype, int(np.prod(shape))).reshape(shape)
                    checks.check(same_bits(b, expected), f"{case}: NumPy reads other elements")
                    checks.check(np.isfortran(b) == fortran, f"{case}: NumPy reads another order")

                    # NumPy -> tensorx -> NumPy: the same bits in the same order.
                    np.save(path, a)
                    run_tool(tool, "copy", path, copy_path)
                    c = np.load(copy_path)
                    checks.check(same_bits(c, a), f"{case}: the round trip changes elements")
                    checks.check(np.isfortran(c) == np.isfortran(a),
                                 f"{case}: the round trip changes the order")
    checks.finish()


if __name__ == "__main__":
    main()

"""What the NumPy peer tests share: NumPy itself, or a skip line that ctest reports as a skip."""
import sys


def require_numpy(minimum=None, reason=""):
    """Returns the numpy module, or prints 'skipped: ...' and exits 0 where it is missing or older
    than `minimum` (a version string)."""
    try:
        import numpy
    except ImportError:
        print(f"skipped: numpy is not installed for {sys.executable} "
              "(scripts/install-deps installs it: python3 -m pip install numpy)")
        sys.exit(0)
    if minimum and numpy.lib.NumpyVersion(numpy.__version__) < minimum:
        print(f"skipped: numpy {numpy.__version__} is older than {minimum}, {reason}")
        sys.exit(0)
    return numpy


class Checks:
    """Counts checks and failures; `check` prints what failed, `finish` exits 1 after any."""

    def __init__(self):
        self.count = 0
        self.failures = 0

    def check(self, ok, what):
        self.count += 1
        if not ok:
            self.failures += 1
            print(f"FAILED: {what}")

    def finish(self):
        print(f"{self.count} checks, {self.failures} failed")
        sys.exit(1 if self.failures else 0)

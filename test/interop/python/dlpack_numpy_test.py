#!/usr/bin/env python3
"""DLPack between tensorx and NumPy, both ways and without a copy, through dlpack_peer (a shared
library built on tensorx, loaded with ctypes as an extension would be):
  - tensorx -> NumPy: np.from_dlpack of a strided, offset tensorx view, for every element type and
    ranks 1 to 4: same memory (writes show on both sides), and the buffer is freed exactly when
    both NumPy's array and tensorx's view are gone;
  - NumPy -> tensorx: tx::from_dlpack of NumPy's versioned and legacy capsules for dense, sliced,
    transposed, reversed and Fortran-order arrays: same address and strides, writes show on both
    sides, and tensorx keeps NumPy's array alive exactly as long as it holds it;
  - what tensorx refuses (read-only arrays, element types it lacks) is an error that says so, and
    the refused capsule still frees its array.
Usage: dlpack_numpy_test.py LIBDLPACK_PEER"""
import ctypes
import gc
import sys
import weakref

from numpy_peer import Checks, require_numpy

np = require_numpy("2.1.0", "which has no DLPack 1.x (__dlpack__(max_version=...))")

DTYPES = ["float32", "float64", "float16", "int32", "int64"]  # in tx::DataType order
SHAPES = [(5,), (3, 4), (2, 3, 4), (2, 1, 3, 2)]
VERSIONED, LEGACY = b"dltensor_versioned", b"dltensor"

# The CPython capsule API, with capsules passed as raw addresses (id()), so that the destructor
# never turns the dying capsule back into a Python object.
api = ctypes.pythonapi
CAPSULE_DESTRUCTOR = ctypes.CFUNCTYPE(None, ctypes.c_void_p)
api.PyCapsule_New.restype = ctypes.py_object
api.PyCapsule_New.argtypes = [ctypes.c_void_p, ctypes.c_char_p, CAPSULE_DESTRUCTOR]
api.PyCapsule_IsValid.restype = ctypes.c_int
api.PyCapsule_IsValid.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
api.PyCapsule_GetPointer.restype = ctypes.c_void_p
api.PyCapsule_GetPointer.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
api.PyCapsule_SetName.restype = ctypes.c_int
api.PyCapsule_SetName.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
USED_VERSIONED = b"used_dltensor_versioned"
USED_LEGACY = b"used_dltensor"


def load_peer(path):
    peer = ctypes.CDLL(path)
    peer.peer_export.restype = ctypes.c_void_p
    peer.peer_export.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int64)]
    peer.peer_import.argtypes = [ctypes.c_void_p, ctypes.c_int]
    peer.peer_last_error.restype = ctypes.c_char_p
    peer.peer_delete.argtypes = [ctypes.c_void_p]
    peer.peer_layout.argtypes = [ctypes.POINTER(ctypes.c_int64)] * 2
    peer.peer_data.restype = ctypes.c_size_t
    peer.peer_get.restype = ctypes.c_double
    peer.peer_get.argtypes = [ctypes.c_int64]
    peer.peer_set.argtypes = [ctypes.c_int64, ctypes.c_double]
    return peer


peer = load_peer(sys.argv[1])


@CAPSULE_DESTRUCTOR
def delete_unconsumed(capsule):
    """The producer's side of the protocol: a capsule no consumer renamed still owns its tensor."""
    if api.PyCapsule_IsValid(capsule, VERSIONED):
        peer.peer_delete(api.PyCapsule_GetPointer(capsule, VERSIONED))


class TensorxArray:
    """What a tensorx-based extension hands to Python: one DLPack export, as a capsule on demand."""

    def __init__(self, tensor):
        self.tensor = tensor

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU, device 0

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        if max_version is None or max_version[0] < 1:
            raise BufferError("tensorx exports DLPack 1.x tensors only")
        tensor, self.tensor = self.tensor, None
        return api.PyCapsule_New(tensor, VERSIONED, delete_unconsumed)


def held_layout():
    rank = peer.peer_rank()
    dims, strides = (ctypes.c_int64 * 4)(), (ctypes.c_int64 * 4)()
    peer.peer_layout(dims, strides)
    return tuple(dims[:rank]), tuple(strides[:rank])


def held_elements(count):
    return np.array([peer.peer_get(i) for i in range(count)])


def export_to_numpy(checks):
    for type_index, dtype in enumerate(DTYPES):
        for shape in SHAPES:
            case = f"tensorx -> NumPy, {dtype} {shape}"
            extents = (ctypes.c_int64 * len(shape))(*shape)
            exported = TensorxArray(peer.peer_export(type_index, len(shape), extents))
            n = np.from_dlpack(exported)
            itemsize = n.dtype.itemsize
            dims, strides = held_layout()
            checks.check(n.dtype == np.dtype(dtype) and n.shape == shape, f"{case}: {n.dtype} {n.shape}")
            checks.check(n.ctypes.data == peer.peer_data(), f"{case}: NumPy's array is a copy")
            checks.check(n.strides == tuple(s * itemsize for s in strides),
                         f"{case}: strides {n.strides}, tensorx has {strides}")
            checks.check(np.array_equal(n.reshape(-1), np.arange(n.size)), f"{case}: elements")
            n[(0,) * len(shape)] = 7
            checks.check(peer.peer_get(0) == 7, f"{case}: a NumPy write is not seen by tensorx")
            peer.peer_set(n.size - 1, 3)
            checks.check(n.reshape(-1)[-1] == 3, f"{case}: a tensorx write is not seen by NumPy")

            peer.peer_forget()
            checks.check(peer.peer_live_exports() == 1, f"{case}: freed while NumPy holds it")
            del n, exported
            gc.collect()
            checks.check(peer.peer_live_exports() == 0, f"{case}: not freed after both let go")


def numpy_layouts(dtype, rng):
    """NumPy arrays of several layouts, with values every element type holds exactly."""
    base = rng.integers(-1000, 1000, size=(6, 8, 3)).astype(dtype)
    yield "dense", base[:, :, 0].copy()
    yield "sliced and offset", base[1:, 1::3, 1]
    yield "transposed", base.transpose(2, 0, 1)
    yield "reversed", base[::-1, :, 2]
    yield "Fortran order", np.asfortranarray(base)
    yield "rank 1, strided", base[2, ::-2, 0]


def import_from_numpy(checks):
    rng = np.random.default_rng(11)
    formats = [(VERSIONED, USED_VERSIONED, {"max_version": (1, 0)}), (LEGACY, USED_LEGACY, {})]
    for dtype in DTYPES:
        for name, used, kwargs in formats:
            for layout, a in numpy_layouts(dtype, rng):
                case = f"NumPy -> tensorx, {dtype} {layout}, {name.decode()}"
                capsule = a.__dlpack__(**kwargs)
                tensor = api.PyCapsule_GetPointer(id(capsule), name)
                if peer.peer_import(tensor, int(name == VERSIONED)) != 0:
                    checks.check(False, f"{case}: {peer.peer_last_error().decode()}")
                    continue
                api.PyCapsule_SetName(id(capsule), used)  # consumed: the deleter is tensorx's now
                dims, strides = held_layout()
                checks.check(DTYPES[peer.peer_dtype()] == dtype, f"{case}: element type")
                checks.check(dims == a.shape, f"{case}: extents {dims}")
                checks.check(strides == tuple(s // a.itemsize for s in a.strides),
                             f"{case}: strides {strides}")
                checks.check(peer.peer_data() == a.ctypes.data, f"{case}: tensorx made a copy")
                checks.check(np.array_equal(held_elements(a.size), a.reshape(-1)),
                             f"{case}: elements")
                peer.peer_set(a.size - 1, 5)
                checks.check(a.reshape(-1)[-1] == 5, f"{case}: a tensorx write is not seen")

                # tensorx alone keeps NumPy's array alive, until it lets go.
                alive = weakref.ref(a)
                expected = a.reshape(-1).copy()
                del a, capsule
                gc.collect()
                checks.check(alive() is not None, f"{case}: freed while tensorx holds it")
                checks.check(np.array_equal(held_elements(expected.size), expected),
                             f"{case}: elements after NumPy let go")
                peer.peer_forget()
                gc.collect()
                checks.check(alive() is None, f"{case}: not released when tensorx let go")


def read_only_array():
    a = np.arange(6.0)
    a.flags.writeable = False
    return a


def refusals(checks):
    cases = [("a read-only array", read_only_array,
              "it is read-only (DLPACK_FLAG_BITMASK_READ_ONLY)"),
             ("uint8", lambda: np.zeros(3, np.uint8),
              "its element type uint8 (code 1, 8 bits, 1 lanes)"),
             ("complex64", lambda: np.zeros(3, np.complex64), "its element type complex64"),
             ("bool", lambda: np.zeros(3, np.bool_), "its element type bool8")]
    for what, make, message in cases:
        a = make()
        alive = weakref.ref(a)
        capsule = a.__dlpack__(max_version=(1, 0))
        status = peer.peer_import(api.PyCapsule_GetPointer(id(capsule), VERSIONED), 1)
        error = peer.peer_last_error().decode()
        checks.check(status == 1 and message in error, f"refusing {what}: {status}, '{error}'")
        # The capsule still owns the tensor, and freeing it frees the array.
        del a, capsule
        gc.collect()
        checks.check(alive() is None, f"refusing {what}: the array is never released")


def main():
    checks = Checks()
    export_to_numpy(checks)
    import_from_numpy(checks)
    refusals(checks)
    checks.finish()


if __name__ == "__main__":
    main()

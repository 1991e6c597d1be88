// Words a kernel writes for the host to read once it has finished: pinned host memory mapped into
// every device, so that a check such as take's index bounds (layout/cuda_index_bounds.cuh) reports
// through plain stores and one synchronisation of its stream, with no device buffer to allocate,
// fill and copy back. On the H200 those three put the two index checks of issue #30's 2LUT
// workload (65 us) some 20 us behind PyTorch's eager gathers, which check on the device (46 us).
// Declared for CUDA translation units, defined in the compiled layer.
#pragma once

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// `count` (> 0) words of pinned host memory that kernels on every device write through the same
/// address (CUDA 13 runs only on 64-bit platforms, where host and device share one address space),
/// the calling thread's own: valid until the thread asks again, which may move or reuse them, and
/// freed when it ends. Their values are whatever the last kernel left there. Read them only after
/// a synchronisation with the kernel that writes them: a thread that waits for each of its
/// kernels before it asks again never has two of them writing the same words. Throws
/// OutOfMemoryError when the host cannot pin the bytes, CudaError.
unsigned long long* thread_report_words(index_t count);

}  // namespace detail
}  // namespace tensorx

// The tickets of the split GPU reductions (cuda_reduce_kernels.cuh, cuda_row_engine.cuh): each
// group of blocks that shares a result counts itself on a ticket, and the last one to arrive
// combines the group's values. The tickets live with the stream, zero between kernels: every
// kernel that takes them leaves each at 0 again (atomicInc, wrapping at the group's size), so that
// a reduction queues no memset before its kernel (a memset and the scratch allocation put a float
// sum of 2^26 values 8 us behind its kernel's 67 on an H200, where CUB's two kernels took 72 in
// all). Declared for CUDA translation units, defined in the compiled layer.
#pragma once

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// `count` tickets in the memory of `device`, for kernels queued on the calling thread's current
/// stream there: each is 0 once the work queued on that stream so far has finished (memory made
/// for a stream, or grown for more tickets, is set to 0 on the stream first), and the kernels
/// that take them must leave them at 0. Valid as long as the stream's work queued before its
/// Stream is destroyed. Thread-safe. Throws DeviceError for an unusable device,
/// OutOfMemoryError, CudaError.
///
/// The buffers are Allocations of the device's pool (cuda::memory_stats counts them: 16 KiB a
/// stream that ran a split reduction). Like all of tensorx's stream ordering, this takes the
/// nullptr stream to be the legacy default stream, one per device (a unit compiled with
/// `--default-stream per-thread` would share its threads' tickets), and kernels on one stream
/// to run one after the other (work captured into a CUDA graph, which tensorx does not order,
/// could run beside the stream's own). A kernel that stops half-way would leave its tickets
/// wrong, but such a fault is sticky: the device takes no more work in the process.
unsigned* stream_tickets(int device, index_t count);

}  // namespace detail
}  // namespace tensorx

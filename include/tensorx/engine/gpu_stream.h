// ordered_stream: how the engines' GPU kernels (element-wise, reductions, transposes, index
// checks) learn which stream to launch on. It names every buffer the kernel writes and every
// array the kernel's operands read (collect_operands) to memory/stream_order.h, which makes the
// current stream wait for the earlier uses on other streams that the kernel conflicts with and
// records this one; on one stream it costs an atomic load per buffer.
#pragma once

#include "tensorx/array/array.h"
#include "tensorx/engine/operand_list.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// The current stream of `written`'s device, ready for GPU work that writes `written` and reads
/// every array of the expressions `reads`.
template <class T, int N, class... Reads>
StreamHandle ordered_stream(const Array<T, N>& written, const Reads&... reads) {
  OperandList operands;
  (collect_operands(reads, operands), ...);
  return ordered_stream(device_of(written.place()), written.buffer().get(), operands);
}

}  // namespace detail
}  // namespace tensorx

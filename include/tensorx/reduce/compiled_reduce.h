// The type-erased reductions of the compiled layer (src/reduce/): dense arrays of float, double,
// float16, bfloat16, int32 and int64 reduced over one block of axes, on the CPU or on a GPU (the
// kernels of reduce/cuda_reduce.cuh, precompiled: the same bits as a CUDA translation unit gets for
// a dense operand). Through them a plain C++ translation unit reduces GPU arrays
// (`s = tx::sum(gpu_array)`), and the DArray forms reduce without instantiating an engine per
// element type and rank in every caller.
#pragma once

#include "tensorx/core/data_type.h"
#include "tensorx/expr/saver.h"
#include "tensorx/place/place.h"
#include "tensorx/reduce/reduce_geometry.h"
#include "tensorx/reduce/reducers.h"

namespace tensorx {

/// How the compiled layer writes a result: the savers of engine/saver.h, by name.
enum class SaveMode { kWrite, kAdd, kSubtract, kMultiply, kDivide };

namespace detail {

/// The SaveMode of a saver struct.
template <class Saver>
constexpr SaveMode save_mode_of() {
  if constexpr (std::is_same_v<Saver, saver::add>) return SaveMode::kAdd;
  if constexpr (std::is_same_v<Saver, saver::subtract>) return SaveMode::kSubtract;
  if constexpr (std::is_same_v<Saver, saver::multiply>) return SaveMode::kMultiply;
  if constexpr (std::is_same_v<Saver, saver::divide>) return SaveMode::kDivide;
  return SaveMode::kWrite;
}

/// Calls f(saver{}) with the saver struct that `mode` names; TypeError for any other value.
template <class F>
decltype(auto) saver_switch(SaveMode mode, F&& f) {
  switch (mode) {
    case SaveMode::kWrite:
      return f(saver::write{});
    case SaveMode::kAdd:
      return f(saver::add{});
    case SaveMode::kSubtract:
      return f(saver::subtract{});
    case SaveMode::kMultiply:
      return f(saver::multiply{});
    case SaveMode::kDivide:
      return f(saver::divide{});
  }
  throw TypeError(message("SaveMode value ", static_cast<int>(mode), " is not a saver"));
}

/// dst(o, k) = save(dst(o, k), op over r of src(o, r, k)) for every result (o, k) of `axes`: src
/// is dense with element (o, r, k) at (o * reduced + r) * inner + k, dst has `type` elements (int64
/// for argmax and argmin) at o * dst_outer + k * dst_inner, both on `place`. GPU work is queued on
/// the device's current stream, which the caller has ordered after the earlier uses of both
/// buffers (engine/gpu_stream.h). An empty reduction writes 0 (sum), 1 (prod) or NaN (mean).
/// Throws TypeError for mean of integers, ShapeError for max, min, argmax or argmin over no
/// elements, DeviceError for a GPU place where tensorx was built without CUDA.
void reduce_contiguous(ReduceOp op, DataType type, const void* src, void* dst,
                       const ThreeAxes& axes, const Place& place, SaveMode mode);

}  // namespace detail
}  // namespace tensorx

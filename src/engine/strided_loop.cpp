// The CPU loops behind copy_strided and fill_strided: the runs of the innermost axis are shared
// out through parallel_for; within a chunk an odometer walks the outer axes and a tight loop,
// specialised per element size, runs each innermost run with its strides hoisted.
#include "engine/strided_loop.h"

#include <cstring>

#include "engine/element_bits.h"
#include "tensorx/engine/parallel_for.h"

namespace tensorx {
namespace detail {
namespace {

// Calls run(offsets) with the element offsets of each operand at the start of innermost runs
// [first, last). Offsets rather than pointers, so that no pointer ever steps outside its buffer.
template <int Operands, class Run>
void for_each_run(const StridedLayout<Operands>& layout, index_t first, index_t last, Run run) {
  const int inner = layout.rank - 1;
  index_t index[kMaxRank] = {};
  index_t offsets[Operands] = {};
  index_t rest = first;
  for (int d = inner - 1; d >= 0; --d) {
    index[d] = rest % layout.dims[d];
    rest /= layout.dims[d];
    for (int op = 0; op < Operands; ++op) offsets[op] += index[d] * layout.strides[op][d];
  }
  for (index_t r = first; r < last; ++r) {
    run(offsets);
    for (int d = inner - 1; d >= 0; --d) {
      if (++index[d] < layout.dims[d]) {
        for (int op = 0; op < Operands; ++op) offsets[op] += layout.strides[op][d];
        break;
      }
      index[d] = 0;
      for (int op = 0; op < Operands; ++op) {
        offsets[op] -= (layout.dims[d] - 1) * layout.strides[op][d];
      }
    }
  }
}

// Runs `run` over every innermost run of the layout, in parallel where the layout is large.
template <int Operands, class Run>
void for_each_run_parallel(const StridedLayout<Operands>& layout, Run run) {
  const index_t length = layout.inner_extent();
  const index_t runs = numel(layout) / length;
  parallel_for(runs, chunk_items_for(runs, runs * length),
               [&](index_t first, index_t last) { for_each_run(layout, first, last, run); });
}

// Elements move through memcpy of a constant size: one load and one store once compiled, and free
// of the alignment and aliasing rules that typed pointers would impose on raw bytes.
template <class Bits>
void fill_run(char* dst, index_t dst_step, const Bits& value, index_t count) {
  for (index_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_step, &value, sizeof(Bits));
}

template <class Bits>
void copy_run(char* dst, index_t dst_step, const char* src, index_t src_step, index_t count) {
  constexpr auto size = static_cast<index_t>(sizeof(Bits));
  if (dst_step == size && src_step == size) {
    std::memcpy(dst, src, static_cast<std::size_t>(count * size));
  } else if (src_step == 0) {
    Bits value;
    std::memcpy(&value, src, sizeof(Bits));
    fill_run(dst, dst_step, value, count);
  } else {
    for (index_t i = 0; i < count; ++i) {
      std::memcpy(dst + i * dst_step, src + i * src_step, sizeof(Bits));
    }
  }
}

}  // namespace

void cpu_copy(const StridedLayout<2>& layout, void* dst, const void* src,
              std::size_t element_size) {
  element_bits_switch(element_size, [&](auto bits) {
    using Bits = decltype(bits);
    constexpr auto size = static_cast<index_t>(sizeof(Bits));
    auto* to = static_cast<char*>(dst);
    const auto* from = static_cast<const char*>(src);
    const index_t count = layout.inner_extent();
    const index_t dst_step = layout.inner_stride(0) * size;
    const index_t src_step = layout.inner_stride(1) * size;
    for_each_run_parallel(layout, [&](const index_t(&offsets)[2]) {
      copy_run<Bits>(to + offsets[0] * size, dst_step, from + offsets[1] * size, src_step, count);
    });
  });
}

void cpu_fill(const StridedLayout<1>& layout, void* dst, const void* value,
              std::size_t element_size) {
  element_bits_switch(element_size, [&](auto bits) {
    using Bits = decltype(bits);
    Bits element;
    std::memcpy(&element, value, sizeof(Bits));
    constexpr auto size = static_cast<index_t>(sizeof(Bits));
    auto* to = static_cast<char*>(dst);
    const index_t count = layout.inner_extent();
    const index_t dst_step = layout.inner_stride(0) * size;
    for_each_run_parallel(layout, [&](const index_t(&offsets)[1]) {
      fill_run(to + offsets[0] * size, dst_step, element, count);
    });
  });
}

}  // namespace detail
}  // namespace tensorx

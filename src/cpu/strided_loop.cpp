// The CPU loops behind copy_strided and fill_strided: an odometer walks the outer dimensions and
// a tight loop, specialised per element size, runs the innermost one with its strides hoisted.
#include "cpu/strided_loop.h"

#include <cstring>

namespace tensorx {
namespace detail {
namespace {

// Calls run(offsets) with the byte offsets of each operand at the start of every innermost run.
// Offsets rather than pointers, so that no pointer ever steps outside its buffer.
template <int Operands, class Run>
void for_each_run(const StridedLayout<Operands>& layout, std::size_t element_size, Run run) {
  const auto size = static_cast<index_t>(element_size);
  index_t index[kMaxRank] = {};
  index_t offsets[Operands] = {};
  index_t runs = numel(layout) / layout.dims[0];
  while (runs-- > 0) {
    run(offsets);
    for (int d = 1; d < layout.rank; ++d) {
      if (++index[d] < layout.dims[d]) {
        for (int op = 0; op < Operands; ++op) offsets[op] += layout.strides[op][d] * size;
        break;
      }
      index[d] = 0;
      for (int op = 0; op < Operands; ++op) {
        offsets[op] -= (layout.dims[d] - 1) * layout.strides[op][d] * size;
      }
    }
  }
}

// Element copies go through memcpy of a constant size: one load and one store once compiled, and
// free of the alignment and aliasing rules that typed pointers would impose on raw bytes.
template <std::size_t Size>
void fill_run(char* dst, index_t dst_step, const char* value, index_t count) {
  char element[Size];
  std::memcpy(element, value, Size);
  for (index_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_step, element, Size);
}

template <std::size_t Size>
void copy_run(char* dst, index_t dst_step, const char* src, index_t src_step, index_t count) {
  constexpr auto size = static_cast<index_t>(Size);
  if (dst_step == size && src_step == size) {
    std::memcpy(dst, src, static_cast<std::size_t>(count) * Size);
  } else if (src_step == 0) {
    fill_run<Size>(dst, dst_step, src, count);
  } else {
    for (index_t i = 0; i < count; ++i) std::memcpy(dst + i * dst_step, src + i * src_step, Size);
  }
}

template <std::size_t Size>
void copy_loop(const StridedLayout<2>& layout, char* dst, const char* src) {
  constexpr auto size = static_cast<index_t>(Size);
  const index_t count = layout.dims[0];
  const index_t dst_step = layout.strides[0][0] * size;
  const index_t src_step = layout.strides[1][0] * size;
  for_each_run(layout, Size, [&](const index_t(&offsets)[2]) {
    copy_run<Size>(dst + offsets[0], dst_step, src + offsets[1], src_step, count);
  });
}

template <std::size_t Size>
void fill_loop(const StridedLayout<1>& layout, char* dst, const char* value) {
  const index_t count = layout.dims[0];
  const index_t dst_step = layout.strides[0][0] * static_cast<index_t>(Size);
  for_each_run(layout, Size, [&](const index_t(&offsets)[1]) {
    fill_run<Size>(dst + offsets[0], dst_step, value, count);
  });
}

}  // namespace

void cpu_copy(const StridedLayout<2>& layout, void* dst, const void* src,
              std::size_t element_size) {
  auto* to = static_cast<char*>(dst);
  const auto* from = static_cast<const char*>(src);
  switch (element_size) {
    case 1:
      return copy_loop<1>(layout, to, from);
    case 2:
      return copy_loop<2>(layout, to, from);
    case 4:
      return copy_loop<4>(layout, to, from);
    default:
      return copy_loop<8>(layout, to, from);
  }
}

void cpu_fill(const StridedLayout<1>& layout, void* dst, const void* value,
              std::size_t element_size) {
  auto* to = static_cast<char*>(dst);
  const auto* bytes = static_cast<const char*>(value);
  switch (element_size) {
    case 1:
      return fill_loop<1>(layout, to, bytes);
    case 2:
      return fill_loop<2>(layout, to, bytes);
    case 4:
      return fill_loop<4>(layout, to, bytes);
    default:
      return fill_loop<8>(layout, to, bytes);
  }
}

}  // namespace detail
}  // namespace tensorx

// The permuted copies of a contraction (labels/permute_copy.h).
#include "labels/permute_copy.h"

#include <cstring>

#include "memory/strided_layout.h"

namespace tensorx {
namespace detail {
namespace {

// Below this many elements a copy runs on the calling thread alone.
constexpr index_t kParallelElements = index_t{1} << 17;

// layout's operand 0 is dst, 1 is src; dims[0] is the innermost axis.
template <std::size_t Size>
void copy_loops(const StridedLayout<2>& layout, char* dst, const char* src) {
  constexpr auto size = static_cast<index_t>(Size);
  const index_t inner = layout.dims[0];
  const index_t middle = layout.rank > 1 ? layout.dims[1] : 1;
  const index_t dst_inner = layout.strides[0][0] * size, src_inner = layout.strides[1][0] * size;
  const index_t dst_middle = layout.rank > 1 ? layout.strides[0][1] * size : 0;
  const index_t src_middle = layout.rank > 1 ? layout.strides[1][1] * size : 0;
  const bool runs = dst_inner == size && src_inner == size;
  const index_t total = numel(layout);
  const index_t outer = total / (inner * middle);
#pragma omp parallel for schedule(static) if (total >= kParallelElements)
  for (index_t o = 0; o < outer; ++o) {
    index_t rest = o;
    index_t dst_offset = 0;
    index_t src_offset = 0;
    for (int d = 2; d < layout.rank; ++d) {
      const index_t i = rest % layout.dims[d];
      rest /= layout.dims[d];
      dst_offset += i * layout.strides[0][d] * size;
      src_offset += i * layout.strides[1][d] * size;
    }
    for (index_t m = 0; m < middle; ++m) {
      char* to = dst + dst_offset + m * dst_middle;
      const char* from = src + src_offset + m * src_middle;
      if (runs) {
        std::memcpy(to, from, static_cast<std::size_t>(inner) * Size);
      } else {
        for (index_t i = 0; i < inner; ++i)
          std::memcpy(to + i * dst_inner, from + i * src_inner, Size);
      }
    }
  }
}

}  // namespace

void permute_copy(const StridedBytes& dst, const StridedBytes& src, std::size_t element_size) {
  index_t count = 1;
  for (int d = 0; d < dst.rank; ++d) count *= dst.dims[d];
  if (count == 0) return;
  if (!is_cpu_place(dst.place) || !is_cpu_place(src.place)) {
    copy_strided(dst, src, element_size);
    return;
  }
  const index_t* const strides[2] = {dst.strides, src.strides};
  const StridedLayout<2> layout = simplify<2>(dst.rank, dst.dims, strides);
  auto* to = static_cast<char*>(dst.data);
  const auto* from = static_cast<const char*>(src.data);
  switch (element_size) {
    case 2:
      return copy_loops<2>(layout, to, from);
    case 4:
      return copy_loops<4>(layout, to, from);
    default:
      return copy_loops<8>(layout, to, from);
  }
}

}  // namespace detail
}  // namespace tensorx

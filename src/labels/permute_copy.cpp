// The permuted copies of a contraction (labels/permute_copy.h).
#include "labels/permute_copy.h"

#include <cstring>

#include "engine/element_bits.h"
#include "engine/strided_layout.h"
#include "tensorx/engine/parallel_for.h"

namespace tensorx {
namespace detail {
namespace {

// dst[i] = src[i] over `layout` (operand 0 is dst, 1 is src; row-major, axis rank - 1 innermost):
// the outer axes are shared out through parallel_for, the two innermost run as nested loops.
template <class Bits>
void copy_loops(const StridedLayout<2>& layout, char* dst, const char* src) {
  constexpr auto size = static_cast<index_t>(sizeof(Bits));
  const int rank = layout.rank;
  const index_t inner = layout.dims[rank - 1];
  const index_t middle = rank > 1 ? layout.dims[rank - 2] : 1;
  const index_t dst_inner = layout.strides[0][rank - 1] * size;
  const index_t src_inner = layout.strides[1][rank - 1] * size;
  const index_t dst_middle = rank > 1 ? layout.strides[0][rank - 2] * size : 0;
  const index_t src_middle = rank > 1 ? layout.strides[1][rank - 2] * size : 0;
  const bool runs = dst_inner == size && src_inner == size;
  const index_t total = numel(layout);
  const index_t outer = total / (inner * middle);
  parallel_for(outer, chunk_items_for(outer, total), [&](index_t first, index_t last) {
    for (index_t o = first; o < last; ++o) {
      index_t rest = o;
      index_t dst_offset = 0;
      index_t src_offset = 0;
      for (int d = rank - 3; d >= 0; --d) {
        const index_t i = rest % layout.dims[d];
        rest /= layout.dims[d];
        dst_offset += i * layout.strides[0][d] * size;
        src_offset += i * layout.strides[1][d] * size;
      }
      for (index_t m = 0; m < middle; ++m) {
        char* to = dst + dst_offset + m * dst_middle;
        const char* from = src + src_offset + m * src_middle;
        if (runs) {
          std::memcpy(to, from, static_cast<std::size_t>(inner * size));
        } else {
          for (index_t i = 0; i < inner; ++i) {
            std::memcpy(to + i * dst_inner, from + i * src_inner, sizeof(Bits));
          }
        }
      }
    }
  });
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
  const StridedLayout<2> layout = make_strided_layout<2>(dst.rank, dst.dims, strides);
  element_bits_switch(element_size, [&](auto bits) {
    copy_loops<decltype(bits)>(layout, static_cast<char*>(dst.data),
                               static_cast<const char*>(src.data));
  });
}

}  // namespace detail
}  // namespace tensorx

// OperandList: the arrays an expression reads (for_each_array), without their element types and
// ranks. Before every assignment the engines check the operands' places, whether the destination
// overlaps what they read, and which streams GPU work must wait for. Each of those checks was a
// walk over the expression tree of its own, instantiated for every expression and every check.
// Now one walk per expression type fills an OperandList (the walk's callback is the same type for
// every expression, so expressions that share subtrees share its instantiations), and the checks
// are plain functions compiled once in libtensorx (src/engine/operand_list.cpp).
#pragma once

#include <cstddef>
#include <vector>

#include "tensorx/array/array.h"
#include "tensorx/expr/indirect_read.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {

/// One array an expression reads (or the destination), as the checks see it.
struct OperandRef {
  /// The allocation it views; nullptr for an array that is not allocated.
  Allocation* buffer;
  /// Where index (0, ..., 0) is, in elements from the start of the allocation.
  index_t offset;
  std::size_t element_size;
  int rank;
  index_t dims[kMaxRank];
  index_t strides[kMaxRank];
  /// Read at positions other than the destination's index (IndirectRead): any overlap with the
  /// destination conflicts, whatever the layouts.
  bool indirect;
};

template <class T, int N>
OperandRef operand_ref(const Array<T, N>& a, bool indirect = false) {
  OperandRef ref;
  ref.buffer = a.buffer().get();
  ref.offset = a.offset();
  ref.element_size = sizeof(T);
  ref.rank = N;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      ref.dims[i] = a.dims().at(i);
      ref.strides[i] = a.strides().at(i);
    }
  }
  ref.indirect = indirect;
  return ref;
}

/// The operands of one expression, in for_each_array's order. The first few are stored inline:
/// an assignment allocates nothing to check its operands.
class OperandList {
 public:
  OperandList() = default;
  OperandList(const OperandList&) = delete;
  OperandList& operator=(const OperandList&) = delete;
  /// Out of line (src/engine/operand_list.cpp), as is the growth past the inline ones: every
  /// assignment has an OperandList, and neither is compiled into it.
  ~OperandList();

  void push(const OperandRef& ref) {
    if (count_ < kInline) {
      inline_[count_++] = ref;
    } else {
      push_more(ref);
    }
  }
  std::size_t size() const { return static_cast<std::size_t>(count_) + more_.size(); }
  const OperandRef& operator[](std::size_t i) const {
    return i < static_cast<std::size_t>(kInline) ? inline_[i] : more_[i - kInline];
  }

 private:
  void push_more(const OperandRef& ref);

  static constexpr int kInline = 6;
  OperandRef inline_[kInline];
  int count_ = 0;
  std::vector<OperandRef> more_;
};

/// The for_each_array callback that fills an OperandList. It is always passed as an lvalue, so
/// that every node's walk is instantiated for this one callback type.
struct OperandCollector {
  OperandList& list;

  template <class T, int N>
  void operator()(const Array<T, N>& a) const {
    list.push(operand_ref(a));
  }
  template <class T, int N>
  void operator()(const IndirectRead<T, N>& a) const {
    list.push(operand_ref(a, true));
  }
};

/// Appends every array that `e` reads to `list`.
template <class E>
void collect_operands(const E& e, OperandList& list) {
  OperandCollector collector{list};
  for_each_array(e, collector);
}

// The checks, compiled in libtensorx.

/// True when some operand is a view of `buffer`.
bool reads_allocation(const OperandList& operands, const Allocation* buffer);

/// True when an operand reads memory that `dst` writes through another index mapping (another
/// element size, start, or stride along a dimension where dst has more than one element; or any
/// overlap for an indirect read), so that writing dst in place could change operand values before
/// they are read.
bool reads_through_other_mapping(const OperandRef& dst, const OperandList& operands);

/// True when `operand` (not empty) and `dst` share an allocation and the bytes they span there
/// overlap.
bool overlaps(const OperandRef& dst, const OperandRef& operand);

/// True when the bytes some operand spans in its allocation overlap those that `dst` spans.
bool overlaps_any(const OperandRef& dst, const OperandList& operands);

/// The checks of an assignment that do not depend on its expression, made before any work: an
/// allocated dst has the expression's extent (`extent`, dst.rank values), an unallocated one is
/// not accumulated into (`accumulates`); every operand is on dst's place (an unallocated dst's is
/// the first allocated operand's, which must be usable); and where `needs_cuda_for_gpu` (a plain
/// C++ translation unit evaluating the expression itself), that place is not a GPU. Throws
/// ShapeError, PlaceError, DeviceError or Error; returns the place the assignment writes.
Place check_assignment(const OperandRef& dst, const index_t* extent, bool accumulates,
                       const OperandList& operands, bool needs_cuda_for_gpu);

/// How an element-wise pass into dst that reads `operands` runs: through a temporary when
/// `check_aliasing` and an operand reads dst's memory through another index mapping; on the
/// stream that ordered_stream gives (nullptr on the CPU).
struct PassRoute {
  bool through_temporary;
  StreamHandle stream;
};
PassRoute route_pass(const OperandRef& dst, const OperandList& operands, bool check_aliasing);

/// The current stream of GPU `device`, ready for work that writes the allocation `written` and
/// reads every operand: it waits for the earlier uses on other streams that the work conflicts
/// with (memory/stream_order.h).
StreamHandle ordered_stream(int device, Allocation* written, const OperandList& reads);

}  // namespace detail
}  // namespace tensorx

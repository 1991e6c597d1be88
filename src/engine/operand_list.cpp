// The checks an assignment makes before any work (its shapes, and the places, overlaps and GPU
// streams of the arrays its expression reads: engine/operand_list.h), compiled once here instead
// of once per expression.
#include "tensorx/engine/operand_list.h"

#include "engine/extent_text.h"
#include "tensorx/core/error.h"
#include "tensorx/engine/gpu_dispatch.h"
#include "tensorx/memory/stream_order.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

/// The first and last byte, counted from the start of the allocation, that a view can touch.
struct ByteRange {
  index_t first;
  index_t last;
};

ByteRange bytes_spanned(const OperandRef& a) {
  index_t low = a.offset, high = a.offset;
  for (int i = 0; i < a.rank; ++i) {
    const index_t reach = a.strides[i] * (a.dims[i] - 1);
    (reach < 0 ? low : high) += reach;
  }
  const auto size = static_cast<index_t>(a.element_size);
  return {low * size, high * size + size - 1};
}

bool is_empty(const OperandRef& a) {
  for (int i = 0; i < a.rank; ++i) {
    if (a.dims[i] == 0) return true;
  }
  return false;
}

/// True when `operand` reads each element at the destination index it is written to: the same
/// element size and start, and equal strides wherever dst has more than one element (the operand's
/// dimensions right-aligned with dst's, NumPy style, and broadcast ones read with stride 0).
bool reads_through_same_mapping(const OperandRef& dst, const OperandRef& operand) {
  if (operand.indirect || operand.element_size != dst.element_size ||
      operand.offset != dst.offset || operand.rank > dst.rank) {
    return false;
  }
  const int missing = dst.rank - operand.rank;
  for (int i = 0; i < dst.rank; ++i) {
    if (dst.dims[i] == 1) continue;
    const int own = i - missing;
    const index_t stride = own < 0 || operand.dims[own] == 1 ? index_t{0} : operand.strides[own];
    if (stride != dst.strides[i]) return false;
  }
  return true;
}

/// Throws PlaceError unless every allocated operand is on `place`.
void check_operand_places(const OperandList& operands, const Place& place) {
  for (std::size_t i = 0; i < operands.size(); ++i) {
    const Allocation* buffer = operands[i].buffer;
    if (buffer != nullptr && buffer->place() != place) {
      throw PlaceError(message("an operand on ", buffer->place(),
                               " cannot be assigned to an array on ", place,
                               "; move it first with tx::to(array, place)"));
    }
  }
}

/// The place of the first allocated operand, or the CPU.
Place first_operand_place(const OperandList& operands) {
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].buffer != nullptr) return operands[i].buffer->place();
  }
  return CpuPlace();
}

}  // namespace

OperandList::~OperandList() = default;

void OperandList::push_more(const OperandRef& ref) {
  more_.push_back(ref);
}

bool overlaps(const OperandRef& dst, const OperandRef& operand) {
  if (operand.buffer == nullptr || operand.buffer != dst.buffer || is_empty(operand)) return false;
  const ByteRange d = bytes_spanned(dst), o = bytes_spanned(operand);
  return !(o.last < d.first || d.last < o.first);
}

bool reads_allocation(const OperandList& operands, const Allocation* buffer) {
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (operands[i].buffer == buffer) return true;
  }
  return false;
}

bool reads_through_other_mapping(const OperandRef& dst, const OperandList& operands) {
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (overlaps(dst, operands[i]) && !reads_through_same_mapping(dst, operands[i])) return true;
  }
  return false;
}

bool overlaps_any(const OperandRef& dst, const OperandList& operands) {
  for (std::size_t i = 0; i < operands.size(); ++i) {
    if (overlaps(dst, operands[i])) return true;
  }
  return false;
}

Place check_assignment(const OperandRef& dst, const index_t* extent, bool accumulates,
                       const OperandList& operands, bool needs_cuda_for_gpu) {
  const bool allocated = dst.buffer != nullptr;
  if (allocated) {
    for (int i = 0; i < dst.rank; ++i) {
      if (dst.dims[i] != extent[i]) {
        throw ShapeError(message("cannot assign an expression of shape ",
                                 extent_text(extent, dst.rank), " to an array of shape ",
                                 extent_text(dst.dims, dst.rank)));
      }
    }
  } else if (accumulates) {
    throw ShapeError(message("cannot accumulate an expression of shape ",
                             extent_text(extent, dst.rank), " into an unallocated array"));
  }
  // An unallocated dst goes where the operands are.
  const Place place = allocated ? dst.buffer->place() : first_operand_place(operands);
  if (!allocated) check_place(place);
  check_operand_places(operands, place);
  if (needs_cuda_for_gpu) check_can_run(HostTranslationUnit{}, place);
  return place;
}

PassRoute route_pass(const OperandRef& dst, const OperandList& operands, bool check_aliasing) {
  PassRoute route{check_aliasing && reads_through_other_mapping(dst, operands), nullptr};
  if (dst.buffer != nullptr && is_gpu_place(dst.buffer->place())) {
    route.stream = ordered_stream(device_of(dst.buffer->place()), dst.buffer, operands);
  }
  return route;
}

StreamHandle ordered_stream(int device, Allocation* written, const OperandList& reads) {
  StreamOrder order(device);
  for (std::size_t i = 0; i < reads.size(); ++i) order.read(reads[i].buffer);
  order.write(written);
  return order.stream();
}

}  // namespace detail
}  // namespace tensorx

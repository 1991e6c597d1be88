// The checks every assignment makes before any work (engine/operand_list.h's check_assignment),
// compiled once here: inline in evaluate(), their throws and messages were compiled again for
// every expression.
#include <sstream>
#include <string>

#include "tensorx/core/error.h"
#include "tensorx/engine/gpu_dispatch.h"
#include "tensorx/engine/operand_list.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

/// "(2, 3)" for the extents dims[0 .. rank), as Dim<N> prints them.
std::string shape_text(const index_t* dims, int rank) {
  std::ostringstream out;
  out << '(';
  for (int i = 0; i < rank; ++i) out << (i ? ", " : "") << dims[i];
  out << ')';
  return out.str();
}

}  // namespace

Place check_assignment(const OperandRef& dst, const index_t* extent, bool accumulates,
                       const OperandList& operands, bool needs_cuda_for_gpu) {
  const bool allocated = dst.buffer != nullptr;
  if (allocated) {
    for (int i = 0; i < dst.rank; ++i) {
      if (dst.dims[i] != extent[i]) {
        throw ShapeError(message("cannot assign an expression of shape ",
                                 shape_text(extent, dst.rank), " to an array of shape ",
                                 shape_text(dst.dims, dst.rank)));
      }
    }
  } else if (accumulates) {
    throw ShapeError(message("cannot accumulate an expression of shape ",
                             shape_text(extent, dst.rank), " into an unallocated array"));
  }
  // An unallocated dst goes where the operands are.
  const Place place = allocated ? dst.buffer->place() : first_operand_place(operands);
  if (!allocated) check_place(place);
  check_operand_places(operands, place);
  if (needs_cuda_for_gpu) check_can_run(HostTranslationUnit{}, place);
  return place;
}

}  // namespace detail
}  // namespace tensorx

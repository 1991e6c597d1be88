// The labels of one assignment and its operands in terms of them. Every distinct label gets an id
// (its index in the LabelTable) and one extent, checked against every axis that carries it; each
// operand becomes a LabelledOperand: its axes by label id, with an axis whose label repeats inside
// the operand (a diagonal, a("i,i")) folded into one axis whose stride is the sum of theirs.
#pragma once

#include <cstdint>
#include <memory>

#include "tensorx/core/config.h"
#include "tensorx/labels/label.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/place.h"

namespace tensorx {
namespace detail {

/// A set of label ids, bit i for id i.
using LabelMask = std::uint32_t;

/// The most distinct labels one assignment may use (one bit of a LabelMask each).
constexpr int kMaxLabels = 32;

/// Every label of an assignment, with its extent.
struct LabelTable {
  int size = 0;
  Label labels[kMaxLabels];
  index_t extents[kMaxLabels];
  const LabelList* seen_in[kMaxLabels];  // the operand that first had the label, for messages

  /// The id of `label`, or -1.
  int find(const Label& label) const {
    for (int id = 0; id < size; ++id) {
      if (labels[id] == label) return id;
    }
    return -1;
  }
  /// The product of the extents of the labels in `mask`.
  index_t extent_of(LabelMask mask) const {
    index_t extent = 1;
    for (int id = 0; mask != 0; ++id, mask >>= 1) {
      if (mask & 1u) extent *= extents[id];
    }
    return extent;
  }
};

/// An array of a labelled assignment in terms of the assignment's labels: axis i has label id
/// ids[i], extent dims[i] and stride strides[i] (in elements). No id repeats.
struct LabelledOperand {
  // Axes from `rank` on are never read, so the arrays are left uninitialised: planning makes
  // several of these per assignment and must stay cheap.
  const std::shared_ptr<Allocation>* buffer = nullptr;  // the array's buffer, owned elsewhere
  index_t offset = 0;
  int rank = 0;
  std::int8_t ids[kMaxRank];
  index_t dims[kMaxRank];
  index_t strides[kMaxRank];
  LabelMask mask = 0;
  const LabelList* labels = nullptr;  // as the user wrote them, for messages

  index_t numel() const {
    index_t count = 1;
    for (int i = 0; i < rank; ++i) count *= dims[i];
    return count;
  }
  /// The axis whose label id is `id`, or -1.
  int axis_of(int id) const {
    for (int i = 0; i < rank; ++i) {
      if (ids[i] == id) return i;
    }
    return -1;
  }
  /// The stride of the axis labelled `id`; 0 (a broadcast) where the operand lacks the label.
  index_t stride_of(int id) const {
    const int axis = axis_of(id);
    return axis < 0 ? 0 : strides[axis];
  }
  bool allocated() const { return buffer != nullptr && *buffer != nullptr; }
  Place place() const { return allocated() ? (*buffer)->place() : Place(CpuPlace()); }
  /// The first element, for an operand of `element_size`-byte elements.
  void* data(std::size_t element_size) const {
    return allocated() ? static_cast<char*>((*buffer)->data()) + offset * element_size : nullptr;
  }
};

/// Adds the labels of an operand of extent `dims` and strides `strides` (labels.size axes) to
/// `table` and describes it in `out`. Throws ShapeError naming the label and both extents when a
/// label's extent differs from the one it has elsewhere (or, repeated inside the operand, from its
/// other axis), LabelError when the assignment would use more than kMaxLabels labels.
void add_operand(LabelTable& table, const LabelList& labels, const index_t* dims,
                 const index_t* strides, const std::shared_ptr<Allocation>* buffer, index_t offset,
                 LabelledOperand& out);

/// The extents of the left side's labels, into dims[0 .. labels.size). Throws LabelError when a
/// label repeats on the left or no operand has it.
void left_extents(const LabelTable& table, const LabelList& labels, index_t* dims);

/// Describes the left side (an array of extent `dims`) in `out`, after left_extents' checks.
/// Throws ShapeError naming the label and both extents where the array's extent differs from
/// the operands'.
void bind_left(const LabelTable& table, const LabelList& labels, const index_t* dims,
               const index_t* strides, const std::shared_ptr<Allocation>* buffer, index_t offset,
               LabelledOperand& out);

/// Throws PlaceError naming both places unless every operand is on `place`.
void check_places(const LabelledOperand* operands, int count, const Place& place);

/// The place of the first allocated operand, or the CPU.
Place operands_place(const LabelledOperand* operands, int count);

}  // namespace detail
}  // namespace tensorx

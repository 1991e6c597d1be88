// Building the label table of an assignment and its checks (labels/label_table.h).
#include "tensorx/labels/label_table.h"

namespace tensorx {
namespace detail {
namespace {

[[noreturn]] void throw_extent_mismatch(const Label& label, index_t extent, const LabelList* where,
                                        index_t other, const LabelList* other_where) {
  throw ShapeError(message("label ", label.name(), " has extent ", extent, " in ", *where,
                           " but extent ", other, " in ", *other_where));
}

}  // namespace

void add_operand(LabelTable& table, const LabelList& labels, const index_t* dims,
                 const index_t* strides, const std::shared_ptr<Allocation>* buffer, index_t offset,
                 LabelledOperand& out) {
  out.buffer = buffer;
  out.offset = offset;
  out.labels = &labels;
  out.rank = 0;
  out.mask = 0;
  for (int axis = 0; axis < labels.size; ++axis) {
    const Label& label = labels.labels[axis];
    int id = table.find(label);
    if (id < 0) {
      if (table.size == kMaxLabels) {
        throw LabelError(message("an assignment may use at most ", kMaxLabels, " distinct labels; ",
                                 labels, " brings the count past it"));
      }
      id = table.size++;
      table.labels[id] = label;
      table.extents[id] = dims[axis];
      table.seen_in[id] = &labels;
    } else if (table.extents[id] != dims[axis]) {
      throw_extent_mismatch(label, dims[axis], &labels, table.extents[id], table.seen_in[id]);
    }
    const int folded = out.axis_of(id);
    if (folded >= 0) {
      // A repeated label reads the diagonal: one step along it steps every axis that carries it.
      out.strides[folded] += strides[axis];
    } else {
      out.ids[out.rank] = static_cast<std::int8_t>(id);
      out.dims[out.rank] = dims[axis];
      out.strides[out.rank] = strides[axis];
      ++out.rank;
      out.mask |= LabelMask{1} << id;
    }
  }
}

void left_extents(const LabelTable& table, const LabelList& labels, index_t* dims) {
  for (int axis = 0; axis < labels.size; ++axis) {
    const Label& label = labels.labels[axis];
    for (int before = 0; before < axis; ++before) {
      if (labels.labels[before] == label) {
        throw LabelError(message("label ", label.name(), " appears twice on the left, in ", labels,
                                 "; each axis of the result needs a label of its own"));
      }
    }
    const int id = table.find(label);
    if (id < 0) {
      throw LabelError(message("label ", label.name(), " on the left (", labels,
                               ") is in no operand on the right, so its extent is unknown"));
    }
    dims[axis] = table.extents[id];
  }
}

void bind_left(const LabelTable& table, const LabelList& labels, const index_t* dims,
               const index_t* strides, const std::shared_ptr<Allocation>* buffer, index_t offset,
               LabelledOperand& out) {
  index_t extents[kMaxRank];
  left_extents(table, labels, extents);
  out.buffer = buffer;
  out.offset = offset;
  out.labels = &labels;
  out.rank = labels.size;
  out.mask = 0;
  for (int axis = 0; axis < labels.size; ++axis) {
    const int id = table.find(labels.labels[axis]);
    if (dims[axis] != extents[axis]) {
      throw ShapeError(message("label ", labels.labels[axis].name(), " has extent ", dims[axis],
                               " on the left (", labels, ") but extent ", extents[axis], " in ",
                               *table.seen_in[id]));
    }
    out.ids[axis] = static_cast<std::int8_t>(id);
    out.dims[axis] = dims[axis];
    out.strides[axis] = strides[axis];
    out.mask |= LabelMask{1} << id;
  }
}

void check_places(const LabelledOperand* operands, int count, const Place& place) {
  for (int i = 0; i < count; ++i) {
    const LabelledOperand& operand = operands[i];
    if (operand.allocated() && operand.place() != place) {
      throw PlaceError(message("operand ", *operand.labels, " is on ", operand.place(),
                               " but the result is on ", place,
                               "; move it first with tx::to(array, place)"));
    }
  }
}

Place operands_place(const LabelledOperand* operands, int count) {
  for (int i = 0; i < count; ++i) {
    if (operands[i].allocated()) return operands[i].place();
  }
  return CpuPlace();
}

}  // namespace detail
}  // namespace tensorx

// The subscript strings of tx::einsum ("ik,kj->ij"), parsed into one label list per operand and
// one for the result (see einsum.h for the notation).
#pragma once

#include "tensorx/labels/label.h"

namespace tensorx {
namespace detail {

/// The most operands one einsum takes (the most factors of a labelled product).
constexpr int kMaxEinsumOperands = 8;

/// A parsed einsum subscript string.
struct EinsumSpec {
  LabelList inputs[kMaxEinsumOperands];
  LabelList output;
};

/// Parses `spec` for `operands` operands. Throws LabelError naming the string when the number of
/// operand subscripts differs, a subscript is not a letter, an operand has more than kMaxRank
/// subscripts, or "->" is malformed.
EinsumSpec parse_einsum(const char* spec, int operands);

}  // namespace detail
}  // namespace tensorx

// Trans: whether a BLAS operand enters its product as stored or transposed, op(X) = X or X^T.
#pragma once

#include <ostream>

namespace tensorx {

/// kNo: op(X) = X; kYes: op(X) = X^T.
enum class Trans { kNo, kYes };

/// Prints "Trans::kNo" or "Trans::kYes".
inline std::ostream& operator<<(std::ostream& out, Trans trans) {
  return out << (trans == Trans::kYes ? "Trans::kYes" : "Trans::kNo");
}

}  // namespace tensorx

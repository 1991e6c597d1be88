// How the compiled engine's messages write an extent held as a rank and an array of index_t: as
// Dim<N> prints it.
#pragma once

#include <sstream>
#include <string>

#include "tensorx/shape/dim.h"

namespace tensorx {
namespace detail {

/// "(2, 3)" for the extents dims[0 .. rank); "()" for rank 0.
inline std::string extent_text(const index_t* dims, int rank) {
  std::ostringstream out;
  out << '(';
  for (int i = 0; i < rank; ++i) out << (i ? ", " : "") << dims[i];
  out << ')';
  return out.str();
}

}  // namespace detail
}  // namespace tensorx

// The dictionary of a .npy header, a Python literal such as
//   {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
// parsed without Python: exactly the three keys NumPy writes, each once, in any order; strings
// in either quote, True/False, a tuple of non-negative integers (Python 2's "3L" too), whitespace
// anywhere between tokens. Anything else is an NpyError naming the byte where it goes wrong.
// Private to src/.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "tensorx/core/config.h"

namespace tensorx {
namespace detail {

/// The entries of a header dictionary, as written.
struct NpyHeaderDict {
  std::string descr;
  bool fortran_order = false;
  std::vector<index_t> shape;
};

/// Parses `text`, the header after the preamble; `path` names the file in errors.
NpyHeaderDict parse_npy_header_dict(std::string_view text, const std::string& path);

}  // namespace detail
}  // namespace tensorx

// What the .npy reader and writer share: the preamble's constants, the NumPy dtype strings
// ("descr") of tensorx's element types, Python's tuple syntax, and how problems are reported.
// Private to src/.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "tensorx/core/config.h"
#include "tensorx/core/data_type.h"
#include "tensorx/interop/npy.h"

namespace tensorx {
namespace detail {

/// Every .npy file starts with these 6 bytes, then the format version (major, minor).
inline constexpr std::string_view kNpyMagic("\x93NUMPY", 6);

/// NumPy pads the header so that the data starts at a multiple of 64 bytes.
inline constexpr std::size_t kNpyAlignment = 64;

/// The largest header tensorx reads. NumPy's own limit is 10,000 bytes; a valid header of a
/// tensorx element type needs under 300, and the limit bounds what a corrupt length can cost.
inline constexpr std::size_t kMaxNpyHeaderBytes = 1 << 20;

/// One element type and its little-endian dtype string. The one table of the .npy format: a new
/// element type with a NumPy dtype is one more row; a type without a row (NumPy has no bfloat16)
/// cannot be saved or loaded.
struct NpyDescr {
  DataType type;
  std::string_view descr;
};

inline constexpr NpyDescr kNpyDescrs[] = {
    {DataType::kFloat16, "<f2"}, {DataType::kFloat32, "<f4"}, {DataType::kFloat64, "<f8"},
    {DataType::kInt32, "<i4"},   {DataType::kInt64, "<i8"},
};

/// The element type of a dtype string, or nothing when tensorx has none.
inline std::optional<DataType> data_type_of_descr(std::string_view descr) {
  for (const NpyDescr& row : kNpyDescrs) {
    if (row.descr == descr) return row.type;
  }
  return std::nullopt;
}

/// The dtype string of an element type, or nothing when NumPy has none.
inline std::optional<std::string_view> descr_of(DataType type) {
  for (const NpyDescr& row : kNpyDescrs) {
    if (row.type == type) return row.descr;
  }
  return std::nullopt;
}

/// "<f2, <f4, <f8, <i4 and <i8", for messages.
inline std::string supported_descrs() {
  std::string list;
  const std::size_t count = std::size(kNpyDescrs);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) list += i + 1 == count ? " and " : ", ";
    list += kNpyDescrs[i].descr;
  }
  return list;
}

/// An extent as Python writes a tuple: "()", "(3,)", "(2, 3)". The header's shape, and messages.
inline std::string python_tuple(const std::vector<index_t>& values) {
  std::string text = "(";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  return text + (values.size() == 1 ? ",)" : ")");
}

/// Every problem with a .npy file is an NpyError that starts with the file's path.
[[noreturn]] inline void throw_npy_error(const std::string& path, const std::string& problem) {
  throw NpyError("'" + path + "': " + problem);
}

}  // namespace detail
}  // namespace tensorx

// How tensorx's element types and places are named in DLPack: one table each way, shared by
// export and import, and the readable names of what DLPack can describe, for messages.
// Private to src/.
#pragma once

#include <cstdint>
#include <iterator>
#include <optional>
#include <string>

#include "tensorx/core/data_type.h"
#include "tensorx/interop/dlpack_abi.h"

namespace tensorx {
namespace detail {

/// One element type and its DLPack code and bit width (always one lane). A new tensorx element
/// type is one more row; the static_assert below fails until it has one.
struct DLPackElement {
  DataType type;
  std::uint8_t code;
  std::uint8_t bits;
};

inline constexpr DLPackElement kDLPackElements[] = {
    {DataType::kFloat16, kDLFloat, 16}, {DataType::kFloat32, kDLFloat, 32},
    {DataType::kFloat64, kDLFloat, 64}, {DataType::kInt32, kDLInt, 32},
    {DataType::kInt64, kDLInt, 64},     {DataType::kBFloat16, kDLBfloat, 16},
};

static_assert(std::size(kDLPackElements) == kAllDataTypes.size(),
              "Every tensorx element type needs a row in kDLPackElements (src/interop/"
              "dlpack_types.h), so that any array can be exported.");

/// The DLPack dtype of an element type.
inline DLDataType dlpack_dtype_of(DataType type) {
  for (const DLPackElement& row : kDLPackElements) {
    if (row.type == type) return DLDataType{row.code, row.bits, 1};
  }
  throw_invalid_data_type(type);
}

/// The element type of a DLPack dtype, or nothing when tensorx has none (vector types included).
inline std::optional<DataType> data_type_of_dlpack(const DLDataType& dtype) {
  if (dtype.lanes != 1) return std::nullopt;
  for (const DLPackElement& row : kDLPackElements) {
    if (row.code == dtype.code && row.bits == dtype.bits) return row.type;
  }
  return std::nullopt;
}

/// "uint8", "float32x4", "code 9 with 16 bits": a DLPack dtype as NumPy-minded readers know it.
inline std::string dlpack_dtype_name(const DLDataType& dtype) {
  static constexpr const char* kCodeNames[] = {"int",    "uint",    "float", "handle",
                                               "bfloat", "complex", "bool"};
  std::string text = dtype.code < std::size(kCodeNames)
                         ? kCodeNames[dtype.code] + std::to_string(dtype.bits)
                         : message("code ", int{dtype.code}, " with ", int{dtype.bits}, " bits");
  if (dtype.lanes != 1) text += "x" + std::to_string(dtype.lanes);
  return text;
}

/// "float16, float32, float64, int32 and int64", the element types DLPack can bring in.
inline std::string dlpack_importable_types() {
  std::string list;
  const std::size_t count = std::size(kDLPackElements);
  for (std::size_t i = 0; i < count; ++i) {
    if (i > 0) list += i + 1 == count ? " and " : ", ";
    list += name(kDLPackElements[i].type);
  }
  return list;
}

/// "kDLROCM (10)": a device type by its name in the specification.
inline std::string dlpack_device_name(std::int32_t type) {
  static constexpr const char* kNames[] = {
      nullptr,     "kDLCPU",         "kDLCUDA",   "kDLCUDAHost", "kDLOpenCL",  nullptr,
      nullptr,     "kDLVulkan",      "kDLMetal",  "kDLVPI",      "kDLROCM",    "kDLROCMHost",
      "kDLExtDev", "kDLCUDAManaged", "kDLOneAPI", "kDLWebGPU",   "kDLHexagon", "kDLMAIA"};
  const bool named =
      type >= 0 && type < static_cast<std::int32_t>(std::size(kNames)) && kNames[type] != nullptr;
  return message(named ? kNames[type] : "device type", " (", type, ")");
}

}  // namespace detail
}  // namespace tensorx

// DataType: the run-time name of an element type, and type_switch, the one place that turns such a
// name back into a C++ type. DArray and the compiled layer dispatch on element types through it.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <ostream>
#include <string_view>
#include <type_traits>
#include <utility>

#include "tensorx/core/bfloat16.h"
#include "tensorx/core/error.h"
#include "tensorx/core/float16.h"

namespace tensorx {

/// The element types tensorx supports, in the order of kAllDataTypes (new types go last, so that
/// the values of the others never change).
enum class DataType { kFloat32, kFloat64, kFloat16, kInt32, kInt64, kBFloat16 };

/// Every DataType, for code that must visit them all.
inline constexpr std::array<DataType, 6> kAllDataTypes = {DataType::kFloat32, DataType::kFloat64,
                                                          DataType::kFloat16, DataType::kInt32,
                                                          DataType::kInt64,   DataType::kBFloat16};

/// An empty value that carries a type, so that a generic lambda can receive it as an argument.
template <class T>
struct TypeTag {
  /// The type carried.
  using type = T;
};

namespace detail {

// The compile-time direction, C++ type -> DataType and name. An unsupported type has no entry.
template <class T>
struct ElementInfo {
  static constexpr bool kSupported = false;
};
struct SupportedElement {
  static constexpr bool kSupported = true;
};
template <>
struct ElementInfo<float> : SupportedElement {
  static constexpr DataType kDataType = DataType::kFloat32;
  static constexpr std::string_view kName = "float32";
};
template <>
struct ElementInfo<double> : SupportedElement {
  static constexpr DataType kDataType = DataType::kFloat64;
  static constexpr std::string_view kName = "float64";
};
template <>
struct ElementInfo<float16> : SupportedElement {
  static constexpr DataType kDataType = DataType::kFloat16;
  static constexpr std::string_view kName = "float16";
};
template <>
struct ElementInfo<bfloat16> : SupportedElement {
  static constexpr DataType kDataType = DataType::kBFloat16;
  static constexpr std::string_view kName = "bfloat16";
};
template <>
struct ElementInfo<std::int32_t> : SupportedElement {
  static constexpr DataType kDataType = DataType::kInt32;
  static constexpr std::string_view kName = "int32";
};
template <>
struct ElementInfo<std::int64_t> : SupportedElement {
  static constexpr DataType kDataType = DataType::kInt64;
  static constexpr std::string_view kName = "int64";
};

[[noreturn]] inline void throw_invalid_data_type(DataType type) {
  throw TypeError(message("DataType value ", static_cast<int>(type),
                          " is not an element type (valid values are 0 to ",
                          kAllDataTypes.size() - 1, ")"));
}

}  // namespace detail

/// True for exactly float, double, float16, bfloat16, std::int32_t and std::int64_t (not
/// cv-qualified).
template <class T>
inline constexpr bool is_supported_element_v = detail::ElementInfo<T>::kSupported;

/// The DataType of T; T must be a supported element type (checked at compile time).
template <class T>
constexpr DataType data_type_of() {
  static_assert(is_supported_element_v<T>,
                "tensorx elements are float, double, float16, bfloat16, std::int32_t or "
                "std::int64_t; this type is none of them.");
  return detail::ElementInfo<T>::kDataType;
}

/// Calls f(TypeTag<T>{}) with the C++ type T that `type` names and returns what f returns (f must
/// return the same type for every T). Throws TypeError for a value that is not a DataType.
template <class F>
constexpr decltype(auto) type_switch(DataType type, F&& f) {
  switch (type) {
    case DataType::kFloat32:
      return std::forward<F>(f)(TypeTag<float>{});
    case DataType::kFloat64:
      return std::forward<F>(f)(TypeTag<double>{});
    case DataType::kFloat16:
      return std::forward<F>(f)(TypeTag<float16>{});
    case DataType::kInt32:
      return std::forward<F>(f)(TypeTag<std::int32_t>{});
    case DataType::kInt64:
      return std::forward<F>(f)(TypeTag<std::int64_t>{});
    case DataType::kBFloat16:
      return std::forward<F>(f)(TypeTag<bfloat16>{});
  }
  detail::throw_invalid_data_type(type);
}

/// Bytes per element of `type`. Throws TypeError for a value that is not a DataType.
constexpr std::size_t size_of(DataType type) {
  return type_switch(type, [](auto tag) { return sizeof(typename decltype(tag)::type); });
}

/// True for the integer element types (int32, int64). Throws TypeError for a value that is not a
/// DataType.
constexpr bool is_integer(DataType type) {
  return type_switch(type,
                     [](auto tag) { return std::is_integral_v<typename decltype(tag)::type>; });
}

/// "float32", "float64", "float16", "int32", "int64" or "bfloat16". Throws TypeError for a value
/// that is not a DataType.
constexpr std::string_view name(DataType type) {
  return type_switch(
      type, [](auto tag) { return detail::ElementInfo<typename decltype(tag)::type>::kName; });
}

/// Prints name(type); a value that is not a DataType prints as "DataType(<number>)" so that
/// printing, which error messages rely on, never throws.
inline std::ostream& operator<<(std::ostream& out, DataType type) {
  for (DataType valid : kAllDataTypes) {
    if (valid == type) return out << name(type);
  }
  return out << "DataType(" << static_cast<int>(type) << ")";
}

/// The DataType whose name() is `text`; throws TypeError for any other text.
inline DataType data_type_from_name(std::string_view text) {
  for (DataType type : kAllDataTypes) {
    if (name(type) == text) return type;
  }
  throw TypeError(
      detail::message("unknown element type name '", text,
                      "'; expected float32, float64, float16, bfloat16, int32 or int64"));
}

}  // namespace tensorx

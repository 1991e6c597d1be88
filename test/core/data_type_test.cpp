// DataType and type_switch: the mapping between element types and their run-time names, checked
// against literal tables, and the TypeError for values that are not a DataType.
#include "tensorx/core/data_type.h"

#include <cstdint>
#include <iterator>
#include <sstream>
#include <string>
#include <typeindex>
#include <typeinfo>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"

namespace tx = tensorx;
using tx::DataType;

namespace {

/// The expected facts about each DataType, written out independently of the code under test.
struct Expected {
  DataType type;
  int value;
  std::type_index cpp_type;
  std::size_t bytes;
  const char* name;
};

const Expected kExpected[] = {
    {DataType::kFloat32, 0, typeid(float), 4, "float32"},
    {DataType::kFloat64, 1, typeid(double), 8, "float64"},
    {DataType::kFloat16, 2, typeid(tx::float16), 2, "float16"},
    {DataType::kInt32, 3, typeid(std::int32_t), 4, "int32"},
    {DataType::kInt64, 4, typeid(std::int64_t), 8, "int64"},
    {DataType::kBFloat16, 5, typeid(tx::bfloat16), 2, "bfloat16"},
};

const DataType kInvalid = static_cast<DataType>(99);

std::string printed(DataType type) {
  std::ostringstream out;
  out << type;
  return out.str();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(data_type_test)

BOOST_AUTO_TEST_CASE(data_type_of_names_each_supported_type) {
  static_assert(tx::data_type_of<float>() == DataType::kFloat32);
  static_assert(tx::data_type_of<double>() == DataType::kFloat64);
  static_assert(tx::data_type_of<tx::float16>() == DataType::kFloat16);
  static_assert(tx::data_type_of<std::int32_t>() == DataType::kInt32);
  static_assert(tx::data_type_of<std::int64_t>() == DataType::kInt64);
  static_assert(tx::data_type_of<tx::bfloat16>() == DataType::kBFloat16);
  BOOST_TEST((tx::data_type_of<tx::float16>() == DataType::kFloat16));
}

BOOST_AUTO_TEST_CASE(only_the_six_element_types_are_supported) {
  static_assert(
      tx::is_supported_element_v<float> && tx::is_supported_element_v<double> &&
      tx::is_supported_element_v<tx::float16> && tx::is_supported_element_v<tx::bfloat16> &&
      tx::is_supported_element_v<std::int32_t> && tx::is_supported_element_v<std::int64_t>);
  static_assert(
      !tx::is_supported_element_v<bool> && !tx::is_supported_element_v<char> &&
      !tx::is_supported_element_v<std::uint8_t> && !tx::is_supported_element_v<std::uint32_t> &&
      !tx::is_supported_element_v<std::uint64_t> && !tx::is_supported_element_v<long double> &&
      !tx::is_supported_element_v<float*> && !tx::is_supported_element_v<const float>);
  BOOST_TEST(tx::is_supported_element_v<tx::float16>);
}

BOOST_AUTO_TEST_CASE(every_data_type_has_its_value_size_name_and_printed_form) {
  BOOST_TEST(tx::kAllDataTypes.size() == std::size(kExpected));
  static_assert(tx::size_of(DataType::kFloat16) == 2 && tx::name(DataType::kInt64) == "int64");
  for (std::size_t i = 0; i < std::size(kExpected); ++i) {
    const Expected& e = kExpected[i];
    BOOST_TEST_CONTEXT(e.name) {
      BOOST_TEST((tx::kAllDataTypes[i] == e.type));
      BOOST_TEST(static_cast<int>(e.type) == e.value);
      BOOST_TEST(tx::size_of(e.type) == e.bytes);
      BOOST_TEST(tx::name(e.type) == e.name);
      BOOST_TEST(printed(e.type) == e.name);
      BOOST_TEST((tx::data_type_from_name(e.name) == e.type));
    }
  }
}

BOOST_AUTO_TEST_CASE(type_switch_visits_the_matching_cpp_type) {
  for (const Expected& e : kExpected) {
    BOOST_TEST_CONTEXT(e.name) {
      const auto visited = tx::type_switch(e.type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        BOOST_TEST(sizeof(T) == tx::size_of(e.type));
        BOOST_TEST((tx::data_type_of<T>() == e.type));
        return std::type_index(typeid(T));
      });
      BOOST_TEST((visited == e.cpp_type));
    }
  }
}

BOOST_AUTO_TEST_CASE(type_switch_returns_what_the_visitor_returns) {
  int target = 0;
  int& reference = tx::type_switch(DataType::kInt32, [&](auto) -> int& { return target; });
  BOOST_TEST(&reference == &target);
  int calls = 0;
  tx::type_switch(DataType::kFloat16, [&](auto) { ++calls; });
  BOOST_TEST(calls == 1);
}

BOOST_AUTO_TEST_CASE(an_invalid_value_is_a_type_error_naming_it) {
  int calls = 0;
  BOOST_CHECK_EXCEPTION(tx::type_switch(kInvalid, [&](auto) { ++calls; }), tx::TypeError,
                        tx::testing::message_has({"DataType value 99"}));
  BOOST_TEST(calls == 0);
  BOOST_CHECK_EXCEPTION(tx::size_of(kInvalid), tx::TypeError, tx::testing::message_has({"99"}));
  BOOST_CHECK_EXCEPTION(tx::name(kInvalid), tx::TypeError, tx::testing::message_has({"99"}));
  BOOST_CHECK_EXCEPTION(tx::type_switch(static_cast<DataType>(-1), [](auto) {}), tx::TypeError,
                        tx::testing::message_has({"-1"}));
  // Printing never throws, so it can appear in any error message.
  BOOST_TEST(printed(kInvalid) == "DataType(99)");
}

BOOST_AUTO_TEST_CASE(an_unknown_name_is_a_type_error_naming_it) {
  BOOST_CHECK_EXCEPTION(tx::data_type_from_name("float8"), tx::TypeError,
                        tx::testing::message_has({"'float8'", "float32", "int64"}));
  BOOST_CHECK_EXCEPTION(tx::data_type_from_name("Float32"), tx::TypeError,
                        tx::testing::message_has({"'Float32'"}));
  BOOST_CHECK_THROW(tx::data_type_from_name(""), tx::TypeError);
}

BOOST_AUTO_TEST_CASE(error_messages_can_name_a_data_type) {
  BOOST_TEST(tx::detail::message("expected ", DataType::kFloat16, ", got ", DataType::kInt32) ==
             "expected float16, got int32");
}

BOOST_AUTO_TEST_SUITE_END()

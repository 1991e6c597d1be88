// The exception hierarchy: every error is a tx::Error and a std::runtime_error, CudaError carries
// where it happened, and detail::message streams its parts into one string.
#include "tensorx/core/error.h"

#include <stdexcept>
#include <string>
#include <type_traits>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

namespace tx = tensorx;

namespace {

using SimpleErrors = boost::mpl::list<tx::Error, tx::ShapeError, tx::IndexError, tx::PlaceError,
                                      tx::TypeError, tx::DeviceError, tx::BlasError>;

tx::CudaError make_cuda_error() {
  return tx::CudaError("cudaErrorMemoryAllocation", "out of memory", "allocation.cu", 42);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(error_test)

BOOST_AUTO_TEST_CASE_TEMPLATE(each_error_is_caught_as_error_and_runtime_error, E, SimpleErrors) {
  static_assert(std::is_base_of_v<tx::Error, E> && std::is_base_of_v<std::runtime_error, E>);
  const std::string text = "shape (2, 3) does not match (3, 2)";
  try {
    throw E(text);
  } catch (const tx::Error& e) {
    BOOST_TEST(e.what() == text);
  }
  try {
    throw E(text);
  } catch (const std::runtime_error& e) {
    BOOST_TEST(e.what() == text);
  }
}

BOOST_AUTO_TEST_CASE(the_kinds_of_error_are_distinct) {
  static_assert(!std::is_base_of_v<tx::ShapeError, tx::IndexError>);
  static_assert(!std::is_base_of_v<tx::IndexError, tx::ShapeError>);
  static_assert(!std::is_base_of_v<tx::TypeError, tx::PlaceError>);
  static_assert(!std::is_base_of_v<tx::DeviceError, tx::BlasError>);
  static_assert(!std::is_base_of_v<std::logic_error, tx::Error>);
}

BOOST_AUTO_TEST_CASE(cuda_error_is_a_device_error_that_says_where) {
  static_assert(std::is_base_of_v<tx::DeviceError, tx::CudaError>);
  const tx::CudaError error = make_cuda_error();
  BOOST_TEST(error.error_name() == "cudaErrorMemoryAllocation");
  BOOST_TEST(error.file() == "allocation.cu");
  BOOST_TEST(error.line() == 42);
  const std::string what = error.what();
  for (const char* part : {"cudaErrorMemoryAllocation", "out of memory", "allocation.cu", "42"}) {
    BOOST_TEST(what.find(part) != std::string::npos, "'" << part << "' missing from: " << what);
  }
  try {
    throw make_cuda_error();
  } catch (const tx::DeviceError& e) {
    BOOST_TEST(e.what() == what);
  }
}

BOOST_AUTO_TEST_CASE(message_streams_every_part_in_order) {
  BOOST_TEST(tx::detail::message("plain") == "plain");
  BOOST_TEST(tx::detail::message("shape (", 2, ", ", 3, ") and ", 1.5, ' ', std::string("x")) ==
             "shape (2, 3) and 1.5 x");
  BOOST_TEST(tx::detail::message(-7L, "/", 3u) == "-7/3");
}

BOOST_AUTO_TEST_SUITE_END()

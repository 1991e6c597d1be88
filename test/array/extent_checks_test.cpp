// Extents that cannot be arrays throw a named error instead of overflowing or crashing (hardening
// issue, point 3): negative extents, element counts past a 64-bit index, byte counts past what
// memory addresses, and reshapes to negative extents.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::message_has;

namespace {
template <class T, int N>
void make_array(const tx::Dim<N>& dims) {
  tx::Array<T, N> array(dims);
}
}  // namespace

BOOST_AUTO_TEST_SUITE(extent_checks)

BOOST_AUTO_TEST_CASE(negative_and_overflowing_extents_throw_shape_errors) {
  BOOST_CHECK_EXCEPTION(make_array<float>(tx::make_dim(-1, 3)), tx::ShapeError,
                        message_has({"negative extent", "(-1, 3)"}));
  BOOST_CHECK_EXCEPTION(make_array<float>(tx::make_dim(1L << 32, 1L << 32)), tx::ShapeError,
                        message_has({"(4294967296, 4294967296)", "more elements"}));
  BOOST_CHECK_EXCEPTION(make_array<float>(tx::make_dim(1L << 40, 1L << 40, 2)), tx::ShapeError,
                        message_has({"more elements"}));
  const tx::Array<float, 3> empty(tx::make_dim(1L << 40, 1L << 40, 0));  // no element: fine
  BOOST_TEST(empty.numel() == 0);
  BOOST_CHECK_EXCEPTION(tx::zeros<double>(tx::make_dim(2, -5)), tx::ShapeError,
                        message_has({"(2, -5)"}));
}

BOOST_AUTO_TEST_CASE(byte_counts_past_memory_throw_out_of_memory_errors) {
  BOOST_CHECK_EXCEPTION(make_array<float>(tx::make_dim(tx::index_t{1} << 62)), tx::OutOfMemoryError,
                        message_has({"4611686018427387904", "(4611686018427387904)"}));
  // Addressable but far more than any machine has: the allocator's failure, named.
  BOOST_CHECK_EXCEPTION(make_array<double>(tx::make_dim(tx::index_t{1} << 58)),
                        tx::OutOfMemoryError, message_has({"bytes", "CPU"}));
}

BOOST_AUTO_TEST_CASE(reshape_to_negative_extents_throws) {
  tx::Array<float, 1> a(tx::make_dim(6));
  BOOST_CHECK_EXCEPTION(tx::reshape(a, tx::make_dim(-2, -3)), tx::ShapeError,
                        message_has({"negative extent", "(-2, -3)"}));
  BOOST_TEST(tx::reshape(a, tx::make_dim(2, 3)).dims() == tx::make_dim(2, 3));
}

BOOST_AUTO_TEST_SUITE_END()

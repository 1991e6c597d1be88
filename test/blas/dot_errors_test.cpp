// The checks of a product before any work: ShapeError naming both shapes for every mismatch (and
// the destination left as it was), PlaceError for operands on different places.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "support/errors.h"

namespace tx = tensorx;
using tx::testing::message_has;
using tx::testing::on_host;
using tx::testing::random_array;

BOOST_AUTO_TEST_SUITE(dot_errors)

BOOST_AUTO_TEST_CASE(inner_extents_that_differ) {
  auto rng = tx::testing::make_rng(801);
  const auto m23 = random_array<float>(tx::make_dim(2, 3), rng);
  const auto m45 = random_array<float>(tx::make_dim(4, 5), rng);
  const auto v4 = random_array<float>(tx::make_dim(4), rng);
  const auto v3 = random_array<float>(tx::make_dim(3), rng);
  tx::Array<float, 2> c(tx::make_dim(2, 5), tx::testing::test_place());
  tx::fill(c, 7.0f);
  tx::Array<float, 1> v;
  tx::Array<float, 0> s;
  BOOST_CHECK_EXCEPTION(c = tx::dot(m23, m45), tx::ShapeError,
                        message_has({"tx::dot", "(2, 3)", "(4, 5)", "3 and 4"}));
  BOOST_CHECK_EXCEPTION(c += 2.0f * tx::dot(m23, m45), tx::ShapeError,
                        message_has({"(2, 3)", "(4, 5)"}));
  BOOST_CHECK_EXCEPTION(v = tx::dot(m23, v4), tx::ShapeError, message_has({"(2, 3)", "(4)"}));
  BOOST_CHECK_EXCEPTION(v = tx::dot(v4, m23), tx::ShapeError, message_has({"(4)", "(2, 3)"}));
  BOOST_CHECK_EXCEPTION(s = tx::dot(v4, v3), tx::ShapeError, message_has({"(4)", "(3)"}));
  BOOST_CHECK_EXCEPTION(c = tx::dot(m23, m45) + 1.0f, tx::ShapeError,
                        message_has({"(2, 3)", "(4, 5)"}));
  BOOST_CHECK_EXCEPTION(c = tx::dot(m23 * 2.0f, m45), tx::ShapeError,
                        message_has({"(2, 3)", "(4, 5)"}));
  BOOST_TEST(!v.allocated());
  tx::testing::check_close(c, tx::testing::reference(c.dims(), [](const auto&) { return 7.0; }));
}

BOOST_AUTO_TEST_CASE(a_destination_of_another_shape) {
  auto rng = tx::testing::make_rng(802);
  const auto a = random_array<double>(tx::make_dim(2, 3), rng);
  const auto b = random_array<double>(tx::make_dim(3, 4), rng);
  tx::Array<double, 2> c(tx::make_dim(4, 2), tx::testing::test_place());
  BOOST_CHECK_EXCEPTION(c = tx::dot(a, b), tx::ShapeError, message_has({"(2, 4)", "(4, 2)"}));
  BOOST_CHECK_EXCEPTION(c = 0.5 * tx::dot(a, b), tx::ShapeError, message_has({"(2, 4)", "(4, 2)"}));
  tx::Array<double, 2> unallocated;
  BOOST_CHECK_EXCEPTION(unallocated += tx::dot(a, b), tx::ShapeError, message_has({"(2, 4)"}));
}

BOOST_AUTO_TEST_CASE(batch_extents_and_inner_extents_of_batches) {
  auto rng = tx::testing::make_rng(803);
  const auto a = random_array<float>(tx::make_dim(3, 2, 4), rng);
  const auto b = random_array<float>(tx::make_dim(2, 4, 5), rng);
  const auto k5 = random_array<float>(tx::make_dim(3, 5, 5), rng);
  tx::Array<float, 3> c;
  BOOST_CHECK_EXCEPTION(c = tx::batch_dot(a, b), tx::ShapeError,
                        message_has({"tx::batch_dot", "(3, 2, 4)", "(2, 4, 5)", "3 and 2"}));
  BOOST_CHECK_EXCEPTION(c = tx::batch_dot(a, k5), tx::ShapeError,
                        message_has({"(3, 2, 4)", "(3, 5, 5)", "4 and 5"}));
  BOOST_TEST(!c.allocated());
}

#if defined(TENSORX_TEST_ON_GPU)
BOOST_AUTO_TEST_CASE(operands_on_different_places) {
  // Every product here has shapes that fit, (2, 3) by (3, 4), so only the places are wrong.
  auto rng = tx::testing::make_rng(804);
  const auto gpu23 = random_array<float>(tx::make_dim(2, 3), rng);
  const auto gpu34 = random_array<float>(tx::make_dim(3, 4), rng);
  const tx::Array<float, 2> cpu23 = on_host(gpu23);
  const tx::Array<float, 2> cpu34 = on_host(gpu34);
  tx::Array<float, 2> c(tx::make_dim(2, 4), tx::testing::test_place());
  tx::fill(c, 7.0f);
  BOOST_CHECK_EXCEPTION(c = tx::dot(gpu23, cpu34), tx::PlaceError,
                        message_has({"CpuPlace", "CudaPlace(0)"}));
  BOOST_CHECK_EXCEPTION(c = tx::dot(cpu23, gpu34) + 1.0f, tx::PlaceError,
                        message_has({"CpuPlace", "CudaPlace(0)"}));
  tx::Array<float, 2> host(tx::make_dim(2, 4));
  BOOST_CHECK_EXCEPTION(host = tx::dot(gpu23, gpu34), tx::PlaceError,
                        message_has({"CpuPlace", "CudaPlace(0)"}));
  // Nothing was written.
  tx::testing::check_close(c, tx::testing::reference(c.dims(), [](const auto&) { return 7.0; }));
}
#endif

BOOST_AUTO_TEST_SUITE_END()

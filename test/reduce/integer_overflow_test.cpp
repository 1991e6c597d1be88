// Integer sums and products wrap around modulo 2^bits, defined, instead of overflowing a signed
// integer (undefined behaviour, which UBSan reported): hardening issue, point 7. The sanitizer
// build of CI runs these with UndefinedBehaviorSanitizer.
#include <boost/test/unit_test.hpp>

#include <cstdint>

#include <tensorx/tensorx.h>

#include "reduce/reduce_reference.h"
#include "support/test_place.h"

namespace tx = tensorx;

namespace {

/// The wrapped sum of `count` copies of `value`, computed in uint64.
template <class I>
I wrapped_sum(I value, tx::index_t count) {
  using U = std::make_unsigned_t<I>;
  U total = 0;
  for (tx::index_t i = 0; i < count; ++i) total = static_cast<U>(total + static_cast<U>(value));
  return static_cast<I>(total);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(integer_overflow)

BOOST_AUTO_TEST_CASE(int32_sums_of_large_values_wrap_around) {
  for (tx::index_t n : {4, 100, 70001}) {  // one SIMD block, rows, the threaded split
    tx::Array<std::int32_t, 1> a(tx::make_dim(n), tx::testing::test_place());
    a = std::int32_t{1} << 30;
    tx::Array<std::int32_t, 0> s = tx::testing::scalar_on_test_place<std::int32_t>();
    s = tx::sum(a);
    BOOST_TEST(s.item() == wrapped_sum<std::int32_t>(std::int32_t{1} << 30, n));
    tx::Array<std::int32_t, 2> m = tx::reshape(a, tx::make_dim(n, 1));
    tx::Array<std::int32_t, 1> columns;
    columns = tx::sum<0>(m);
    BOOST_TEST(tx::testing::on_host(columns)(0) == wrapped_sum<std::int32_t>(1 << 30, n));
  }
  const tx::DArray x =
      tx::make_darray(tx::make_ddim({5}), std::int64_t{1} << 62, tx::testing::test_place());
  BOOST_TEST(static_cast<std::int64_t>(tx::to(tx::sum(x), tx::CpuPlace())[tx::make_ddim({0})]) ==
             wrapped_sum<std::int64_t>(std::int64_t{1} << 62, 5));
}

BOOST_AUTO_TEST_CASE(int_products_wrap_around) {
  tx::Array<std::int32_t, 1> a(tx::make_dim(40), tx::testing::test_place());
  a = 3;
  tx::Array<std::int32_t, 0> p = tx::testing::scalar_on_test_place<std::int32_t>();
  p = tx::prod(a);
  std::uint32_t expected = 1;
  for (int i = 0; i < 40; ++i) expected *= 3u;
  BOOST_TEST(p.item() == static_cast<std::int32_t>(expected));
}

BOOST_AUTO_TEST_SUITE_END()

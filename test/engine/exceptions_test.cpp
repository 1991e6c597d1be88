// An exception thrown inside a CPU pass reaches the caller, whichever thread ran the element that
// threw (hardening issue, point 4): element-wise passes, reductions and gathers, on the serial
// path and on the threaded one (the pool stops handing out chunks, waits for the ones running,
// and rethrows the first exception on the calling thread). The destination may be partly written,
// as the README says; an unallocated one stays unallocated.
#include <boost/test/unit_test.hpp>

#include <stdexcept>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

namespace {

/// Throws for elements above a limit: a user functor that validates its input.
struct checked_sqrt {
  using scalar_only = void;  // it branches on its argument
  float limit;
  template <class T>
  T operator()(const T& x) const {
    if (x > T(limit)) throw std::domain_error("checked_sqrt: an element is above the limit");
    return std::sqrt(x);
  }
};

tx::Array<float, 1> ramp(tx::index_t n) {
  tx::Array<float, 1> a(tx::make_dim(n));
  for (tx::index_t i = 0; i < n; ++i) a(i) = static_cast<float>(i);
  return a;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exceptions)

BOOST_AUTO_TEST_CASE(a_throwing_functor_reaches_the_caller_on_serial_and_threaded_passes) {
  for (tx::index_t n : {tx::index_t{100}, tx::index_t{1} << 20}) {  // below and above the grain
    const auto a = ramp(n);
    tx::Array<float, 1> c(a.dims());
    BOOST_CHECK_THROW(c = tx::map(a, checked_sqrt{static_cast<float>(n) - 2.0f}),
                      std::domain_error);
    // The engine stays usable, on every thread.
    c = tx::map(a, checked_sqrt{static_cast<float>(n)});
    BOOST_TEST(c(n - 1) == std::sqrt(static_cast<float>(n - 1)));
    tx::Array<float, 1> fresh;
    BOOST_CHECK_THROW(fresh = tx::map(a, checked_sqrt{0.5f}), std::domain_error);
    BOOST_TEST(!fresh.allocated(), "a failed assignment leaves an unallocated array unallocated");
  }
}

BOOST_AUTO_TEST_CASE(a_throwing_functor_inside_a_reduction_reaches_the_caller) {
  const tx::index_t n = tx::index_t{1} << 20;
  const auto a = ramp(n);
  tx::Array<float, 0> s;
  BOOST_CHECK_THROW(s = tx::sum(tx::map(a, checked_sqrt{100.0f})), std::domain_error);
  const tx::Array<float, 2> m = tx::reshape(a, tx::make_dim(1024, 1024));
  tx::Array<float, 1> columns;
  BOOST_CHECK_THROW(columns = tx::sum<0>(tx::map(m, checked_sqrt{100.0f})), std::domain_error);
  BOOST_TEST(!columns.allocated());
  s = tx::sum(tx::map(a, checked_sqrt{static_cast<float>(n)}));
  BOOST_TEST(s.item() > 0.0f);
}

BOOST_AUTO_TEST_CASE(a_throwing_table_expression_inside_a_gather_reaches_the_caller) {
  const auto table = ramp(1 << 20);
  tx::Array<std::int64_t, 1> ids(tx::make_dim(1 << 19));
  for (tx::index_t i = 0; i < ids.numel(); ++i) ids(i) = (i * 7919) % (1 << 20);
  tx::Array<float, 1> gathered;
  BOOST_CHECK_THROW(gathered = tx::take(tx::map(table, checked_sqrt{1000.0f}), ids),
                    std::domain_error);
  BOOST_TEST(!gathered.allocated());
}

BOOST_AUTO_TEST_SUITE_END()

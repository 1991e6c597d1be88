// ArrayView and ViewIterator: row-major iteration that honours strides, forwards and backwards.
#include <boost/test/unit_test.hpp>

#include <vector>

#include <tensorx/array/array.h>
#include <tensorx/array/array_view.h>

#include "support/random.h"

namespace tx = tensorx;

namespace {

// The expected visiting order, computed with an odometer independent of ViewIterator.
template <class T, int N>
std::vector<T> row_major_elements(const tx::Array<T, N>& a) {
  std::vector<T> out;
  if (a.numel() == 0) return out;
  tx::Dim<N> index;
  for (tx::index_t n = 0; n < a.numel(); ++n) {
    tx::index_t offset = 0;
    for (int i = 0; i < N; ++i) offset += index[i] * a.strides()[i];
    out.push_back(a.data()[offset]);
    for (int i = N - 1; i >= 0; --i) {
      if (++index[i] < a.dims()[i]) break;
      index[i] = 0;
    }
  }
  return out;
}

// A transposed view of a dense matrix: the same buffer walked with swapped strides.
template <class T>
tx::Array<T, 2> transposed(const tx::Array<T, 2>& a) {
  return tx::Array<T, 2>(a.buffer(), tx::make_dim(a.dims()[1], a.dims()[0]),
                         tx::make_dim(a.strides()[1], a.strides()[0]), a.offset());
}

}  // namespace

BOOST_AUTO_TEST_SUITE(array_view)

BOOST_AUTO_TEST_CASE(iteration_follows_row_major_order_on_dense_arrays) {
  tx::Array<int, 3> a(tx::make_dim(2, 3, 4));
  for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<int>(i);
  int expected = 0;
  for (int v : tx::make_view(a)) BOOST_TEST(v == expected++);
  BOOST_TEST(expected == 24);
}

BOOST_AUTO_TEST_CASE(iteration_honours_strides_of_transposed_and_sliced_views) {
  auto rng = tx::testing::make_rng();
  for (int trial = 0; trial < 20; ++trial) {
    const auto dims = tx::testing::random_dim<2>(rng, 1, 7);
    tx::Array<float, 2> a(dims);
    for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<float>(i);
    for (const auto& view : {transposed(a), a.slice(dims[0] / 2, dims[0]), transposed(a).slice(0, 1)}) {
      std::vector<float> seen(tx::make_view(view).begin(), tx::make_view(view).end());
      BOOST_TEST(seen == row_major_elements(view), boost::test_tools::per_element());
    }
  }
}

BOOST_AUTO_TEST_CASE(iterators_walk_backwards_to_the_beginning) {
  tx::Array<int, 3> dense(tx::make_dim(3, 2, 4));
  for (tx::index_t i = 0; i < dense.numel(); ++i) dense.data()[i] = static_cast<int>(i);
  tx::Array<int, 3> view(dense.buffer(), tx::make_dim(4, 2, 3), tx::make_dim(1, 4, 8), 0);
  const auto forward = row_major_elements(view);
  auto v = tx::make_view(view);
  std::vector<int> backward;
  for (auto it = v.end(); it != v.begin();) backward.push_back(*--it);
  BOOST_TEST(backward == std::vector<int>(forward.rbegin(), forward.rend()),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(make_iterator_starts_at_an_index_and_writes_through) {
  tx::Array<double, 2> a(tx::make_dim(3, 4));
  for (tx::index_t i = 0; i < a.numel(); ++i) a.data()[i] = static_cast<double>(i);
  auto it = tx::make_iterator(a, tx::make_dim(1, 3));
  BOOST_TEST(*it == 7.0);
  BOOST_TEST(it.index() == tx::make_dim(1, 3));
  ++it;
  BOOST_TEST(*it == 8.0);
  BOOST_TEST(it.index() == tx::make_dim(2, 0));
  *it = -1.0;
  BOOST_TEST(a(2, 0) == -1.0);
  BOOST_CHECK_THROW(tx::make_iterator(a, tx::make_dim(3, 0)), tx::IndexError);
}

BOOST_AUTO_TEST_CASE(empty_views_have_no_elements_and_scalars_have_one) {
  tx::Array<float, 2> empty(tx::make_dim(0, 5));
  BOOST_TEST((tx::make_view(empty).begin() == tx::make_view(empty).end()));
  tx::Array<float, 2> hollow(tx::make_dim(4, 0));
  BOOST_TEST(std::distance(tx::make_view(hollow).begin(), tx::make_view(hollow).end()) == 0);
  tx::Array<float, 0> scalar;
  scalar() = 1.5f;
  int count = 0;
  for (float v : tx::make_view(scalar)) {
    BOOST_TEST(v == 1.5f);
    ++count;
  }
  BOOST_TEST(count == 1);
}

BOOST_AUTO_TEST_SUITE_END()

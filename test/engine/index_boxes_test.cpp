// IndexBoxes, the cutting of an iteration space that lets the CUDA engine's 32-bit index arithmetic
// cover spaces past 2^31 elements: on random shapes and limits, the boxes follow one another in
// row-major order, cover every element exactly once, and each holds at most the limit.
#include <boost/test/unit_test.hpp>

#include <random>

#include <tensorx/engine/index_boxes.h>
#include <tensorx/tensorx.h>

#include "support/random.h"

namespace tx = tensorx;
using tx::index_t;

namespace {

/// Walks the boxes of `dims` under `limit` and checks them against a running flat index; returns
/// the number of boxes.
template <int N>
index_t check_boxes(const tx::Dim<N>& dims, index_t limit) {
  tx::detail::IndexBoxes<N> boxes(dims, limit);
  tx::Dim<N> origin, box;
  index_t covered = 0, count = 0;
  bool ordered = true;
  while (boxes.next(origin, box)) {
    ++count;
    BOOST_TEST_CONTEXT("box " << count << " of " << dims << " under " << limit << ": origin "
                              << origin << ", extent " << box) {
      BOOST_TEST(tx::product(box) >= 1);
      BOOST_TEST(tx::product(box) <= limit);
      // Every element of the box, in its own row-major order, is the next one of the space.
      for (index_t k = 0; k < tx::product(box); ++k) {
        tx::Dim<N> index = tx::delinearize(k, box);
        if constexpr (N > 0) {
          for (int d = 0; d < N; ++d) index[d] += origin[d];
        }
        ordered = ordered && tx::contains(dims, index) &&
                  tx::linearize(index, tx::contiguous_strides(dims)) == covered;
        ++covered;
      }
    }
    if (count > tx::product(dims)) break;  // a runaway walk
  }
  BOOST_TEST(ordered);
  BOOST_TEST(covered == tx::product(dims));
  return count;
}

template <int N>
void check_random_shapes(std::mt19937_64& rng) {
  std::uniform_int_distribution<index_t> extent(1, 9);
  for (int trial = 0; trial < 40; ++trial) {
    tx::Dim<N> dims;
    for (int d = 0; d < N; ++d) dims[d] = extent(rng);
    const index_t total = tx::product(dims);
    std::uniform_int_distribution<index_t> limit(1, total + 3);
    for (const index_t l : {index_t{1}, limit(rng), limit(rng), total, total + 1}) {
      const index_t boxes = check_boxes(dims, l);
      // A space within the limit is one box; past it, no more boxes than elements.
      if (total <= l) BOOST_TEST(boxes == 1);
      if (l == 1) BOOST_TEST(boxes == total);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(index_boxes)

BOOST_AUTO_TEST_CASE(boxes_cover_random_spaces_in_row_major_order) {
  auto rng = tx::testing::make_rng(31);
  check_random_shapes<1>(rng);
  check_random_shapes<2>(rng);
  check_random_shapes<3>(rng);
  check_random_shapes<4>(rng);
}

BOOST_AUTO_TEST_CASE(the_split_axis_is_the_innermost_that_overflows) {
  // Rows of 13 in blocks of 7 (7 * 13 = 91 <= 100) then 4, for each of the 7 outer indices.
  BOOST_TEST(check_boxes(tx::make_dim(7, 11, 13), 100) == 14);
  // 13-element rows split 10 + 3, for each of the 77 rows.
  BOOST_TEST(check_boxes(tx::make_dim(7, 11, 13), 10) == 154);
  // A rank-0 space is one box of one element.
  BOOST_TEST(check_boxes(tx::Dim<0>(), 1) == 1);
  // The engine's limit, 2^31 - 1: 2^16 rows of 2^15 elements are two boxes, 2^16 - 1 rows and one.
  const index_t limit = (index_t{1} << 31) - 1;
  tx::detail::IndexBoxes<2> boxes(tx::make_dim(index_t{1} << 16, index_t{1} << 15), limit);
  tx::Dim<2> origin, box;
  index_t count = 0, covered = 0;
  while (boxes.next(origin, box)) {
    ++count;
    BOOST_TEST(tx::product(box) <= limit);
    BOOST_TEST(origin[0] * (index_t{1} << 15) == covered);
    covered += tx::product(box);
  }
  BOOST_TEST(count == 2);
  BOOST_TEST(covered == (index_t{1} << 31));
}

BOOST_AUTO_TEST_SUITE_END()

// tx::windows: the sliding windows of an array as a zero-copy strided view, and a convolution as a
// labelled contraction over it, checked against the convolution's plain loops in double.
#include <boost/test/unit_test.hpp>

#include <cstdint>

#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "support/errors.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::on_host;
using tx::testing::random_array;
using tx::testing::reference;

BOOST_AUTO_TEST_SUITE(windows)

BOOST_AUTO_TEST_CASE(windows_share_the_buffer) {
  auto rng = tx::testing::make_rng(1701);
  const auto x = random_array<float>(tx::make_dim(2, 7, 9), rng);
  const auto w = tx::windows(x, tx::make_dim(3, 2));
  BOOST_TEST(w.dims() == tx::make_dim(2, 5, 8, 3, 2));
  BOOST_TEST(w.buffer() == x.buffer());
  const auto hx = on_host(x);
  check_close(w, reference(w.dims(), [&](const tx::Dim<5>& i) {
                return double(hx[tx::make_dim(i[0], i[1] + i[3], i[2] + i[4])]);
              }));
  const auto strided = tx::windows(x, tx::make_dim(3, 3), tx::make_dim(2, 3));
  BOOST_TEST(strided.dims() == tx::make_dim(2, 3, 3, 3, 3));
  check_close(strided, reference(strided.dims(), [&](const tx::Dim<5>& i) {
                return double(hx[tx::make_dim(i[0], 2 * i[1] + i[3], 3 * i[2] + i[4])]);
              }));
  const auto one_d = tx::windows(x, tx::make_dim(4));
  BOOST_TEST(one_d.dims() == tx::make_dim(2, 7, 6, 4));
}

BOOST_AUTO_TEST_CASE(bad_windows_are_shape_errors) {
  auto rng = tx::testing::make_rng(1702);
  const auto x = random_array<float>(tx::make_dim(4, 5), rng);
  BOOST_CHECK_EXCEPTION(tx::windows(x, tx::make_dim(5, 2)), tx::ShapeError,
                        tx::testing::message_has({"(5, 2)", "(4, 5)"}));
  BOOST_CHECK_EXCEPTION(tx::windows(x, tx::make_dim(2, 2), tx::make_dim(1, 0)), tx::ShapeError,
                        tx::testing::message_has({"steps (1, 0)"}));
}

namespace {

// Tensor Comprehensions' gconv, O(n,g,f,h,w) = sum I(n,g,c,h+p,w+q) W(g,f,c,p,q), written as a
// labelled contraction over the windows of I and checked against its plain loops in double;
// returns the number of GEMMs it ran. With `weights_first` the product is written the other way
// round, and with `accumulate` it is added to a random result.
template <class T = double>
std::uint64_t check_grouped_convolution(index_t N, index_t G, index_t F, index_t C, index_t H,
                                        index_t W, unsigned seed, bool weights_first = false,
                                        bool accumulate = false) {
  auto rng = tx::testing::make_rng(seed);
  const auto in = random_array<T>(tx::make_dim(N, G, C, H, W), rng);
  const auto weights = random_array<T>(tx::make_dim(G, F, C, 3, 3), rng);
  auto out = random_array<T>(tx::make_dim(N, G, F, H - 2, W - 2), rng);
  const auto before = on_host(out);
  const auto gemms = tx::stats::gemms();
  const auto windows = tx::windows(in, tx::make_dim(3, 3))("n,g,c,h,w,p,q");
  if (weights_first && accumulate) {
    out("n,g,f,h,w") += weights("g,f,c,p,q") * windows;
  } else if (weights_first) {
    out("n,g,f,h,w") = weights("g,f,c,p,q") * windows;
  } else if (accumulate) {
    out("n,g,f,h,w") += windows * weights("g,f,c,p,q");
  } else {
    out("n,g,f,h,w") = windows * weights("g,f,c,p,q");
  }
  const auto ran = tx::stats::gemms() - gemms;
  const auto hi = on_host(in);
  const auto hw = on_host(weights);
  check_close(out,
              reference(tx::make_dim(N, G, F, H - 2, W - 2),
                        [&](const tx::Dim<5>& i) {
                          double sum = accumulate ? static_cast<double>(before[i]) : 0.0;
                          for (index_t c = 0; c < C; ++c) {
                            for (index_t p = 0; p < 3; ++p) {
                              for (index_t q = 0; q < 3; ++q) {
                                sum += static_cast<double>(
                                           hi[tx::make_dim(i[0], i[1], c, i[3] + p, i[4] + q)]) *
                                       static_cast<double>(hw[tx::make_dim(i[1], i[2], c, p, q)]);
                              }
                            }
                          }
                          return sum;
                        }),
              tx::testing::product_tolerance<T>(9 * C));
  return ran;
}

/// GEMMs a grouped convolution with few filters runs: one on the CPU (im2col and a GEMM), none on
/// a GPU, where one kernel reads the windows in place (labels/direct_contraction.h).
std::uint64_t gemms_of_a_few_filter_convolution() {
  return tx::is_gpu_place(tx::testing::test_place()) ? 0u : 1u;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_grouped_convolution_is_a_labelled_contraction) {
  BOOST_TEST(check_grouped_convolution(2, 3, 4, 2, 6, 7, 1703) ==
             gemms_of_a_few_filter_convolution());
}

BOOST_AUTO_TEST_CASE(either_order_of_the_factors_and_accumulation_give_the_convolution) {
  const auto expected = gemms_of_a_few_filter_convolution();
  BOOST_TEST(check_grouped_convolution(2, 3, 4, 2, 6, 7, 1705, true) == expected);
  BOOST_TEST(check_grouped_convolution(3, 2, 16, 3, 5, 9, 1706, false, true) == expected);
  BOOST_TEST(check_grouped_convolution(2, 2, 5, 4, 7, 6, 1707, true, true) == expected);
  BOOST_TEST(check_grouped_convolution<float>(2, 4, 3, 6, 8, 5, 1708) == expected);
  BOOST_TEST(check_grouped_convolution<tx::float16>(2, 2, 8, 3, 7, 7, 1709) == expected);
}

BOOST_AUTO_TEST_CASE(many_filters_keep_the_gemm_route_on_every_place) {
  // 17 filters a group: more columns than the direct kernel keeps in registers.
  BOOST_TEST(check_grouped_convolution<float>(2, 2, 17, 2, 6, 6, 1710) == 1u);
}

BOOST_AUTO_TEST_CASE(a_convolution_whose_im2col_outgrows_the_cache_runs_in_pieces) {
  // The window copy of every image at once is 4 * 5 * 22 * 21 * 6 * 9 doubles (4 MB): on the CPU
  // the contraction runs per image and group of images instead, each piece's copy cached, and its
  // result is the same. The last piece along each cut label is shorter (5 groups, 23 rows). A GPU
  // reads the windows in place with no GEMM (src/labels/gemm_pair.cpp), with the same result.
  const auto gemms = check_grouped_convolution(4, 5, 3, 6, 24, 23, 1704);
  if (tx::is_gpu_place(tx::testing::test_place())) {
    BOOST_TEST(gemms == 0u);
  } else {
    BOOST_TEST(gemms > 1u);
    BOOST_TEST(gemms <= 4u * 5u);
  }
}

BOOST_AUTO_TEST_SUITE_END()

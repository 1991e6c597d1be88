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
// returns the number of GEMMs it ran.
std::uint64_t check_grouped_convolution(index_t N, index_t G, index_t F, index_t C, index_t H,
                                        index_t W, unsigned seed) {
  auto rng = tx::testing::make_rng(seed);
  const auto in = random_array<double>(tx::make_dim(N, G, C, H, W), rng);
  const auto weights = random_array<double>(tx::make_dim(G, F, C, 3, 3), rng);
  tx::Array<double, 5> out;
  const auto gemms = tx::stats::gemms();
  out("n,g,f,h,w") = tx::windows(in, tx::make_dim(3, 3))("n,g,c,h,w,p,q") * weights("g,f,c,p,q");
  const auto ran = tx::stats::gemms() - gemms;
  const auto hi = on_host(in);
  const auto hw = on_host(weights);
  check_close(out,
              reference(tx::make_dim(N, G, F, H - 2, W - 2),
                        [&](const tx::Dim<5>& i) {
                          double sum = 0;
                          for (index_t c = 0; c < C; ++c) {
                            for (index_t p = 0; p < 3; ++p) {
                              for (index_t q = 0; q < 3; ++q) {
                                sum += hi[tx::make_dim(i[0], i[1], c, i[3] + p, i[4] + q)] *
                                       hw[tx::make_dim(i[1], i[2], c, p, q)];
                              }
                            }
                          }
                          return sum;
                        }),
              tx::testing::product_tolerance<double>(9 * C));
  return ran;
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_grouped_convolution_is_a_labelled_contraction) {
  BOOST_TEST(check_grouped_convolution(2, 3, 4, 2, 6, 7, 1703) == 1u);
}

BOOST_AUTO_TEST_CASE(a_convolution_whose_im2col_outgrows_the_cache_runs_in_pieces) {
  // The window copy of every image at once is 4 * 5 * 22 * 21 * 6 * 9 doubles (4 MB): on the CPU
  // the contraction runs per image and group of images instead, each piece's copy cached, and its
  // result is the same. The last piece along each cut label is shorter (5 groups, 23 rows). A GPU
  // takes the whole in one GEMM (src/labels/gemm_pair.cpp: a launch per piece costs more there
  // than the copy's traffic through its L2), with the same result.
  const auto gemms = check_grouped_convolution(4, 5, 3, 6, 24, 23, 1704);
  if (tx::is_gpu_place(tx::testing::test_place())) {
    BOOST_TEST(gemms == 1u);
  } else {
    BOOST_TEST(gemms > 1u);
    BOOST_TEST(gemms <= 4u * 5u);
  }
}

BOOST_AUTO_TEST_SUITE_END()

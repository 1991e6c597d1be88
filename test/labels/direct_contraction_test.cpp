// The direct contraction (tensorx/labels/direct_contraction.h), which GPUs run for a convolution's
// windows against few filters: which pairs plan as one, and its kernel's per-thread work run here
// on the host over planned contractions (every block's staging, then every row), against the
// convolutions' plain loops in double. The whole route runs on a GPU in test_cuda_labels
// (windows_test.cpp); this checks the planning and the index arithmetic without one.
#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <vector>

#include <tensorx/labels/direct_contraction.h>
#include <tensorx/tensorx.h>

#include "blas/dot_reference.h"
#include "support/random.h"
#include "support/reference.h"

namespace tx = tensorx;
using tx::index_t;
using tx::detail::DirectContraction;
using tx::detail::LabelledOperand;
using tx::detail::LabelTable;

namespace {

/// The operands of c(c_labels) = x(x_labels) * y(y_labels) as a labelled assignment reads them.
struct Pair {
  LabelTable table;
  tx::LabelList labels[3];
  LabelledOperand x, y, c;
  tx::detail::PairPlan plan;

  template <class T, int NX, int NY, int NC>
  Pair(const tx::Array<T, NX>& xa, const char* xl, const tx::Array<T, NY>& ya, const char* yl,
       const tx::Array<T, NC>& ca, const char* cl) {
    labels[0] = tx::parse_labels(xl);
    labels[1] = tx::parse_labels(yl);
    labels[2] = tx::parse_labels(cl);
    tx::detail::add_array(table, xa, labels[0], x);
    tx::detail::add_array(table, ya, labels[1], y);
    tx::detail::add_array(table, ca, labels[2], c);
    plan = tx::detail::plan_pair(table, x, y, c.mask, &c, true);
  }

  bool direct(DirectContraction& work) const {
    return tx::detail::plan_direct_contraction(plan, table, x, y, c, work);
  }
};

/// What the GPU kernel does, block by block and thread by thread, on host memory.
template <class C, class T>
void run_on_host(const DirectContraction& work, const Pair& pair) {
  constexpr int kColumns = tx::detail::kDirectMaxColumns;
  const T* long_data = static_cast<const T*>((work.long_is_x ? pair.x : pair.y).data(sizeof(T)));
  const T* short_data = static_cast<const T*>((work.long_is_x ? pair.y : pair.x).data(sizeof(T)));
  T* c_data = static_cast<T*>(pair.c.data(sizeof(T)));
  std::vector<C> staged(static_cast<std::size_t>(work.inner) * kColumns);
  for (std::uint32_t batch = 0; batch < work.batches; ++batch) {
    // Staged by three "threads" in turn, as a block shares it.
    for (int thread = 0; thread < 3; ++thread) {
      tx::detail::stage_direct_short<kColumns, C>(work, batch, short_data, staged.data(), thread,
                                                  3);
    }
    for (std::uint32_t row = 0; row < work.rows; ++row) {
      tx::detail::contract_direct_row<kColumns, C>(work, batch, row, long_data, staged.data(),
                                                   c_data);
    }
  }
}

/// O(n,g,f,h,w) = sum I(n,g,c,h+p,w+q) W(g,f,c,p,q) in double.
template <class T>
tx::Array<double, 5> convolution_reference(const tx::Array<T, 5>& in,
                                           const tx::Array<T, 5>& weights) {
  const index_t F = weights.dims()[1], C = weights.dims()[2];
  const auto dims = in.dims();
  return tx::testing::reference(
      tx::make_dim(dims[0], dims[1], F, dims[3] - 2, dims[4] - 2), [&](const tx::Dim<5>& i) {
        double sum = 0;
        for (index_t c = 0; c < C; ++c) {
          for (index_t p = 0; p < 3; ++p) {
            for (index_t q = 0; q < 3; ++q) {
              sum += static_cast<double>(in[tx::make_dim(i[0], i[1], c, i[3] + p, i[4] + q)]) *
                     static_cast<double>(weights[tx::make_dim(i[1], i[2], c, p, q)]);
            }
          }
        }
        return sum;
      });
}

template <class T, int N>
tx::Array<T, N> host_random(const tx::Dim<N>& dims, std::mt19937_64& rng) {
  tx::Array<T, N> a(dims);
  tx::testing::fill_random(a, rng);
  return a;
}

/// The grouped convolution (N, G, F, C, H, W) through the direct route on the host, weights
/// second or first, written or accumulated into `out` (a dense array or a view).
template <class C, class T>
void check_convolution(index_t N, index_t G, index_t F, index_t Ch, index_t H, index_t W,
                       bool weights_first, bool accumulate, unsigned seed) {
  BOOST_TEST_CONTEXT("(N, G, F, C, H, W) = (" << N << ", " << G << ", " << F << ", " << Ch << ", "
                                              << H << ", " << W << "), weights "
                                              << (weights_first ? "first" : "second")
                                              << (accumulate ? ", accumulated" : "")) {
    auto rng = tx::testing::make_rng(seed);
    const auto in = host_random<T>(tx::make_dim(N, G, Ch, H, W), rng);
    const auto weights = host_random<T>(tx::make_dim(G, F, Ch, index_t{3}, index_t{3}), rng);
    // The output as a view: its f and g axes swapped in memory.
    tx::Array<T, 5> storage(tx::make_dim(N, F, G, H - 2, W - 2));
    tx::testing::fill_random(storage, rng);
    const auto out = tx::permute(storage, tx::make_dim(0, 2, 1, 3, 4)).array();
    const auto before = tx::testing::on_host(out);
    const auto windows = tx::windows(in, tx::make_dim(3, 3));
    const Pair pair = weights_first
                          ? Pair(weights, "g,f,c,p,q", windows, "n,g,c,h,w,p,q", out, "n,g,f,h,w")
                          : Pair(windows, "n,g,c,h,w,p,q", weights, "g,f,c,p,q", out, "n,g,f,h,w");
    DirectContraction work;
    BOOST_TEST_REQUIRE(pair.direct(work));
    BOOST_TEST(work.long_is_x == !weights_first);
    BOOST_TEST(work.columns == F);
    BOOST_TEST(work.inner == Ch * 9);
    BOOST_TEST(work.rows == static_cast<std::uint32_t>(N * (H - 2) * (W - 2)));
    BOOST_TEST(work.batches == static_cast<std::uint32_t>(G));
    work.alpha = 0.5;
    work.beta = accumulate ? 1.0 : 0.0;
    run_on_host<C, T>(work, pair);
    const auto expected = convolution_reference(in, weights);
    tx::testing::check_close(
        out,
        tx::testing::reference(out.dims(),
                               [&](const tx::Dim<5>& i) {
                                 return 0.5 * expected[i] +
                                        (accumulate ? static_cast<double>(before[i]) : 0.0);
                               }),
        tx::testing::product_tolerance<T>(9 * Ch));
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(direct_contraction)

BOOST_AUTO_TEST_CASE(a_grouped_convolution_plans_and_computes_directly) {
  check_convolution<double, double>(2, 3, 4, 2, 6, 7, false, false, 1801);
  check_convolution<double, double>(3, 2, 16, 5, 5, 9, false, true, 1802);
  check_convolution<float, float>(2, 4, 3, 6, 8, 5, false, false, 1803);
  // Nine columns (a budget of 16, seven of them never written), 32 channels: 288 inner elements.
  check_convolution<float, float>(1, 2, 9, 32, 5, 6, false, true, 1804);
  check_convolution<float, tx::float16>(2, 2, 8, 3, 7, 7, false, false, 1805);
  // A single group: no batch labels. (A single filter is no GEMM: the reduction runs it.)
  check_convolution<double, double>(2, 1, 2, 3, 6, 6, false, false, 1806);
}

BOOST_AUTO_TEST_CASE(weights_first_make_the_windows_the_long_side) {
  check_convolution<double, double>(2, 3, 4, 2, 6, 7, true, false, 1811);
  check_convolution<float, float>(3, 2, 5, 4, 9, 6, true, true, 1812);
}

BOOST_AUTO_TEST_CASE(other_pairs_keep_the_gemm_route) {
  auto rng = tx::testing::make_rng(1821);
  DirectContraction work;
  // No overlapping view: a GEMM reads both in place or after a copy of their own size.
  const auto a = host_random<float>(tx::make_dim(40, 30), rng);
  const auto b = host_random<float>(tx::make_dim(30, 4), rng);
  tx::Array<float, 2> c(tx::make_dim(40, 4));
  BOOST_TEST(!Pair(a, "i,k", b, "k,j", c, "i,j").direct(work));
  // Windows, but 17 columns or 32 x 9 + 9 inner elements: more than the kernel keeps.
  const auto in = host_random<float>(tx::make_dim(2, 33, 6, 6), rng);
  const auto windows = tx::windows(in, tx::make_dim(3, 3));  // (2, 33, 4, 4, 3, 3)
  const auto many = host_random<float>(tx::make_dim(17, 33, 3, 3), rng);
  tx::Array<float, 4> wide(tx::make_dim(2, 17, 4, 4));
  BOOST_TEST(!Pair(windows, "n,c,h,w,p,q", many, "f,c,p,q", wide, "n,f,h,w").direct(work));
  const auto few = host_random<float>(tx::make_dim(4, 33, 3, 3), rng);
  tx::Array<float, 4> narrow(tx::make_dim(2, 4, 4, 4));
  BOOST_TEST(!Pair(windows, "n,c,h,w,p,q", few, "f,c,p,q", narrow, "n,f,h,w").direct(work));
  const auto in32 = host_random<float>(tx::make_dim(2, 32, 6, 6), rng);
  const auto windows32 = tx::windows(in32, tx::make_dim(3, 3));
  const auto few32 = host_random<float>(tx::make_dim(4, 32, 3, 3), rng);
  BOOST_TEST(Pair(windows32, "n,c,h,w,p,q", few32, "f,c,p,q", narrow, "n,f,h,w").direct(work));
  // A result in the buffer of an operand is left to the GEMM route's copies.
  tx::Array<float, 1> both(tx::make_dim(2 * 32 * 36 + 2 * 4 * 16));
  const tx::Array<float, 4> image(both.buffer(), tx::make_dim(2, 32, 6, 6),
                                  tx::make_dim(32 * 36, 36, 6, 1), 0);
  const tx::Array<float, 4> inside(both.buffer(), tx::make_dim(2, 4, 4, 4),
                                   tx::make_dim(64, 16, 4, 1), 2 * 32 * 36);
  BOOST_TEST(!Pair(tx::windows(image, tx::make_dim(3, 3)), "n,c,h,w,p,q", few32, "f,c,p,q", inside,
                   "n,f,h,w")
                  .direct(work));
}

BOOST_AUTO_TEST_SUITE_END()

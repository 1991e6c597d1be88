// The GPU row kernel's contiguous sweeps (reduce/contiguous_row.h), checked on the host: for the
// plans of real fused expressions, bound per row as the kernel binds them, the row read through
// contiguous_row_of gives the same values, bit for bit, as load_at and at at the row's start plus
// j, for the output's row and for every reduction's operand row, with a stashed part's row buffer
// and through nodes read by their own load_at (a generator); and reads_unit_rows says which plans
// may take that sweep (no leaf broadcast along its rows, none strided).
#include <boost/test/unit_test.hpp>

#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

#include <tensorx/reduce/contiguous_row.h>
#include <tensorx/tensorx.h>

#include "normalize/fused_plan_of.h"
#include "support/random.h"
#include "support/test_place.h"

namespace tx = tensorx;
namespace txd = tensorx::detail;
using tx::testing::random_array;
using tx::testing::with_plan_of;

namespace {

/// Binds every reduction to a value of its own (its slot's), as a team's reducer would bind the
/// one it computed: the values do not matter here, only that both readings see the same plan.
struct SlotValueReducer {
  template <class Op, class C, class OperandPlan, bool kExtraAxis, int M>
  txd::RowConstPlan<C> reduce(const txd::RowReducePlan<Op, C, OperandPlan, kExtraAxis>& plan,
                              const tx::Dim<M>&) {
    return {static_cast<C>(0.375 + plan.slot)};
  }
};

template <class C, int V>
bool same_bits(const txd::Lanes<C, V>& a, const txd::Lanes<C, V>& b) {
  return std::memcmp(&a, &b, sizeof(a)) == 0;
}

/// Checks, for the row of `length` elements of bound plan `bound` from `start` (its last
/// coordinate 0), that the contiguous row gives what at and load_at give: every element, and
/// every whole block of V. Returns the elements compared.
template <int V, class Bound, int M>
tx::index_t check_row(const Bound& bound, const tx::Dim<M>& start, tx::index_t length) {
  const auto row = txd::contiguous_row_of(bound, start);
  tx::index_t compared = 0;
  tx::Dim<M> index = start;
  for (tx::index_t j = 0; j < length; ++j) {
    index.at(M - 1) = j;
    const auto expected = bound.at(index);
    const auto got = row.flat(j);
    static_assert(std::is_same_v<decltype(expected), decltype(got)>, "the same compute type");
    BOOST_TEST_CONTEXT("element " << j) {
      BOOST_TEST(std::memcmp(&expected, &got, sizeof(got)) == 0);
    }
    ++compared;
  }
  for (tx::index_t j = 0; j + V <= length; j += V) {
    index.at(M - 1) = j;
    BOOST_TEST_CONTEXT("block at " << j) {
      BOOST_TEST(same_bits(txd::load_of<V>(row, j), txd::load_at_of<V>(bound, index)));
    }
  }
  return compared;
}

/// check_row for the operand row of every reduction in `plan` at enclosing index `index`, and for
/// the reductions inside their operands at their rows' starts. Returns the elements compared.
template <int V, class Plan, int M>
tx::index_t check_reductions(const Plan& plan, const tx::Dim<M>& index) {
  tx::index_t compared = 0;
  txd::for_each_top_reduction(plan, [&](const auto& reduction) {
    const auto start = reduction.row_start(index);
    SlotValueReducer reducer;
    const auto& operand = txd::bind_rows(reduction.operand, start, reducer);
    compared += check_row<V>(operand, start, reduction.length);
    compared += check_reductions<V>(reduction.operand, start);
  });
  return compared;
}

/// The row starts of `rows` items of the enclosing space `extent` (its last axis 1).
template <int N>
std::vector<tx::Dim<N>> item_starts(const tx::Dim<N>& extent) {
  std::vector<tx::Dim<N>> starts;
  for (tx::index_t item = 0; item < tx::product(extent); ++item) {
    starts.push_back(tx::delinearize(item, extent));
  }
  return starts;
}

/// For `dst = e`: reads_unit_rows must say `unit`; where it says so, every item's output row and
/// every reduction's operand row read through their contiguous rows give what the kernel's
/// element reads give, with the stash's row buffer where the plan has one. Returns the elements
/// compared.
template <int V, class E, class T, int N>
tx::index_t check_plan(const E& e, const tx::Array<T, N>& dst, bool unit) {
  tx::index_t compared = 0;
  with_plan_of(e, dst, [&](auto& plan, tx::index_t row_length) {
    using Plan = std::decay_t<decltype(plan)>;
    BOOST_TEST_REQUIRE(txd::reads_unit_rows<N>(plan) == unit);
    if (!unit) return;
    tx::Dim<N> extent = dst.dims();
    if (row_length > 0) extent.at(N - 1) = 1;
    for (const tx::Dim<N>& start : item_starts(extent)) {
      compared += check_reductions<V>(plan, start);
      if (row_length == 0) continue;
      SlotValueReducer reducer;
      compared += check_row<V>(txd::bind_rows(plan, start, reducer), start, row_length);
      using Part = txd::stash_part_t<Plan>;
      if constexpr (!std::is_void_v<Part>) {
        using P = typename Part::result_type;
        std::vector<P> buffer(static_cast<std::size_t>(row_length) + V);
        for (std::size_t k = 0; k < buffer.size(); ++k) buffer[k] = static_cast<P>(0.25 * k);
        // Aligned as the kernel's buffer in shared memory is.
        const auto* aligned =
            buffer.data() +
            (16 - reinterpret_cast<std::uintptr_t>(buffer.data()) % 16) % 16 / sizeof(P);
        const auto output = txd::with_buffer<Part>(plan, aligned);
        compared += check_row<V>(txd::bind_rows(output, start, reducer), start, row_length);
      }
    }
  });
  return compared;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(contiguous_row)

BOOST_AUTO_TEST_CASE(the_library_normalisations_read_the_same_values) {
  auto rng = tx::testing::make_rng(161);
  const tx::index_t length = 96;
  const auto dims = tx::make_dim(3, length);
  const auto x = random_array<float>(dims, rng, -4.0, 4.0);
  const auto gamma = random_array<float>(tx::make_dim(length), rng, 0.5, 1.5);
  const auto beta = random_array<float>(tx::make_dim(length), rng);
  tx::Array<float, 2> y(dims);
  tx::Array<float, 1> per_row(tx::make_dim(3));
  BOOST_TEST(check_plan<4>(tx::softmax<1>(x), y, true) > 0);
  BOOST_TEST(check_plan<4>(tx::log_softmax<1>(x), y, true) > 0);
  BOOST_TEST(check_plan<4>(tx::layer_norm<1>(x, gamma, beta, 1e-5), y, true) > 0);
  BOOST_TEST(check_plan<4>(tx::rms_norm<1>(x, gamma, 1e-6), y, true) > 0);
  BOOST_TEST(check_plan<4>(tx::logsumexp<1>(x), per_row, true) > 0);
}

BOOST_AUTO_TEST_CASE(narrow_rows_rank_3_and_a_generator_read_the_same_values) {
  auto rng = tx::testing::make_rng(162);
  const auto dims = tx::make_dim(2, 3, 40);
  const auto b = random_array<tx::bfloat16>(dims, rng, -4.0, 4.0);
  const auto h = random_array<tx::float16>(dims, rng, -4.0, 4.0);
  const auto x = random_array<float>(dims, rng);
  tx::Array<tx::bfloat16, 3> yb(dims);
  tx::Array<tx::float16, 3> yh(dims);
  tx::Array<float, 3> y(dims);
  BOOST_TEST(check_plan<8>(tx::softmax<2>(b), yb, true) > 0);
  BOOST_TEST(check_plan<8>(tx::log_softmax<2>(h), yh, true) > 0);
  // A node whose elements are not in memory is read through its own load_at.
  const auto k = tx::keepdims;
  BOOST_TEST(check_plan<4>(x * tx::uniform<float>(dims, 7) - tx::max<2>(x, k), y, true) > 0);
}

BOOST_AUTO_TEST_CASE(broadcast_and_strided_rows_keep_the_strided_sweep) {
  auto rng = tx::testing::make_rng(163);
  const auto dims = tx::make_dim(8, 8);
  const auto x = random_array<float>(dims, rng);
  const auto column = random_array<float>(tx::make_dim(8, 1), rng);
  const auto row = random_array<float>(tx::make_dim(8), rng);
  tx::Array<float, 2> y(dims);
  const auto k = tx::keepdims;
  // A column broadcast along the rows, in a reduction and in the output.
  check_plan<4>(x - tx::sum<1>(tx::broadcast_to(column, dims), k), y, false);
  check_plan<4>(x * column - tx::max<1>(x, k), y, false);
  // A transposed operand reads its rows with stride 8.
  check_plan<4>(tx::softmax<1>(tx::transpose(x)), y, false);
  // A vector broadcast along the other axis reads its one row with unit stride.
  BOOST_TEST(check_plan<4>(x * row - tx::max<1>(x * row, k), y, true) > 0);
}

BOOST_AUTO_TEST_SUITE_END()

// Where a GPU team stages the rows of a fused pass (reduce/row_staging.h), decided on the host and
// checked here without a GPU: for the plans of real expressions, each layout is checked against
// rules derived from the plan's leaves alone (every row a reduction reads staged once, at its own
// 16-byte aligned place; leaves reading the same row pointed at it; broadcast rows and rows only
// the output reads left in global memory), and its sizes against numbers worked out by hand; and
// when rows are cut into slices over the blocks of a cluster, and how (row_slice,
// choose_row_staging).
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bitset>
#include <cstdint>
#include <random>
#include <vector>

#include <tensorx/reduce/row_staging.h>
#include <tensorx/tensorx.h>

#include "normalize/fused_plan_of.h"
#include "support/random.h"
#include "support/test_place.h"

namespace tx = tensorx;
namespace txd = tensorx::detail;

namespace {

/// One array leaf of a fused plan, as for_each_row_leaf visits it.
struct LeafRow {
  const void* data;
  std::vector<tx::index_t> strides;
  tx::index_t length;
  std::size_t element_size;
  bool in_reduction;

  bool reads_same_row(const LeafRow& other) const {
    return data == other.data && strides == other.strides && length == other.length;
  }
  /// A row the team has to copy to shared memory: read by a reduction, along the row.
  bool staged_by_rule() const { return in_reduction && length > 0 && strides.back() != 0; }
};

struct LeafRecorder {
  std::vector<LeafRow> leaves;

  template <class T, int M>
  void operator()(txd::LeafPlan<T, M>& leaf, const tx::Dim<M>&, tx::index_t length,
                  bool in_reduction) {
    std::vector<tx::index_t> strides(M);
    for (int d = 0; d < M; ++d) strides[d] = leaf.strides.at(d);
    leaves.push_back({leaf.data, strides, length, sizeof(T), in_reduction});
  }
};

/// The layout of the fused pass that `dst = e` runs, the leaves of its plan, and the row buffer
/// it asks for to stash a part that the output and a reduction share.
struct Staging {
  txd::StagingLayout layout;
  std::vector<LeafRow> leaves;
  txd::StashRequest stash;
};

/// The staging of `dst = e`, its rows cut into slices of `slice_length` where that is above 0.
template <class E, class T, int N>
Staging staging_of(const E& e, const tx::Array<T, N>& dst, tx::index_t slice_length = 0) {
  Staging out;
  tx::testing::with_plan_of(e, dst, [&](auto& plan, tx::index_t row_length) {
    out.layout = txd::staging_layout<N>(plan, row_length, slice_length);
    out.stash = txd::stash_request(plan, row_length, slice_length);
    LeafRecorder recorder;
    txd::for_each_row_leaf<false>(plan, tx::Dim<N>(), row_length, recorder);
    out.leaves = recorder.leaves;
  });
  return out;
}

/// How `dst = e` over dst's rows stages them within `limits` (choose_row_staging).
template <class E, class T, int N>
txd::RowStaging chosen_staging(const E& e, const tx::Array<T, N>& dst,
                               const txd::StagingLimits& limits) {
  txd::RowStaging out{};
  tx::testing::with_plan_of(e, dst, [&](auto& plan, tx::index_t row_length) {
    const tx::index_t items = row_length > 0 ? dst.numel() / row_length : dst.numel();
    out = txd::choose_row_staging<N>(plan, row_length, items, limits);
  });
  return out;
}

/// The limits of an H100 or H200 for a block team: a budget of 200 KiB a block, a third of a
/// multiprocessor's 228 KiB less the runtime's 1 KiB and the kernel's own 1 KiB, clusters of up to
/// 16 blocks; `spread_to` as StagingLimits says.
txd::StagingLimits hopper_limits(tx::index_t spread_to = 0) {
  return {200 * 1024, 228 * 1024 / 3 - 2048, 16, spread_to};
}

/// Checks the layout against the rules, for plans of at most kMaxStagedLeaves leaves and
/// kMaxStagedRows distinct staged rows (where nothing is left out for want of room).
void check_rules(const Staging& s) {
  const auto& layout = s.layout;
  BOOST_TEST_REQUIRE(s.leaves.size() <= static_cast<std::size_t>(txd::kMaxStagedLeaves));
  std::size_t expected_bytes = 0;
  for (std::size_t k = 0; k < s.leaves.size(); ++k) {
    BOOST_TEST_CONTEXT("leaf " << k) {
      const LeafRow& leaf = s.leaves[k];
      const bool copies = ((layout.copies >> k) & 1u) != 0;
      // The first leaf, in visiting order, that a reduction reads the row through copies it.
      std::size_t first_reduced = s.leaves.size();
      for (std::size_t j = 0; j < s.leaves.size(); ++j) {
        if (s.leaves[j].staged_by_rule() && s.leaves[j].reads_same_row(leaf)) {
          first_reduced = std::min(first_reduced, j);
        }
      }
      const bool staged =
          first_reduced < s.leaves.size() && leaf.length > 0 && leaf.strides.back() != 0;
      BOOST_TEST(copies == (staged && first_reduced == k));
      if (!staged) {
        BOOST_TEST(layout.offsets[k] == -1);
        continue;
      }
      BOOST_TEST(layout.offsets[k] == layout.offsets[first_reduced]);
      BOOST_TEST(layout.offsets[k] % 16 == 0);
      const std::size_t row_bytes = (leaf.length * leaf.element_size + 15) / 16 * 16;
      BOOST_TEST(layout.offsets[k] + row_bytes <= layout.bytes);
      if (copies) expected_bytes += row_bytes;
      // No two distinct rows overlap.
      for (std::size_t j = 0; j < s.leaves.size(); ++j) {
        if (j == k || ((layout.copies >> j) & 1u) == 0 || s.leaves[j].reads_same_row(leaf)) {
          continue;
        }
        const std::size_t other_bytes =
            (s.leaves[j].length * s.leaves[j].element_size + 15) / 16 * 16;
        const std::size_t a = layout.offsets[k], b = layout.offsets[j];
        BOOST_TEST((a + row_bytes <= b || b + other_bytes <= a), "rows " << k << " and " << j);
      }
    }
  }
  BOOST_TEST(layout.bytes == expected_bytes);
  for (std::size_t k = s.leaves.size(); k < static_cast<std::size_t>(txd::kMaxStagedLeaves); ++k) {
    BOOST_TEST(layout.offsets[k] == -1);
  }
}

std::size_t copied_rows(const txd::StagingLayout& layout) {
  return std::bitset<32>(layout.copies).count();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(normalize_row_staging)

BOOST_AUTO_TEST_CASE(softmax_and_layer_norm_stage_their_one_input_row_once) {
  auto rng = tx::testing::make_rng(151);
  const auto x = tx::testing::random_array<float>(tx::make_dim(5, 1000), rng);
  const auto gamma = tx::testing::random_array<float>(tx::make_dim(1000), rng);
  const auto beta = tx::testing::random_array<float>(tx::make_dim(1000), rng);
  tx::Array<float, 2> y(x.dims());
  const Staging softmax = staging_of(tx::softmax<1>(x), y);
  check_rules(softmax);
  BOOST_TEST(copied_rows(softmax.layout) == 1u);
  BOOST_TEST(softmax.layout.bytes == 4000u);
  // The output's own read of x is pointed at the copy too: every leaf reads row 0 of the share.
  for (std::size_t k = 0; k < softmax.leaves.size(); ++k) {
    BOOST_TEST(softmax.layout.offsets[k] == 0);
  }
  const Staging norm = staging_of(tx::layer_norm<1>(x, gamma, beta, 1e-5), y);
  check_rules(norm);
  BOOST_TEST(copied_rows(norm.layout) == 1u);
  BOOST_TEST(norm.layout.bytes == 4000u);
  // gamma and beta: rows only the output reads stay in global memory.
  const auto gamma_leaves = std::count_if(norm.leaves.begin(), norm.leaves.end(),
                                          [&](const LeafRow& l) { return l.data == gamma.data(); });
  BOOST_TEST(gamma_leaves == 1);
}

BOOST_AUTO_TEST_CASE(distinct_rows_get_their_own_aligned_places) {
  auto rng = tx::testing::make_rng(152);
  const auto x = tx::testing::random_array<float>(tx::make_dim(3, 1000), rng);
  const auto y = tx::testing::random_array<float>(tx::make_dim(3, 1000), rng);
  const auto short_rows = tx::testing::random_array<float>(tx::make_dim(3, 7), rng);
  const auto column = tx::testing::random_array<float>(tx::make_dim(3, 1), rng);
  const auto h = tx::testing::random_array<tx::float16>(tx::make_dim(3, 1000), rng);
  tx::Array<float, 2> z(x.dims());
  const auto k = tx::keepdims;
  // x, y and the rows of 7 (28 bytes, padded to 32) are three rows; the column broadcasts along
  // the row and is read from global memory.
  const Staging three =
      staging_of(tx::exp(x - tx::max<1>(x, k)) / tx::sum<1>(tx::exp(y - tx::max<1>(y, k)), k) +
                     tx::sum<1>(short_rows * column, k),
                 z);
  check_rules(three);
  BOOST_TEST(copied_rows(three.layout) == 3u);
  BOOST_TEST(three.layout.bytes == 4000u + 4000u + 32u);
  // A float16 row takes 2000 bytes; x transposed reads a row of stride 3, staged all the same.
  tx::Array<float, 2> t(tx::make_dim(1000, 3));
  tx::Array<tx::float16, 2> hz(h.dims());
  const Staging narrow = staging_of(h - tx::mean<1>(h, k), hz);
  check_rules(narrow);
  BOOST_TEST(narrow.layout.bytes == 2000u);
  const auto xt = tx::transpose(t);
  const Staging strided = staging_of(x * tx::sum<1>(xt, k), z);
  check_rules(strided);
  BOOST_TEST(copied_rows(strided.layout) == 1u);
  BOOST_TEST(strided.leaves.back().strides.back() == 3);
}

BOOST_AUTO_TEST_CASE(rows_and_leaves_beyond_the_limits_read_global_memory) {
  auto rng = tx::testing::make_rng(153);
  std::vector<tx::Array<float, 2>> a;
  for (int i = 0; i < 9; ++i) {
    a.push_back(tx::testing::random_array<float>(tx::make_dim(2, 40), rng));
  }
  tx::Array<float, 2> z(tx::make_dim(2, 40));
  const auto k = tx::keepdims;
  // Nine distinct rows: the first kMaxStagedRows are staged, in visiting order.
  const Staging nine =
      staging_of(tx::sum<1>(a[0], k) + tx::sum<1>(a[1], k) + tx::sum<1>(a[2], k) +
                     tx::sum<1>(a[3], k) + tx::sum<1>(a[4], k) + tx::sum<1>(a[5], k) +
                     tx::sum<1>(a[6], k) + tx::sum<1>(a[7], k) + tx::sum<1>(a[8], k),
                 z);
  BOOST_TEST_REQUIRE(nine.leaves.size() == 9u);
  BOOST_TEST(copied_rows(nine.layout) == static_cast<std::size_t>(txd::kMaxStagedRows));
  for (int i = 0; i < txd::kMaxStagedRows; ++i) BOOST_TEST(nine.layout.offsets[i] == i * 160);
  BOOST_TEST(nine.layout.offsets[8] == -1);
  BOOST_TEST(nine.layout.bytes == 8u * 160u);
  // Twenty leaves of one array: the sixteen first point at the one copy, the others read global
  // memory.
  const auto& x = a[0];
  const Staging many =
      staging_of(x - (tx::max<1>(x, k) + tx::min<1>(x, k) + tx::sum<1>(x, k) + tx::mean<1>(x, k) +
                      tx::max<1>(x * 2.0f, k) + tx::min<1>(x * 2.0f, k) + tx::sum<1>(x * 3.0f, k) +
                      tx::mean<1>(x * 3.0f, k) + tx::max<1>(x + 1.0f, k) + tx::min<1>(x + 1.0f, k) +
                      tx::sum<1>(x + 1.0f, k) + tx::mean<1>(x + 1.0f, k) + tx::max<1>(x - 1.0f, k) +
                      tx::min<1>(x - 1.0f, k) + tx::sum<1>(x - 1.0f, k) + tx::mean<1>(x - 1.0f, k) +
                      tx::max<1>(x, k) + tx::sum<1>(x * 3.0f, k) + tx::min<1>(x + 1.0f, k)),
                 z);
  BOOST_TEST_REQUIRE(many.leaves.size() == 20u);
  BOOST_TEST(copied_rows(many.layout) == 1u);
  for (int i = 0; i < txd::kMaxStagedLeaves; ++i) BOOST_TEST(many.layout.offsets[i] == 0);
  BOOST_TEST(many.layout.bytes == 160u);
}

BOOST_AUTO_TEST_CASE(a_per_row_pass_stages_the_rows_its_reductions_read) {
  auto rng = tx::testing::make_rng(154);
  const auto x = tx::testing::random_array<float>(tx::make_dim(4, 33), rng);
  tx::Array<float, 1> s(tx::make_dim(4));
  const Staging lse = staging_of(tx::logsumexp<1>(x), s);
  check_rules(lse);
  BOOST_TEST(copied_rows(lse.layout) == 1u);
  BOOST_TEST(lse.layout.bytes == 144u);  // 33 floats, 132 bytes, padded to 144
  // A destination without rows: nothing to stage for an empty reduction's leaves either.
  const auto empty = tx::testing::random_array<float>(tx::make_dim(4, 0), rng);
  tx::Array<float, 2> e(tx::make_dim(4, 0));
  const Staging none = staging_of(empty * tx::sum<1>(empty, tx::keepdims), e);
  BOOST_TEST(none.layout.bytes == 0u);
  BOOST_TEST(none.layout.copies == 0u);
}

BOOST_AUTO_TEST_CASE(a_part_the_output_and_a_reduction_share_is_stashed_where_it_can_be) {
  auto rng = tx::testing::make_rng(155);
  const auto x = tx::testing::random_array<float>(tx::make_dim(3, 1000), rng);
  const auto y = tx::testing::random_array<float>(tx::make_dim(3, 1000), rng);
  const auto h = tx::testing::random_array<tx::bfloat16>(tx::make_dim(3, 1000), rng);
  const auto short_rows = tx::testing::random_array<float>(tx::make_dim(3, 7), rng);
  tx::Array<float, 2> z(x.dims());
  tx::Array<tx::bfloat16, 2> hz(h.dims());
  const auto k = tx::keepdims;
  // softmax: exp(x - max) is the sum's operand and the output's; the sum fills the buffer. Its slot
  // is 2: the output's max is numbered first (slot 0), then the equal max inside the sum's operand
  // (no slot of its own: it takes slot 0's value), then the sum.
  const Staging softmax = staging_of(tx::softmax<1>(x), z);
  BOOST_TEST(softmax.stash.bytes == 4000u);
  BOOST_TEST(softmax.stash.slot == 2);
  // The buffer holds the part's values as the output reads them, in the compute type: bfloat16's
  // exp(h - max) is kept in float, 4000 bytes a row, not rounded to bfloat16 on the way.
  const Staging narrow = staging_of(tx::softmax<1>(h), hz);
  BOOST_TEST(narrow.stash.bytes == 4000u);
  // The same part twice in the output still reads one buffer.
  const auto part = tx::exp(x - tx::max<1>(x, k));
  const Staging twice = staging_of(part * part / tx::sum<1>(part, k), z);
  BOOST_TEST(twice.stash.bytes == 4000u);
  // No stash: the output's exp(x - max(x)) is not the sum's exp(y - max(y)) (the same type, other
  // arrays); the sum's rows are not the output's; there is no part in common.
  const Staging other = staging_of(part / tx::sum<1>(tx::exp(y - tx::max<1>(y, k)), k), z);
  BOOST_TEST(other.stash.bytes == 0u);
  BOOST_TEST(other.stash.slot == -1);
  const Staging shorter =
      staging_of(part / tx::sum<1>(tx::exp(short_rows - tx::max<1>(short_rows, k)), k), z);
  BOOST_TEST(shorter.stash.bytes == 0u);
  const Staging none = staging_of(tx::layer_norm<1>(x, x, x, 1e-5), z);
  BOOST_TEST(none.stash.bytes == 0u);
  // The layout adds the buffer after the staged rows.
  const txd::StagingLayout with =
      txd::with_stash(softmax.layout, softmax.stash.bytes, softmax.stash.slot);
  BOOST_TEST(with.stash_offset == static_cast<std::int32_t>(softmax.layout.bytes));
  BOOST_TEST(with.bytes == softmax.layout.bytes + 4000u);
  BOOST_TEST(with.stash_slot == softmax.stash.slot);
  BOOST_TEST(softmax.layout.stash_offset == -1);
}

BOOST_AUTO_TEST_CASE(the_slices_of_a_row_cover_it_once_in_aligned_consecutive_pieces) {
  auto rng = tx::testing::make_rng(156);
  std::uniform_int_distribution<tx::index_t> lengths(0, 300000);
  for (int trial = 0; trial < 200; ++trial) {
    const tx::index_t longest = trial < 4 ? trial : lengths(rng);
    const int blocks = 2 + trial % 15;
    const tx::index_t slice = txd::row_slice_length(longest, blocks);
    BOOST_TEST_CONTEXT("longest " << longest << ", " << blocks << " blocks") {
      // The shortest multiple of the quantum whose `blocks` slices hold the longest row.
      BOOST_TEST(slice % txd::kRowSliceQuantum == 0);
      BOOST_TEST(slice * blocks >= longest);
      BOOST_TEST((slice == 0 || (slice - txd::kRowSliceQuantum) * blocks < longest));
      // Every row of the pass, the longest and shorter ones, is covered once, in rank order.
      for (const tx::index_t length : {longest, longest / 3, tx::index_t{1}}) {
        if (length > longest) continue;
        tx::index_t next = 0;
        for (int rank = 0; rank < blocks; ++rank) {
          const txd::RowSlice piece = txd::row_slice(length, slice, rank);
          // Every slice begins at a multiple of the quantum, an empty one past the row's end.
          BOOST_TEST(piece.begin % txd::kRowSliceQuantum == 0);
          BOOST_TEST(piece.end - piece.begin <= slice);
          if (piece.begin < length) {
            BOOST_TEST(piece.begin == next);
            BOOST_TEST(piece.begin < piece.end);
            BOOST_TEST(piece.end <= length);
            next = piece.end;
          } else {
            BOOST_TEST(piece.end == piece.begin);
          }
        }
        BOOST_TEST(next == length);
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(a_block_of_a_cluster_stages_its_slice_of_each_row) {
  auto rng = tx::testing::make_rng(157);
  const auto x = tx::testing::random_array<float>(tx::make_dim(3, 1000), rng);
  const auto short_rows = tx::testing::random_array<float>(tx::make_dim(3, 7), rng);
  tx::Array<float, 2> z(x.dims());
  const auto k = tx::keepdims;
  // Slices of 256 elements: a block stages 256 floats of x (1024 bytes), and softmax's buffer
  // holds the block's 256 values.
  const Staging sliced = staging_of(tx::softmax<1>(x), z, 256);
  BOOST_TEST(copied_rows(sliced.layout) == 1u);
  BOOST_TEST(sliced.layout.bytes == 1024u);
  BOOST_TEST(sliced.stash.bytes == 1024u);
  // Rows shorter than a slice are staged whole: the 7 floats of the short rows, padded to 32.
  const Staging two = staging_of(tx::sum<1>(x, k) + tx::sum<1>(short_rows, k), z, 256);
  BOOST_TEST(copied_rows(two.layout) == 2u);
  BOOST_TEST(two.layout.bytes == 1024u + 32u);
  // A slice longer than the rows stages them whole.
  const Staging whole = staging_of(tx::softmax<1>(x), z, 4096);
  BOOST_TEST(whole.layout.bytes == 4000u);
  BOOST_TEST(whole.stash.bytes == 4000u);
}

BOOST_AUTO_TEST_CASE(rows_that_outgrow_a_third_of_a_multiprocessor_are_cut_over_a_cluster) {
  auto rng = tx::testing::make_rng(158);
  const auto k = tx::keepdims;
  // Rows of 8192 floats: 32 KiB staged and 32 KiB of stash fit a third of a multiprocessor:
  // a block per row, as before clusters.
  {
    const auto x = tx::testing::random_array<float>(tx::make_dim(4, 8192), rng);
    tx::Array<float, 2> y(x.dims());
    const txd::RowStaging s = chosen_staging(tx::softmax<1>(x), y, hopper_limits());
    BOOST_TEST(s.blocks == 1);
    BOOST_TEST(s.slice_length == 0);
    BOOST_TEST(s.layout.bytes == 65536u);
    BOOST_TEST(s.layout.stash_offset == 32768);
  }
  // Rows of 16384 floats: 128 KiB a block with the stash; two blocks of 64 KiB each.
  {
    const auto x = tx::testing::random_array<float>(tx::make_dim(4, 16384), rng);
    tx::Array<float, 2> y(x.dims());
    const txd::RowStaging s = chosen_staging(tx::softmax<1>(x), y, hopper_limits());
    BOOST_TEST(s.blocks == 2);
    BOOST_TEST(s.slice_length == 8192);
    BOOST_TEST(s.layout.bytes == 65536u);
    BOOST_TEST(s.layout.stash_offset == 32768);
    // Without clusters (a device before compute capability 9.0): the block stages it whole.
    txd::StagingLimits none = hopper_limits();
    none.max_blocks = 1;
    const txd::RowStaging alone = chosen_staging(tx::softmax<1>(x), y, none);
    BOOST_TEST(alone.blocks == 1);
    BOOST_TEST(alone.layout.bytes == 131072u);
  }
  // Rows of 262144 floats: with the stash no 16 blocks hold them (128 KiB each), without it 14
  // (slices of 18736 floats, 74944 bytes; 13 would take 80704).
  {
    const auto x = tx::testing::random_array<float>(tx::make_dim(2, 262144), rng);
    tx::Array<float, 2> y(x.dims());
    const txd::RowStaging s = chosen_staging(tx::softmax<1>(x), y, hopper_limits());
    BOOST_TEST(s.blocks == 14);
    BOOST_TEST(s.slice_length == 18736);
    BOOST_TEST(s.layout.bytes == 74944u);
    BOOST_TEST(s.layout.stash_offset == -1);
    // layer_norm has no stash: its one staged row, the same way.
    const auto g = tx::testing::random_array<float>(tx::make_dim(262144), rng);
    const txd::RowStaging norm =
        chosen_staging(tx::layer_norm<1>(x, g, g, 1e-5f), y, hopper_limits());
    BOOST_TEST(norm.blocks == 14);
    BOOST_TEST(norm.layout.bytes == 74944u);
  }
  // Two rows of 100000 floats would leave most of 132 multiprocessors idle: as many blocks as
  // there may be (16), each a slice of 6256 floats staged with its stash, 2 x 25024 bytes.
  {
    const auto x = tx::testing::random_array<float>(tx::make_dim(2, 100000), rng);
    tx::Array<float, 2> y(x.dims());
    const txd::RowStaging s = chosen_staging(tx::softmax<1>(x), y, hopper_limits(132));
    BOOST_TEST(s.blocks == 16);
    BOOST_TEST(s.slice_length == 6256);
    BOOST_TEST(s.layout.bytes == 2u * 25024u);
    // With enough rows to fill the device, rows of 100000 take 11 blocks (with the stash).
    const txd::RowStaging many = chosen_staging(tx::softmax<1>(x), y, hopper_limits());
    BOOST_TEST(many.blocks == 11);
  }
  // A per-row pass (logsumexp: a value per row), its rows of 50000 floats in three blocks.
  {
    const auto x = tx::testing::random_array<float>(tx::make_dim(3, 50000), rng);
    tx::Array<float, 1> s(tx::make_dim(3));
    const txd::RowStaging lse = chosen_staging(tx::logsumexp<1>(x), s, hopper_limits());
    BOOST_TEST(lse.blocks == 3);
    BOOST_TEST(lse.layout.bytes == 66688u);  // 16672 floats
  }
  // Rows that nothing stages (the reductions read a broadcast column) are not cut.
  {
    const auto column = tx::testing::random_array<float>(tx::make_dim(3, 1), rng);
    const auto x = tx::testing::random_array<float>(tx::make_dim(3, 60000), rng);
    tx::Array<float, 2> y(x.dims());
    const auto wide = tx::broadcast_to(column, x.dims());
    const txd::RowStaging s = chosen_staging(x - tx::max<1>(wide, k), y, hopper_limits(132));
    BOOST_TEST(s.blocks == 1);
    BOOST_TEST(s.layout.bytes == 0u);
  }
}

BOOST_AUTO_TEST_SUITE_END()

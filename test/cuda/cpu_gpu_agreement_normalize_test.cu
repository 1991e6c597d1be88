// The CPU and the GPU agree on every row-local pass (reduce/row_fusion.h): the library
// normalisations, cross_entropy (its rows' losses and their mean in one kernel) and a
// user-written softmax and layer norm, on row lengths that take each GPU
// mode (a warp per row, a block per row with rows staged in shared memory or read from global
// memory, the blocks of a cluster per row, the materialising route), every mode also forced on
// small shapes (clusters of 2, 3 and 16 blocks, slices left empty among them); and the GPU
// repeats its own results bit for bit. Clusters need compute capability 9.0: on an older device
// the cluster cases run a block per row. Sums differ between the engines by their summation orders
// only: a few units of roundoff per level of a tree over the row, relative to the result's
// magnitude (softmax's outputs and the normalised values are of order 1).
#include <cmath>
#include <cstdint>
#include <random>
#include <string>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "cuda/cpu_gpu_agreement_reduce.h"
#include "support/cuda_test.h"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::agreement::check_against_cpu;
using tx::testing::agreement::check_build;
using tx::testing::agreement::mirror_on_gpu;
using tx::testing::agreement::random_array;
using tx::testing::agreement::Tolerance;

namespace {

using Mode = tx::detail::RowGpuMode;

/// Forces a GPU mode (and for kCluster the cluster's blocks) for the scope of a case, and restores
/// the defaults.
struct ForcedMode {
  explicit ForcedMode(Mode mode, int cluster_blocks = 4) {
    tx::detail::forced_row_gpu_mode = mode;
    tx::detail::forced_cluster_blocks = cluster_blocks;
  }
  ~ForcedMode() {
    tx::detail::forced_row_gpu_mode = Mode::kAuto;
    tx::detail::forced_cluster_blocks = 4;
  }
  ForcedMode(const ForcedMode&) = delete;
  ForcedMode& operator=(const ForcedMode&) = delete;
};

const char* mode_name(Mode mode) {
  switch (mode) {
    case Mode::kAuto:
      return "auto";
    case Mode::kWarp:
      return "warp";
    case Mode::kBlock:
      return "block";
    case Mode::kBlockGlobal:
      return "block, global";
    case Mode::kMaterialising:
      return "materialising";
    case Mode::kCluster:
      return "cluster";
  }
  return "?";
}

/// Roundoff allowed for a row of `length`: a few units per level of a summation tree.
template <class T>
Tolerance normalisation_tolerance(index_t length) {
  const double levels = std::log2(static_cast<double>(length) + 2.0);
  return {8.0 + 4.0 * levels, 1.0};
}

/// Every normalisation of x (rows, length) on the CPU and the GPU, compared (with kCluster,
/// `cluster_blocks` blocks to a row).
template <class T>
void check_normalisations(const tx::Dim<2>& dims, Mode mode, std::mt19937_64& rng,
                          int cluster_blocks = 4) {
  const ForcedMode forced(mode, cluster_blocks);
  std::string shape = tx::testing::agreement::shape_name(dims) + " (" + mode_name(mode);
  if (mode == Mode::kCluster) shape += " of " + std::to_string(cluster_blocks);
  shape += ")";
  const auto x = random_array<T>(dims, rng, -4, 4);
  const auto gamma = random_array<T>(tx::make_dim(dims[1]), rng, 0.5, 1.5);
  const auto beta = random_array<T>(tx::make_dim(dims[1]), rng, -1, 1);
  const Tolerance tolerance = normalisation_tolerance<T>(dims[1]);
  check_build(
      "softmax " + shape, tolerance, [](const auto& a) { return tx::softmax<1>(a); }, x);
  check_build(
      "log_softmax " + shape, tolerance, [](const auto& a) { return tx::log_softmax<1>(a); }, x);
  check_build(
      "logsumexp " + shape, tolerance, [](const auto& a) { return tx::logsumexp<1>(a); }, x);
  check_build(
      "layer_norm " + shape, tolerance,
      [](const auto& a, const auto& g, const auto& b) {
        return tx::layer_norm<1>(a, g, b, T(1e-5f));
      },
      x, gamma, beta);
  check_build(
      "rms_norm " + shape, tolerance,
      [](const auto& a, const auto& g) { return tx::rms_norm<1>(a, g, T(1e-6f)); }, x, gamma);
  if (dims[1] > 0) {  // tx::max of an empty row is an error
    check_build(
        "user softmax " + shape, tolerance,
        [](const auto& a) {
          return tx::exp(a - tx::max<1>(a, tx::keepdims)) /
                 tx::sum<1>(tx::exp(a - tx::max<1>(a, tx::keepdims)), tx::keepdims);
        },
        x);
  }
  check_build(
      "var " + shape, tolerance, [](const auto& a) { return tx::var<1>(a); }, x);
  if (dims[1] > 0) {  // a label needs a class
    tx::Array<std::int64_t, 1> labels(tx::make_dim(dims[0]));
    std::uniform_int_distribution<std::int64_t> label(0, dims[1] - 1);
    for (std::int64_t& l : make_view(labels)) l = label(rng);
    check_build(
        "cross_entropy " + shape, tolerance,
        [](const auto& a, const auto& l) { return tx::cross_entropy(a, l); }, x, labels);
  }
}

using Types = boost::mpl::list<float, tx::bfloat16>;

}  // namespace

BOOST_AUTO_TEST_SUITE(cpu_gpu_agreement_normalisations, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE_TEMPLATE(every_row_length_in_the_automatic_mode, T, Types) {
  std::mt19937_64 rng(3101);
  for (const index_t length : {1, 31, 32, 33, 1000, 1024, 1025, 4097, 8192, 20000}) {
    for (const index_t rows : {1, 7, 300}) {
      check_normalisations<T>(tx::make_dim(rows, length), Mode::kAuto, rng);
    }
  }
  // Few long rows are spread over the blocks of clusters (the materialising route where a device
  // has no clusters); rows too long for a block to stage are cut over a cluster's blocks.
  check_normalisations<T>(tx::make_dim(2, 100000), Mode::kAuto, rng);
  check_normalisations<T>(tx::make_dim(140, 65536), Mode::kAuto, rng);
  check_normalisations<T>(tx::make_dim(3, 262144), Mode::kAuto, rng);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(every_mode_forced_on_small_shapes, T, Types) {
  std::mt19937_64 rng(3102);
  const auto shapes = {tx::make_dim(1, 1),    tx::make_dim(5, 3), tx::make_dim(9, 33),
                       tx::make_dim(3, 1500), tx::make_dim(0, 7), tx::make_dim(4, 0)};
  for (const Mode mode : {Mode::kWarp, Mode::kBlock, Mode::kBlockGlobal, Mode::kMaterialising}) {
    for (const auto& dims : shapes) check_normalisations<T>(dims, mode, rng);
  }
  // Clusters: with 16 blocks, rows of 1, 3 and 33 leave most slices empty; rows of 1500 in
  // slices of 752, 512 and 96 elements, the last one shorter.
  for (const int blocks : {2, 3, 16}) {
    for (const auto& dims : shapes) check_normalisations<T>(dims, Mode::kCluster, rng, blocks);
    check_normalisations<T>(tx::make_dim(70, 5000), Mode::kCluster, rng, blocks);
  }
}

BOOST_AUTO_TEST_CASE(strided_transposed_and_in_place_operands) {
  std::mt19937_64 rng(3103);
  const auto square = random_array<float>(tx::make_dim(65, 65), rng, -3, 3);
  const Tolerance tolerance = normalisation_tolerance<float>(65);
  check_build(
      "softmax of a transpose", tolerance,
      [](const auto& a) { return tx::softmax<1>(tx::transpose(a)); }, square);
  check_build(
      "softmax of every other column", tolerance,
      [](const auto& a) { return tx::softmax<1>(tx::slice(a, 1, 0, 64)); }, square);
  // In place: each row is read whole before it is written.
  tx::Array<float, 2> cpu = tx::to(square, tx::CpuPlace());
  tx::Array<float, 2> gpu = mirror_on_gpu(square);
  cpu = tx::softmax<1>(cpu);
  gpu = tx::softmax<1>(gpu);
  check_against_cpu("softmax in place", cpu, gpu, tolerance);
}

BOOST_AUTO_TEST_CASE(in_place_keepdims_results_and_partial_staging_in_every_mode) {
  std::mt19937_64 rng(3106);
  for (const Mode mode :
       {Mode::kAuto, Mode::kWarp, Mode::kBlock, Mode::kBlockGlobal, Mode::kCluster}) {
    const ForcedMode forced(mode, 3);
    const std::string name = std::string(" (") + mode_name(mode) + ")";
    const auto x = random_array<float>(tx::make_dim(37, 300), rng, -4, 4);
    const Tolerance tolerance = normalisation_tolerance<float>(300);
    // In place: each row read whole (staged, or by the same threads that write it) first.
    tx::Array<float, 2> cpu = tx::to(x, tx::CpuPlace());
    tx::Array<float, 2> gpu = mirror_on_gpu(x);
    cpu = tx::log_softmax<1>(cpu);
    gpu = tx::log_softmax<1>(gpu);
    check_against_cpu("log_softmax in place" + name, cpu, gpu, tolerance);
    // A destination whose last extent is 1: rows of one element.
    check_build(
        "logsumexp with keepdims" + name, tolerance,
        [](const auto& a) { return tx::logsumexp<1>(a, tx::keepdims); }, x);
    check_build(
        "a sum of shifted rows with keepdims" + name, tolerance,
        [](const auto& a) {
          return tx::sum<1>(a - tx::max<1>(a, tx::keepdims), tx::keepdims) * 2.0f;
        },
        x);
    // Nine distinct rows read by reductions: more than a team stages (eight), the ninth read
    // from global memory.
    const auto b = random_array<float>(x.dims(), rng, -1, 1);
    const auto c = random_array<float>(x.dims(), rng, -1, 1);
    const auto d = random_array<float>(x.dims(), rng, -1, 1);
    const auto e = random_array<float>(x.dims(), rng, -1, 1);
    const auto f = random_array<float>(x.dims(), rng, -1, 1);
    const auto g = random_array<float>(x.dims(), rng, -1, 1);
    const auto h = random_array<float>(x.dims(), rng, -1, 1);
    const auto i = random_array<float>(x.dims(), rng, -1, 1);
    check_build(
        "softmax of nine arrays" + name, normalisation_tolerance<float>(3000),
        [](const auto& a1, const auto& a2, const auto& a3, const auto& a4, const auto& a5,
           const auto& a6, const auto& a7, const auto& a8,
           const auto& a9) { return tx::softmax<1>(a1 + a2 + a3 + a4 + a5 + a6 + a7 + a8 + a9); },
        x, b, c, d, e, f, g, h, i);
  }
}

BOOST_AUTO_TEST_CASE(every_thread_of_a_team_agrees_on_a_maximum_of_signed_zeros) {
  // Rows of -0 and +0 only: the maximum is a zero of either sign, but one sign for the whole row,
  // so that x - max gives every -0 of a row the same sign (a butterfly whose lanes combined
  // in different orders once gave lanes different zeros).
  for (const Mode mode : {Mode::kWarp, Mode::kBlock}) {
    const ForcedMode forced(mode);
    tx::Array<float, 2> host(tx::make_dim(16, 700));
    tx::index_t n = 0;
    for (float& v : make_view(host)) v = (n++ * 7919) % 3 == 0 ? -0.0f : 0.0f;
    const auto x = mirror_on_gpu(host);
    tx::Array<float, 2> y = x - tx::max<1>(x, tx::keepdims);
    const tx::Array<float, 2> result = tx::to(y, tx::CpuPlace());
    for (tx::index_t r = 0; r < 16; ++r) {
      int negative_zeros_of_negative_inputs = 0, negative_inputs = 0;
      for (tx::index_t j = 0; j < 700; ++j) {
        if (std::signbit(host(r, j))) {
          ++negative_inputs;
          negative_zeros_of_negative_inputs += std::signbit(result(r, j)) ? 1 : 0;
        }
      }
      BOOST_TEST((negative_zeros_of_negative_inputs == 0 ||
                  negative_zeros_of_negative_inputs == negative_inputs),
                 "row " << r << " (" << mode_name(mode)
                        << "): " << negative_zeros_of_negative_inputs << " of " << negative_inputs
                        << " -0 inputs give -0");
    }
  }
}

BOOST_AUTO_TEST_CASE(the_gpu_repeats_its_results_bit_for_bit) {
  std::mt19937_64 rng(3104);
  for (const index_t length : {100, 3000, 20000, 100000}) {
    const auto x = mirror_on_gpu(random_array<float>(tx::make_dim(50, length), rng, -4, 4));
    tx::Array<float, 2> first = tx::softmax<1>(x), second = tx::softmax<1>(x);
    check_against_cpu("softmax twice", tx::to(first, tx::CpuPlace()), second,
                      tx::testing::agreement::kBitwise);
  }
  // A cluster's blocks combine their values in block order, the same in every run.
  const ForcedMode forced(Mode::kCluster, 5);
  const auto x = mirror_on_gpu(random_array<float>(tx::make_dim(20, 9000), rng, -4, 4));
  tx::Array<float, 2> first = tx::layer_norm<1>(x, x[0], x[1], 1e-5f);
  tx::Array<float, 2> second = tx::layer_norm<1>(x, x[0], x[1], 1e-5f);
  check_against_cpu("layer_norm twice in clusters", tx::to(first, tx::CpuPlace()), second,
                    tx::testing::agreement::kBitwise);
}

BOOST_AUTO_TEST_CASE(one_kernel_per_assignment) {
  std::mt19937_64 rng(3105);
  const auto x = mirror_on_gpu(random_array<float>(tx::make_dim(300, 1000), rng, -4, 4));
  const auto gamma = mirror_on_gpu(random_array<float>(tx::make_dim(1000), rng, 0.5, 1.5));
  tx::Array<float, 2> y(x.dims(), x.place());
  tx::Array<std::int32_t, 1> host_labels(tx::make_dim(300));
  for (std::int32_t& l : make_view(host_labels)) l = static_cast<std::int32_t>(rng() % 1000);
  const auto labels = mirror_on_gpu(host_labels);
  tx::Array<float, 0> loss(tx::Dim<0>(), x.place());
  auto before = tx::stats::passes();
  y = tx::softmax<1>(x);
  y = tx::rms_norm<1>(x, gamma, 1e-6f);
  BOOST_TEST(tx::stats::passes() - before == 2u);
  // The losses and their mean in one kernel, after the labels' check (a kernel of its own).
  before = tx::stats::passes();
  loss = tx::cross_entropy(x, labels);
  BOOST_TEST(tx::stats::passes() - before == 2u);
  // Two rows of 100000: spread over the blocks of clusters in one kernel, where the device has
  // them; else the materialising route, a pass per reduction and one for the output.
  const auto wide = mirror_on_gpu(random_array<float>(tx::make_dim(2, 100000), rng, -4, 4));
  tx::Array<float, 2> w(wide.dims(), wide.place());
  before = tx::stats::passes();
  w = tx::softmax<1>(wide);
  if (tx::detail::max_cluster_blocks(0) > 1) {
    BOOST_TEST(tx::stats::passes() - before == 1u);
  } else {
    BOOST_TEST(tx::stats::passes() - before > 1u);
  }
}

BOOST_AUTO_TEST_SUITE_END()

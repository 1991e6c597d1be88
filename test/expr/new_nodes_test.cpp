// The two nodes of docs/nodes.md, written outside tensorx as a user or a new feature would write
// them, and checked like any node: an element-wise leaf (axis_index) that fuses into one pass, and
// a materialising node (row_cumsum) that writes its destination itself and is computed once
// inside larger expressions.
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "support/reference.h"
#include "support/test_place.h"

namespace tx = tensorx;

namespace example {

// ---- An element-wise node: every element is its own index along one axis. ----

template <class T, int N>
class AxisIndexExp : public tx::Exp<AxisIndexExp<T, N>> {
 public:
  using value_type = T;
  static constexpr int rank = N;

  AxisIndexExp(const tx::Dim<N>& dims, int axis) : dims_(dims), axis_(axis) {}
  tx::Dim<N> dims() const { return dims_; }
  int axis() const { return axis_; }

 private:
  tx::Dim<N> dims_;
  int axis_;
};

/// The plan: `axis` counts in the iteration space (the node's axes are its last N).
template <class C, int M>
struct AxisIndexPlan {
  tx::Dim<M> space;
  int axis;

  TENSORX_HOST_DEVICE C at(const tx::Dim<M>& index) const { return static_cast<C>(index.at(axis)); }
  TENSORX_HOST_DEVICE C flat(tx::index_t i) const { return at(tx::delinearize(i, space)); }
  template <class Visitor>
  void visit_leaves(Visitor&&) const {}  // it reads no array
};

template <class T, int N, class Context>
const AxisIndexExp<T, N>& prepare(const AxisIndexExp<T, N>& e, const Context&) {
  return e;
}
template <int M, class T, int N>
AxisIndexPlan<tx::compute_t<T>, M> make_plan(const AxisIndexExp<T, N>& e, const tx::Dim<M>& space) {
  return {space, M - N + e.axis()};
}
template <class T, int N, class F>
void for_each_array(const AxisIndexExp<T, N>&, F&&) {}

template <class T, int N>
AxisIndexExp<T, N> axis_index(const tx::Dim<N>& dims, int axis) {
  return AxisIndexExp<T, N>(dims, axis);
}

// ---- A materialising node: the running sum along the last axis. ----

template <class E>
class RowCumsumExp : public tx::Exp<RowCumsumExp<E>> {
 public:
  using value_type = typename E::value_type;
  static constexpr int rank = E::rank;

  explicit RowCumsumExp(E e) : e_(std::move(e)) {}
  const E& operand() const { return e_; }
  tx::Dim<rank> dims() const { return e_.dims(); }

 private:
  E e_;
};

template <class E>
RowCumsumExp<E> row_cumsum(const E& e) {
  return RowCumsumExp<E>(e);
}

/// Inside a larger expression the running sums are computed once, into a temporary.
template <class E, class Context>
auto prepare(const RowCumsumExp<E>& e, const Context& context) {
  return tx::detail::materialise(e, context);
}
template <class E, class F>
void for_each_array(const RowCumsumExp<E>& e, F&& f) {
  for_each_array(e.operand(), f);
}

}  // namespace example

namespace tensorx {

/// As the whole right-hand side, the node writes its destination itself: the operand in memory
/// on the host, one sequential scan per row, then one pass that saves the sums into dst.
template <class E>
struct DirectWriter<example::RowCumsumExp<E>> {
  static constexpr bool kEnabled = true;

  template <class Saver, class TU, class T, int N>
  static void write(const example::RowCumsumExp<E>& e, const Array<T, N>& dst) {
    const detail::EvalContext<TU> context{dst.place()};
    const Array<T, N> sums = to(detail::materialise(e.operand(), context), CpuPlace());
    const index_t length = N > 0 ? sums.dims().at(N - 1) : 1;
    T* data = sums.data();  // to() made a new dense array: scanned in place
    for (index_t row = 0; row * length < sums.numel(); ++row) {
      for (index_t j = 1; j < length; ++j) data[row * length + j] += data[row * length + j - 1];
    }
    detail::evaluate_elementwise<Saver, TU>(dst, to(sums, dst.place()));
  }
};

}  // namespace tensorx

BOOST_AUTO_TEST_SUITE(new_nodes)

BOOST_AUTO_TEST_CASE(an_element_wise_leaf_fuses_into_one_pass_and_broadcasts) {
  auto rng = tx::testing::make_rng(301);
  const auto a = tx::testing::random_array<float>(tx::make_dim(5, 7), rng);
  const auto ha = tx::testing::on_host(a);
  tx::Array<float, 2> c(a.dims(), tx::testing::test_place());
  const auto before = tx::stats::passes();
  c = a * example::axis_index<float>(tx::make_dim(7), 0) + 1.0f;
  BOOST_TEST(tx::stats::passes() - before == 1u);
  tx::testing::check_close(c, tx::testing::reference(a.dims(), [&](const auto& i) {
                             return static_cast<double>(ha(i[0], i[1])) * i[1] + 1.0;
                           }));
  // Alone the leaf reads no array: the destination says where the pass runs.
  tx::Array<double, 3> rows(tx::make_dim(2, 3, 4), tx::testing::test_place());
  rows = example::axis_index<double>(tx::make_dim(2, 3, 4), 1);
  tx::testing::check_close(rows, tx::testing::reference(rows.dims(), [](const auto& i) {
                             return static_cast<double>(i[1]);
                           }));
}

BOOST_AUTO_TEST_CASE(a_materialising_node_writes_itself_and_is_computed_once_inside) {
  auto rng = tx::testing::make_rng(302);
  const auto a = tx::testing::random_array<double>(tx::make_dim(4, 6), rng);
  const auto ha = tx::testing::on_host(a);
  const auto expected = tx::testing::reference(a.dims(), [&](const auto& i) {
    double sum = 0;
    for (tx::index_t j = 0; j <= i[1]; ++j) sum += ha(i[0], j);
    return sum;
  });
  tx::Array<double, 2> c;
  c = example::row_cumsum(a);
  tx::testing::check_close(c, expected);
  c += example::row_cumsum(a);  // the saver reaches the pass that writes dst
  tx::testing::check_close(
      c, tx::testing::reference(a.dims(), [&](const auto& i) { return 2 * expected[i]; }));
  tx::Array<double, 2> d;
  d = 2.0 * example::row_cumsum(a * 0.5) - a;  // materialised first, then one fused pass
  tx::testing::check_close(d, tx::testing::reference(a.dims(), [&](const auto& i) {
                             return expected[i] - ha(i[0], i[1]);
                           }));
}

BOOST_AUTO_TEST_SUITE_END()

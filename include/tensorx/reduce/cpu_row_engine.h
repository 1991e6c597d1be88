// The CPU half of row-local fusion (row_fusion.h): ONE pass in which threads take whole rows. For
// each row the fused reductions are computed first, innermost first, each by the SIMD row loop of
// the reductions (cpu_reduce_rows.h) over the row while it stays in cache; then the row is written
// by the element-wise engine's SIMD row loop (cpu_engine.h), the reductions now constants. An
// element-wise part that a reduction and the output share (softmax's exp(x - max)) is computed
// once per element: row_stash.h.
#pragma once

#include <type_traits>
#include <vector>

#include "tensorx/array/array.h"
#include "tensorx/core/stats.h"
#include "tensorx/engine/cpu_engine.h"
#include "tensorx/engine/parallel_for.h"
#include "tensorx/reduce/cpu_reduce_rows.h"
#include "tensorx/reduce/row_fusion.h"
#include "tensorx/reduce/row_stash.h"

namespace tensorx {
namespace detail {

TENSORX_ENGINE_NAMESPACE_BEGIN

/// Computes the fused reductions of one row (or of one result of a per-row pass) on the CPU,
/// each once (row_value). One reducer per row. TU keeps the SIMD (g++) and scalar (nvcc host)
/// instantiations distinct symbols. With a stash (row_stash.h: Part not void), the reduction
/// in slot `filling_slot` also writes the values of its operand, of type Part, into `buffer`.
template <class TU, class Part = void>
class CpuRowReducer {
 public:
  CpuRowReducer() = default;
  template <class C>
  CpuRowReducer(C* buffer, int filling_slot) : buffer_(buffer), filling_slot_(filling_slot) {}

  template <class Op, class C, class OperandPlan, bool kExtraAxis, int M>
  RowConstPlan<C> reduce(const RowReducePlan<Op, C, OperandPlan, kExtraAxis>& plan,
                         const Dim<M>& start) {
    return row_value(plan, values_, [&] {
      if (plan.length == 0) return Op::finalize(Op::template identity<C>(), 0);
      const auto& bound = bind_rows(plan.operand, start, *this);
      constexpr bool kSimd = plan_vectorizable<std::decay_t<decltype(bound)>, C>();
      const auto row = row_of(bound, start);
      if constexpr (std::is_same_v<OperandPlan, Part>) {
        if (plan.slot >= 0 && plan.slot == filling_slot_) {
          filled_ = true;
          using P = typename Part::result_type;
          const StoringRow<decltype(row), P> storing{row, static_cast<P*>(buffer_)};
          return Op::finalize(reduce_row<Op, C, kSimd>(storing, 0, plan.length, plan.unit_inner),
                              plan.length);
        }
      }
      return Op::finalize(reduce_row<Op, C, kSimd>(row, 0, plan.length, plan.unit_inner),
                          plan.length);
    });
  }

  /// True once a reduction of this row has filled the buffer.
  bool filled() const { return filled_; }

 private:
  RowValues<> values_;
  void* buffer_ = nullptr;
  int filling_slot_ = -1;
  bool filled_ = false;
};

/// Writes one computed value through the saver.
template <class Saver, class T, class C>
TENSORX_FORCE_INLINE void save_value(T* target, C value) {
  if constexpr (Saver::reads_destination) value = Saver::apply(static_cast<C>(*target), value);
  *target = to_storage<T>(value);
}

/// Elements the pass reads and writes, for the size of the threads' chunks: the destination and,
/// for each item (row or result), the rows its top reductions reduce.
template <class Plan>
index_t row_pass_work(const Plan& plan, index_t elements, index_t items) {
  index_t work = elements;
  for_each_top_reduction(plan, [&](const auto& reduction) { work += items * reduction.length; });
  return work;
}

/// True when the rows of a bound plan of type Bound are written to T in SIMD batches with Saver.
template <class Saver, class T, class Bound>
constexpr bool rows_vectorizable() {
  using C = compute_t<T>;
  return plan_vectorizable<Bound, C>() && Saver::template vectorizes<C> &&
         dst_storage_vectorizable<T, C>();
}

/// Calls f(start) for the rows begin .. end - 1 of a pass over `rows_extent` (the destination's
/// extent with the last axis 1), `start` each row's first index.
template <int N, class F>
TENSORX_FORCE_INLINE void for_each_row_of_chunk(const Dim<N>& rows_extent, index_t begin,
                                                index_t end, F&& f) {
  Dim<N> start = delinearize(begin, rows_extent);
  for (index_t row = begin; row < end; ++row) {
    f(start);
    next_index(start, rows_extent, N - 1);
  }
}

/// Writes the row of dst that starts at `start` from its bound plan.
template <bool kVectorizable, class Saver, class T, int N, class Bound>
TENSORX_FORCE_INLINE void write_bound_row(const Array<T, N>& dst, const Dim<N>& start,
                                          const Bound& bound, bool simd) {
  run_row<kVectorizable, Saver>(dst.data() + linearize(start, dst.strides()),
                                dst.strides().at(N - 1), row_of(bound, start), 0,
                                dst.dims().at(N - 1), simd);
}

/// The rows pass with a stash (row_stash.h): per row, the reductions (one of them filling the
/// row buffer with the stashed part, or a sweep of its own doing it), then the row from the
/// buffer and the rest of the output. `facts` and `rows_extent` as for run_rows_cpu.
template <class Saver, class TU, class Part, class T, int N, class Plan>
void run_stashed_rows_cpu(const Array<T, N>& dst, const Plan& plan, const StashSource<Part>& source,
                          const LayoutFacts<N>& facts, const Dim<N>& rows_extent) {
  using P = typename Part::result_type;
  using Reducer = CpuRowReducer<TU, Part>;
  const index_t length = dst.dims().at(N - 1);
  const index_t rows = product(rows_extent);
  using Bound =
      std::decay_t<decltype(bind_rows(with_buffer<Part>(plan, static_cast<const P*>(nullptr)),
                                      Dim<N>(), std::declval<Reducer&>()))>;
  constexpr bool kVectorizable = rows_vectorizable<Saver, T, Bound>();
  using BoundPart =
      std::decay_t<decltype(bind_rows(*source.part, Dim<N>(), std::declval<Reducer&>()))>;
  constexpr bool kPartVectorizable = plan_vectorizable<BoundPart, P>();
  LayoutFacts<N> part_facts;
  source.part->visit_leaves([&](const void*, const Dim<N>& strides, std::size_t) {
    part_facts.add(dst.dims(), strides);
  });
  parallel_for(rows, chunk_items_for(rows, row_pass_work(plan, dst.numel(), rows)),
               [&](index_t begin, index_t end) {
                 std::vector<P> buffer(static_cast<std::size_t>(length));
                 const auto output = with_buffer<Part>(plan, static_cast<const P*>(buffer.data()));
                 for_each_row_of_chunk(rows_extent, begin, end, [&](const Dim<N>& start) {
                   Reducer reducer(buffer.data(), source.filling_slot);
                   const auto& bound = bind_rows(output, start, reducer);
                   if (!reducer.filled()) {
                     const auto& part = bind_rows(*source.part, start, reducer);
                     run_row<kPartVectorizable, saver::write>(buffer.data(), 1, row_of(part, start),
                                                              0, length, part_facts.unit_inner);
                   }
                   write_bound_row<kVectorizable, Saver>(dst, start, bound, facts.unit_inner);
                 });
               });
}

/// The rows pass: dst (rank N >= 1, not empty) row by row, each row's reductions first.
template <class Saver, class TU, class T, int N, class Plan>
void run_rows_cpu(const Array<T, N>& dst, const Plan& plan) {
  static_assert(N >= 1, "a rows pass writes rows");
  stats::record_pass();
  const Dim<N>& dims = dst.dims();
  const index_t length = dims.at(N - 1);
  Dim<N> rows_extent = dims;  // one index per row, its last 0
  rows_extent.at(N - 1) = 1;
  const index_t rows = product(rows_extent);
  LayoutFacts<N> facts;
  facts.add(dims, dst.strides());
  plan.visit_leaves(
      [&](const void*, const Dim<N>& strides, std::size_t) { facts.add(dims, strides); });
  using Part = stash_part_t<Plan>;
  if constexpr (!std::is_void_v<Part>) {
    const auto source = find_stash_source<Part>(plan, length);
    if (source.usable) {
      run_stashed_rows_cpu<Saver, TU>(dst, plan, source, facts, rows_extent);
      return;
    }
  }
  using Bound =
      std::decay_t<decltype(bind_rows(plan, Dim<N>(), std::declval<CpuRowReducer<TU>&>()))>;
  constexpr bool kVectorizable = rows_vectorizable<Saver, T, Bound>();
  parallel_for(rows, chunk_items_for(rows, row_pass_work(plan, dst.numel(), rows)),
               [&](index_t begin, index_t end) {
                 for_each_row_of_chunk(rows_extent, begin, end, [&](const Dim<N>& start) {
                   CpuRowReducer<TU> reducer;
                   write_bound_row<kVectorizable, Saver>(
                       dst, start, bind_rows(plan, start, reducer), facts.unit_inner);
                 });
               });
}

/// The per-row pass: each element of dst (not empty) computed from the rows its reductions reduce.
template <class Saver, class TU, class T, int N, class Plan>
void run_per_row_cpu(const Array<T, N>& dst, const Plan& plan) {
  stats::record_pass();
  const index_t outputs = dst.numel();
  parallel_for(outputs, chunk_items_for(outputs, row_pass_work(plan, outputs, outputs)),
               [&](index_t begin, index_t end) {
                 Dim<N> index = delinearize(begin, dst.dims());
                 for (index_t i = begin; i < end; ++i) {
                   CpuRowReducer<TU> reducer;
                   const auto& bound = bind_rows(plan, index, reducer);
                   save_value<Saver>(dst.data() + linearize(index, dst.strides()), bound.at(index));
                   if constexpr (N > 0) next_index(index, dst.dims(), N - 1);  // else one element
                 }
               });
}

/// dst (one element) = Saver(dst, the mean of the per-row pass of `plan` over `rows` rows): ONE
/// pass writes each row's value, in the compute type, to scratch memory; the assignment then sums
/// them in row order, in double. Those are the pass's partial results, as a reduction's chunk
/// partials are, so no second pass is counted; the order depends only on the row count, so the
/// result repeats bitwise for any number of threads.
template <class Saver, class TU, class T, int N, class Plan>
void run_mean_of_rows_cpu(const Array<T, N>& dst, index_t rows, const Plan& plan) {
  using C = compute_t<T>;
  const Array<C, 1> values(make_dim(rows));
  run_per_row_cpu<saver::write, TU>(values, plan);
  double sum = 0;
  for (index_t r = 0; r < rows; ++r) sum += static_cast<double>(values.data()[r]);
  save_value<Saver>(dst.data(), static_cast<C>(sum / static_cast<double>(rows)));
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx

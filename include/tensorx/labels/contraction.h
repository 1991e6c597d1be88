// The contracting form of a labelled assignment: a right side that is a product of factors (with
// numbers folded into alpha) in which a label absent on the left is shared by two factors. Each
// factor is an operand as it lies, or (an expression, or an operand with labels no other factor
// or the left has) is first evaluated into a dense temporary by the element-wise or reducing form.
// Two factors are ONE gemm or batch_gemm (pair_plan.h); three or more are contracted pairwise in
// the order with the fewest multiply-adds (chain_order.h), the last step writing the left side
// with alpha and the saver's beta.
#pragma once

#include <cstdint>
#include <memory>
#include <tuple>
#include <type_traits>
#include <utility>

#include "tensorx/core/data_type.h"
#include "tensorx/labels/chain_order.h"
#include "tensorx/labels/gemm_pair.h"
#include "tensorx/labels/label_table.h"
#include "tensorx/labels/labelled_exp.h"
#include "tensorx/labels/lowering.h"
#include "tensorx/labels/operands.h"
#include "tensorx/labels/pair_plan.h"

namespace tensorx {
namespace detail {

/// A leaf that stands for whatever operand is passed in its place: the product of two
/// intermediate arrays of a chain is OperandSlot * OperandSlot.
struct OperandSlot : LabelledLeaf<OperandSlot> {
  using value_type = void;
  static constexpr int max_labels = kMaxRank;
  static constexpr int leaf_count = 1;
};

/// alpha * x * y, for the element-wise or reducing form of a pair that is not a GEMM.
using ScaledPair =
    LabelledMap<op::multiplies, LabelledMap<op::multiplies, LabelledScalar<double>, OperandSlot>,
                OperandSlot>;

template <class T>
constexpr bool is_blas_element_v =
    std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, float16>;

/// The buffers of a contraction's temporaries (at most Capacity), alive until it is done.
template <int Capacity>
class Temporaries {
 public:
  /// A new dense buffer for `operand` (its layout set already) of T elements on `place`.
  template <class T>
  void allocate(LabelledOperand& operand, const Place& place) {
    buffers_[count_] =
        std::make_shared<Allocation>(static_cast<std::size_t>(operand.numel()) * sizeof(T), place);
    operand.buffer = &buffers_[count_++];
    operand.offset = 0;
  }

 private:
  std::shared_ptr<Allocation> buffers_[Capacity];
  int count_ = 0;
};

/// Labels that two of the factors share and the left side lacks: a contraction where not 0.
inline LabelMask shared_labels(const LabelMask* masks, int count, LabelMask left) {
  LabelMask seen = 0;
  LabelMask twice = 0;
  for (int i = 0; i < count; ++i) {
    twice |= seen & masks[i];
    seen |= masks[i];
  }
  return twice & ~left;
}

/// Throws LabelError, before any work, when a factor or an intermediate of a product would keep
/// more labels than an array has axes.
inline void check_intermediate_rank(LabelMask labels) {
  int count = 0;
  for (; labels != 0; labels &= labels - 1) ++count;
  if (count > kMaxRank) {
    throw LabelError(message("a labelled product would make an intermediate array with ", count,
                             " labels, more than the highest rank ", kMaxRank,
                             ": contract it in smaller statements"));
  }
}

/// Factor f as an operand: its array where it lies, or a dense temporary holding it summed over
/// the labels not in `keep` (labels in their order of appearance among its operands).
template <class TU, class T, class F, class Buffers>
LabelledOperand factor_operand(const LabelTable& table, const F& factor,
                               const LabelledOperand* operands, LabelMask keep, const Place& place,
                               Buffers& temporaries) {
  using Node = typename F::node_type;
  const LabelledOperand* first = operands + F::offset;
  if constexpr (is_labelled_leaf_v<Node>) {
    if (first->mask == keep) return *first;
  }
  std::int8_t ids[kMaxLabels];
  int rank = 0;
  LabelMask placed = 0;
  for (int i = 0; i < Node::leaf_count; ++i) {
    for (int axis = 0; axis < first[i].rank; ++axis) {
      const int id = first[i].ids[axis];
      if (((keep & ~placed) >> id) & 1u) {
        ids[rank++] = static_cast<std::int8_t>(id);
        placed |= LabelMask{1} << id;
      }
    }
  }
  LabelledOperand temporary;
  dense_operand(table, ids, rank, temporary);
  temporary.labels = first->labels;
  temporaries.template allocate<T>(temporary, place);
  const LabelMask summed = mask_of<Node::leaf_count>(first) & ~keep;
  if constexpr (is_labelled_leaf_v<Node>) {
    // Every leaf is summed the same way whatever its type: one instantiation serves them all.
    assign_general<saver::write, TU, T, kMaxRank>(table, temporary, summed, OperandSlot(), first);
  } else {
    assign_general<saver::write, TU, T, reduction_rank<Node>>(table, temporary, summed,
                                                              *factor.node, first);
  }
  return temporary;
}

/// result = Saver(result, alpha * x * y summed over the labels outside result_mask): ONE GEMM
/// where pair_is_gemm, else the element-wise or reducing form. A null `result` is a temporary
/// that this makes (laid out by the plan) and describes in *made.
template <class Saver, class TU, class T, class Buffers>
void contract_pair(const LabelTable& table, const LabelledOperand& x, const LabelledOperand& y,
                   LabelMask result_mask, const LabelledOperand* result, double alpha,
                   const Place& place, Buffers& temporaries, LabelledOperand* made) {
  const PairPlan plan = plan_pair(table, x, y, result_mask, result, is_blas_element_v<T>);
  if (result == nullptr) {
    dense_operand(table, plan.result_ids, plan.result_rank, *made);
    made->labels = x.labels;
    temporaries.template allocate<T>(*made, place);
    result = made;
  }
  if (plan.gemm) {
    const double sign = std::is_same_v<Saver, saver::subtract> ? -1.0 : 1.0;
    run_gemm_pair(plan, table, x, y, *result, data_type_of<T>(), sign * alpha,
                  Saver::reads_destination ? 1.0 : 0.0);
  } else {
    const LabelledOperand pair[2] = {x, y};
    const ScaledPair product(op::multiplies{},
                             LabelledMap<op::multiplies, LabelledScalar<double>, OperandSlot>(
                                 op::multiplies{}, LabelledScalar<double>(alpha), OperandSlot()),
                             OperandSlot());
    assign_general<Saver, TU, T, kMaxRank>(table, *result, (x.mask | y.mask) & ~result->mask,
                                           product, pair);
  }
}

template <class TU, class T, class Factors, class Buffers, std::size_t... I>
void make_factor_operands(const LabelTable& table, const Factors& factors,
                          const LabelledOperand* operands, const LabelMask* keep,
                          const Place& place, Buffers& temporaries, LabelledOperand* slots,
                          std::index_sequence<I...>) {
  ((slots[I] =
        factor_operand<TU, T>(table, std::get<I>(factors), operands, keep[I], place, temporaries)),
   ...);
}

/// target = Saver(target, alpha * the product of `factors`) where the factors (with labels
/// `masks`) share a label absent on the left. Checks that the translation unit can run every
/// step that needs an engine before any work.
template <class Saver, class TU, class T, class... Factors>
void run_contraction(const LabelTable& table, const LabelledOperand& target,
                     const LabelledOperand* operands, const std::tuple<Factors...>& factors,
                     const LabelMask* masks, double alpha) {
  constexpr int kCount = sizeof...(Factors);
  static_assert(kCount <= kMaxFactors,
                "A labelled product has at most 8 factors: split it into two assignments.");
  constexpr bool kFactorsAreLeaves = (is_labelled_leaf_v<typename Factors::node_type> && ...);
  LabelMask keep[kCount];
  bool needs_engine = !kFactorsAreLeaves;
  for (int i = 0; i < kCount; ++i) {
    LabelMask others = target.mask;
    for (int j = 0; j < kCount; ++j) {
      if (j != i) others |= masks[j];
    }
    keep[i] = masks[i] & others;
    needs_engine = needs_engine || keep[i] != masks[i];
  }
  ChainOrder order;
  if constexpr (kCount == 2) {
    order.steps = 1;
    order.step[0] = {0, 1, target.mask};
  } else {
    order = order_chain(table, keep, kCount, target.mask);
  }
  LabelMask slot_masks[2 * kCount];
  for (int i = 0; i < kCount; ++i) slot_masks[i] = keep[i];
  for (int s = 0; s < order.steps; ++s) {
    const ChainStep& step = order.step[s];
    slot_masks[kCount + s] = step.result;
    needs_engine =
        needs_engine || !pair_is_gemm(table, slot_masks[step.left], slot_masks[step.right],
                                      step.result, is_blas_element_v<T>);
  }
  for (int slot = 0; slot < kCount + order.steps; ++slot) check_intermediate_rank(slot_masks[slot]);
  const Place place = target.place();
  if (needs_engine) check_can_run(TU{}, place);
  if (target.numel() == 0) return;

  // Each factor and each step's result may need a temporary: 2 * kCount - 1 slots.
  Temporaries<2 * kCount> temporaries;
  LabelledOperand slots[2 * kCount];
  make_factor_operands<TU, T>(table, factors, operands, keep, place, temporaries, slots,
                              std::index_sequence_for<Factors...>{});
  for (int s = 0; s < order.steps; ++s) {
    const ChainStep& step = order.step[s];
    if (s + 1 == order.steps) {
      contract_pair<Saver, TU, T>(table, slots[step.left], slots[step.right], target.mask, &target,
                                  alpha, place, temporaries, nullptr);
    } else {
      contract_pair<saver::write, TU, T>(table, slots[step.left], slots[step.right], step.result,
                                         nullptr, 1.0, place, temporaries, &slots[kCount + s]);
    }
  }
}

}  // namespace detail
}  // namespace tensorx

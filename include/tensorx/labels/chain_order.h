// The order in which a product of three or more labelled factors is contracted pairwise: the one
// with the fewest multiply-adds, found exactly by dynamic programming over the subsets of factors
// (3^n steps; a product has at most kMaxFactors factors). Each intermediate keeps the labels that
// the result or a factor outside it still needs.
#pragma once

#include "tensorx/labels/label_table.h"

namespace tensorx {
namespace detail {

/// The most factors one product may have.
constexpr int kMaxFactors = 8;

/// One pairwise contraction: slots `left` and `right` into slot count + its index, which keeps the
/// labels in `result`. Slots 0 .. count - 1 are the factors.
struct ChainStep {
  int left = 0;
  int right = 0;
  LabelMask result = 0;
};

struct ChainOrder {
  int steps = 0;
  ChainStep step[kMaxFactors - 1];
  double multiply_adds = 0;
};

/// The cheapest pairwise order of the `count` factors (2 .. kMaxFactors) with labels `masks`,
/// whose product keeps the labels in `left`; the last step writes the result.
ChainOrder order_chain(const LabelTable& table, const LabelMask* masks, int count, LabelMask left);

}  // namespace detail
}  // namespace tensorx

// The cheapest contraction order of a product (labels/chain_order.h).
#include "tensorx/labels/chain_order.h"

#include <limits>

namespace tensorx {
namespace detail {
namespace {

struct Subsets {
  LabelMask labels[1 << kMaxFactors] = {};  // every label of the factors in the subset
  LabelMask kept[1 << kMaxFactors] = {};    // those its contraction keeps
  double cost[1 << kMaxFactors] = {};
  unsigned split[1 << kMaxFactors] = {};
};

double extent_product(const LabelTable& table, LabelMask mask) {
  double product = 1;
  for (int id = 0; mask != 0; ++id, mask >>= 1) {
    if (mask & 1u) product *= static_cast<double>(table.extents[id]);
  }
  return product;
}

int emit(const Subsets& s, unsigned set, int count, ChainOrder& order) {
  if ((set & (set - 1)) == 0) {
    int factor = 0;
    while (!((set >> factor) & 1u)) ++factor;
    return factor;
  }
  const int left = emit(s, s.split[set], count, order);
  const int right = emit(s, set & ~s.split[set], count, order);
  ChainStep& step = order.step[order.steps];
  step.left = left;
  step.right = right;
  step.result = s.kept[set];
  return count + order.steps++;
}

}  // namespace

ChainOrder order_chain(const LabelTable& table, const LabelMask* masks, int count, LabelMask left) {
  Subsets s;
  const unsigned all = (1u << count) - 1u;
  for (unsigned set = 1; set <= all; ++set) {
    for (int i = 0; i < count; ++i) {
      if ((set >> i) & 1u) s.labels[set] |= masks[i];
    }
  }
  for (unsigned set = 1; set <= all; ++set) {
    s.kept[set] = s.labels[set] & (left | s.labels[all & ~set]);
  }
  for (unsigned set = 1; set <= all; ++set) {
    if ((set & (set - 1)) == 0) continue;
    // Subsets in increasing order: every proper part of `set` is done. Splits hold the lowest
    // factor of `set` in the first part, so each pair of parts is tried once.
    const unsigned lowest = set & (~set + 1u);
    s.cost[set] = std::numeric_limits<double>::infinity();
    for (unsigned part = (set - 1) & set; part != 0; part = (part - 1) & set) {
      if (!(part & lowest)) continue;
      const unsigned rest = set & ~part;
      const double cost =
          s.cost[part] + s.cost[rest] + extent_product(table, s.kept[part] | s.kept[rest]);
      if (cost < s.cost[set]) {
        s.cost[set] = cost;
        s.split[set] = part;
      }
    }
  }
  ChainOrder order;
  order.multiply_adds = s.cost[all];
  emit(s, all, count, order);
  return order;
}

}  // namespace detail
}  // namespace tensorx

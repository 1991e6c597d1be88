// The labelled assignment, `c("i,j") = a("i,k") * b("k,j")` (and +=, -=, tx::assign with an
// OpReq). Every check comes first (labels, extents, places, element types, where it can run), so
// that nothing is written when one fails; then the right side runs in one of three forms:
//  - a product whose factors share a label absent on the left: GEMMs (contraction.h);
//  - otherwise, with labels absent on the left: ONE reduction summing over them (lowering.h);
//  - otherwise ONE element-wise pass.
// Labels absent on the left are summed over the whole right side; each top-level term of a sum
// must carry them (check_terms), so that no term is silently multiplied by an extent.
#pragma once

#include <tuple>
#include <type_traits>

#include "tensorx/array/darray.h"
#include "tensorx/core/data_type.h"
#include "tensorx/engine/assign.h"
#include "tensorx/labels/contraction.h"
#include "tensorx/labels/factors.h"
#include "tensorx/labels/labelled_array.h"
#include "tensorx/labels/labelled_darray.h"
#include "tensorx/labels/lowering.h"
#include "tensorx/labels/operands.h"

namespace tensorx {
namespace detail {

template <class Rhs, class Factors, std::size_t... I>
void factor_masks(const Factors& factors, const LabelledOperand* operands, LabelMask* masks,
                  std::index_sequence<I...>) {
  ((masks[I] = mask_of<std::tuple_element_t<I, Factors>::node_type::leaf_count>(
        operands + std::tuple_element_t<I, Factors>::offset)),
   ...);
  (void)factors;
}

/// target = Saver(target, rhs) once the operands are read and the left side is bound (R bounds
/// the target's rank): picks the form and runs it.
template <class Saver, class TU, class T, int R, class Rhs>
void run_labelled(const LabelTable& table, const LabelledOperand& target, const Rhs& rhs,
                  const LabelledOperand* operands) {
  const LabelMask summed = mask_of<Rhs::leaf_count>(operands) & ~target.mask;
  if (summed != 0) {
    double alpha = 1.0;
    const auto factors = collect_factors<T, 0>(rhs, alpha);
    using Factors = std::decay_t<decltype(factors)>;
    constexpr int kCount = std::tuple_size_v<Factors>;
    if constexpr (kCount >= 2) {
      LabelMask masks[kCount];
      factor_masks<Rhs>(factors, operands, masks, std::make_index_sequence<kCount>{});
      // Two factors that are no GEMM (a matrix-vector or batched inner product, integers) are
      // summed over every missing label in one reduction, without summing a factor first.
      if (shared_labels(masks, kCount, target.mask) != 0 &&
          (kCount > 2 || pair_is_gemm(table, masks[0] & (target.mask | masks[kCount - 1]),
                                      masks[kCount - 1] & (target.mask | masks[0]), target.mask,
                                      is_blas_element_v<T>))) {
        run_contraction<Saver, TU, T>(table, target, operands, factors, masks, alpha);
        return;
      }
    }
  }
  check_terms<0>(rhs, operands, table, summed);
  check_can_run(TU{}, target.place());
  if (target.numel() == 0) return;
  assign_general<Saver, TU, T, R>(table, target, summed, rhs, operands);
}

template <int N>
Dim<N> dim_of(const index_t* extents) {
  Dim<N> dims;
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) dims.at(i) = extents[i];
  }
  return dims;
}

/// The place of a new left side: the operands', which must all be on one place.
inline Place place_for_new_result(const LabelledOperand* operands, int count) {
  const Place place = operands_place(operands, count);
  check_places(operands, count, place);
  return place;
}

template <class Saver>
[[noreturn]] void throw_unallocated(const LabelList& labels) {
  if (Saver::reads_destination) {
    throw ShapeError(message("cannot accumulate into labels ", labels,
                             " of an unallocated array: assign to it with = first"));
  }
  throw ShapeError(message("cannot assign to labels ", labels,
                           " of an unallocated array that is const: give it a shape first"));
}

/// The right side of a labelled assignment gathered: its operands in a label table, and the
/// extents the table gives the left side's labels.
template <class T, class Rhs>
struct GatheredRhs {
  static constexpr int kCount = Rhs::leaf_count;
  LabelTable table;
  LabelledOperand operands[kCount];
  index_t extents[kMaxRank];

  GatheredRhs(const Rhs& rhs, const LabelList& labels) {
    gather<T, 0>(rhs, table, operands);
    left_extents(table, labels, extents);
  }
};

/// Binds `result` (an allocated and checked array, of element type T where the assignment runs;
/// a DArray visit also instantiates it for the other types) to the left side's labels and runs
/// the assignment, with R the largest rank it plans for.
template <class Saver, class TU, int R, class T, class Rhs, class Result>
void run_into(GatheredRhs<T, Rhs>& gathered, const LabelList& labels, const Result& result,
              const Rhs& rhs) {
  constexpr int N = Result::rank;
  // Zeroed: a rank-0 result fills none of them, and bind_left reads none of them then.
  index_t dims[kMaxRank] = {};
  index_t strides[kMaxRank] = {};
  if constexpr (N > 0) {
    for (int i = 0; i < N; ++i) {
      dims[i] = result.dims().at(i);
      strides[i] = result.strides().at(i);
    }
  }
  LabelledOperand target;
  bind_left(gathered.table, labels, dims, strides, &result.buffer(), result.offset(), target);
  run_labelled<Saver, TU, T, R>(gathered.table, target, rhs, gathered.operands);
}

template <class Saver, class TU, class T, int N, class Rhs>
void assign_labelled(const Array<T, N>& dst, Array<T, N>* owner, const LabelList& labels,
                     const Rhs& rhs) {
  static_assert(
      std::is_void_v<typename Rhs::value_type> || std::is_same_v<typename Rhs::value_type, T>,
      "The labelled expression's element type differs from the left side's.");
  GatheredRhs<T, Rhs> gathered(rhs, labels);
  Array<T, N> result = dst;
  if (!result.allocated()) {
    if (Saver::reads_destination || owner == nullptr) throw_unallocated<Saver>(labels);
    result = Array<T, N>(dim_of<N>(gathered.extents),
                         place_for_new_result(gathered.operands, gathered.kCount));
  } else {
    check_places(gathered.operands, gathered.kCount, result.place());
  }
  run_into<Saver, TU, N>(gathered, labels, result, rhs);
  if (!dst.allocated()) *owner = result;
}

// The functions below take the DArray type as a parameter D (DArray itself) so that the compiler
// looks at it only when a labelled assignment to a DArray is compiled (array/darray.h).

/// The first DArray operand of `node`, into `first` if it is still null.
template <class Node, class D>
void find_darray(const Node& node, const D*& first) {
  if constexpr (std::is_same_v<Node, LabelledDArray>) {
    if (first == nullptr) first = &node.array();
  } else if constexpr (!is_labelled_leaf_v<Node> && Node::leaf_count > 0) {
    std::apply([&](const auto&... args) { (find_darray(args, first), ...); }, node.args());
  }
}

/// The element type of a labelled expression assigned to `dst`: the typed operands', else the
/// DArray's, else that of the first DArray operand.
template <class D, class Rhs>
DataType labelled_element_type(const D& dst, const Rhs& rhs) {
  using V = typename Rhs::value_type;
  if constexpr (!std::is_void_v<V>) {
    return data_type_of<V>();
  } else {
    if (darray_allocated(dst)) return dtype(dst);
    const D* first = nullptr;
    find_darray(rhs, first);
    return dtype(*first);
  }
}

template <class Saver, class TU, class T, class D, class Rhs>
void assign_labelled_darray_typed(const D& dst, D* owner, const LabelList& labels, const Rhs& rhs) {
  GatheredRhs<T, Rhs> gathered(rhs, labels);
  D result = dst;
  if (!darray_allocated(result)) {
    if (Saver::reads_destination || owner == nullptr) throw_unallocated<Saver>(labels);
    const Place place = place_for_new_result(gathered.operands, gathered.kCount);
    // A DArray has no rank 0: a result without labels is one element of extent (1).
    result = labels.size == 0 ? D(Array<T, 1>(make_dim(1), place))
                              : darray_rank_switch(labels.size, [&](auto rank) {
                                  return D(Array<T, rank>(dim_of<rank>(gathered.extents), place));
                                });
  } else if (dtype(result) != data_type_of<T>()) {
    throw TypeError(message("cannot assign a labelled expression of ", data_type_of<T>(),
                            " elements to a DArray of ", dtype(result)));
  } else {
    check_places(gathered.operands, gathered.kCount, place(result));
  }
  visit([&](auto& array) { run_into<Saver, TU, kMaxDArrayRank>(gathered, labels, array, rhs); },
        result);
  if (owner != nullptr && !darray_allocated(dst)) *owner = result;
}

template <class Saver, class TU, class D, class Rhs>
void assign_labelled_darray(const D& dst, D* owner, const LabelList& labels, const Rhs& rhs) {
  using V = typename Rhs::value_type;
  type_switch(labelled_element_type(dst, rhs), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_void_v<V> || std::is_same_v<V, T>) {
      assign_labelled_darray_typed<Saver, TU, T>(dst, owner, labels, rhs);
    }
  });
}

}  // namespace detail

/// Writes a labelled expression to the labelled elements of `dst` (a labelled Array or DArray) as
/// `req` says (kNullOp writes nothing, kWriteTo and kWriteInplace overwrite, kAddTo adds). Throws
/// before writing anything.
template <class Dst, class Rhs, class TU = detail::ThisTranslationUnit,
          std::enable_if_t<is_labelled_leaf_v<Dst>, int> = 0>
void assign(const Dst& dst, const Rhs& rhs, OpReq req) {
  switch (req) {
    case OpReq::kNullOp:
      return;
    case OpReq::kWriteTo:
    case OpReq::kWriteInplace:
      dst.template operator=<Rhs, TU>(rhs);
      return;
    case OpReq::kAddTo:
      dst.template operator+=<Rhs, TU>(rhs);
      return;
  }
  throw Error(detail::message("unknown OpReq value ", static_cast<int>(req)));
}

}  // namespace tensorx

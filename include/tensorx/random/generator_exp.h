// GeneratorExp: an expression leaf without an array, whose element is a function of its own flat
// index (row-major over its extent). tx::arange, full, eye, linspace, uniform and normal are all
// GeneratorExps, so they fuse into the one pass of whatever expression they join and broadcast like
// any operand: in an iteration space of higher rank or with extent-1 axes, the generator's own
// index is the space's index right-aligned, with its extent-1 axes pinned to 0.
//
// A Generator is a small trivially-copyable struct with
//   using value_type = C;                 the compute type of the elements
//   C operator()(index_t i) const;        element i (TENSORX_HOST_DEVICE)
// and, where it has a faster way than element by element,
//   void fill(index_t first, index_t count, C* out) const;   elements first .. first + count - 1
//   template <int kCount>                                     the same for a multiple `first`
//   void fill_aligned(index_t first, C* out) const;          of kCount (TENSORX_HOST_DEVICE)
// which the CPU SIMD batches and the CUDA engine's lanes use for runs of consecutive elements
// (a Philox block then serves four elements instead of one).
#pragma once

#include <type_traits>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/config.h"
#include "tensorx/core/lanes.h"
#include "tensorx/engine/layout_facts.h"
#include "tensorx/expr/array_leaf.h"
#include "tensorx/expr/exp.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

/// A leaf of extent `dims` whose element i (row-major) is generator(i), computed in the pass of the
/// assignment it joins (see the file comment); it reads no array, so it runs on the destination's
/// place.
template <class T, int N, class Generator>
class GeneratorExp : public Exp<GeneratorExp<T, N, Generator>> {
 public:
  /// The element type.
  using value_type = T;
  /// The rank.
  static constexpr int rank = N;

  /// The leaf of `generator` over `dims`.
  GeneratorExp(const Dim<N>& dims, Generator generator) : dims_(dims), generator_(generator) {}
  /// The extent.
  Dim<N> dims() const { return dims_; }
  /// The generator.
  const Generator& generator() const { return generator_; }

 private:
  Dim<N> dims_;
  Generator generator_;
};

namespace detail {

template <class Generator, class = void>
struct has_fill : std::false_type {};
template <class Generator>
struct has_fill<Generator,
                std::void_t<decltype(std::declval<const Generator&>().fill(
                    index_t{}, index_t{}, std::declval<typename Generator::value_type*>()))>>
    : std::true_type {};

template <class Generator, int kCount, class = void>
struct has_fill_aligned : std::false_type {};
template <class Generator, int kCount>
struct has_fill_aligned<
    Generator, kCount,
    std::void_t<decltype(std::declval<const Generator&>().template fill_aligned<kCount>(
        index_t{}, std::declval<typename Generator::value_type*>()))>> : std::true_type {};

/// Elements first .. first + count - 1 of `generator` into out (count at most a few dozen).
template <class Generator>
TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE void fill_run(const Generator& generator, index_t first,
                                                       index_t count,
                                                       typename Generator::value_type* out) {
  if constexpr (has_fill<Generator>::value) {
    generator.fill(first, count, out);
  } else {
    for (index_t k = 0; k < count; ++k) out[k] = generator(first + k);
  }
}

/// One row of a generator: element j is the generator's element base + j * stride (stride 1, or 0
/// along a broadcast axis).
template <class Generator>
struct GeneratorRow {
  using C = typename Generator::value_type;
  Generator generator;
  index_t base;
  index_t stride;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C get(index_t j) const {
    return generator(base + j * stride);
  }
  template <class B>
  TENSORX_FORCE_INLINE B batch(index_t j) const {
    if (stride == 0) return B(generator(base));
    alignas(B) C lanes[B::size];
    fill_run(generator, base + j, static_cast<index_t>(B::size), lanes);
    return B::load_aligned(lanes);
  }
};

/// The plan of a generator in an M-dimensional iteration space: `strides` map the space's index to
/// the generator's own flat index; `own_order` says that the generator is dense in the space (its
/// extent is the space's, up to extent-1 axes), so that a flat index of the space is its own.
template <class Generator, int M>
struct GeneratorPlan {
  using C = typename Generator::value_type;
  Generator generator;
  Dim<M> space;
  Dim<M> strides;
  bool own_order;

  template <class B>
  static constexpr bool vectorizable = std::is_same_v<C, typename B::value_type>;

  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C at(const Dim<M>& index) const {
    return generator(linearize(index, strides));
  }
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE C flat(index_t i) const {
    return own_order ? generator(i) : at(delinearize(i, space));
  }
  /// Elements i .. i + V - 1 of a dense pass, i a multiple of V.
  template <int V>
  TENSORX_HOST_DEVICE TENSORX_FORCE_INLINE Lanes<C, V> load(index_t i) const {
    Lanes<C, V> lanes;
    if constexpr (has_fill_aligned<Generator, V>::value) {
      if (own_order) {
        generator.template fill_aligned<V>(i, lanes.values);
        return lanes;
      }
    }
    if (own_order) {
      TENSORX_UNROLL
      for (int k = 0; k < V; ++k) lanes[k] = generator(i + k);
    } else {
      TENSORX_UNROLL
      for (int k = 0; k < V; ++k) lanes[k] = flat(i + k);
    }
    return lanes;
  }
  GeneratorRow<Generator> row(const Dim<M>& start) const {
    if constexpr (M == 0) {
      return {generator, 0, 0};
    } else {
      return {generator, linearize(start, strides), strides.at(M - 1)};
    }
  }
  /// The row of a dense pass, in which this generator is dense (visit_leaves says how it lies).
  GeneratorRow<Generator> flat_row() const { return {generator, 0, 1}; }
  /// A generator reads no array, but its elements lie in the space like a leaf's: the engines
  /// choose dense, row and SIMD loops from these strides (with no data to align).
  template <class Visitor>
  void visit_leaves(Visitor&& visitor) const {
    visitor(static_cast<const void*>(nullptr), strides, sizeof(C));
  }
};

}  // namespace detail

///@{
/// The node protocol (expr/exp.h) for GeneratorExp: prepared as itself, planned with its own
/// row-major index right-aligned in the iteration space, reading no array.
template <class T, int N, class Generator, class Context>
const GeneratorExp<T, N, Generator>& prepare(const GeneratorExp<T, N, Generator>& e,
                                             const Context&) {
  return e;
}

template <int M, class T, int N, class Generator>
detail::GeneratorPlan<Generator, M> make_plan(const GeneratorExp<T, N, Generator>& e,
                                              const Dim<M>& space) {
  const Dim<N> own = contiguous_strides(e.dims());
  const Dim<M> strides = detail::broadcast_strides<M>(e.dims(), own);
  detail::LayoutFacts<M> facts;
  facts.add(space, strides);
  return {e.generator(), space, strides, facts.dense};
}

template <class T, int N, class Generator, class F>
void for_each_array(const GeneratorExp<T, N, Generator>&, F&&) {}
///@}

}  // namespace tensorx

// The protocol every expression node follows: what a node provides and what the engines call.
//
// A node is an immutable value deriving from Exp<Node> (core/expression.h), holding its operands
// (arrays and other nodes) by value, so that an expression kept past its statement never dangles.
//
// The node type provides
//   value_type, rank             the element type it computes, and its rank
//   dims()                       its extent; throws ShapeError when its operands do not fit
// and three free functions, found by argument-dependent lookup:
//   prepare(node, context)       the node with every part that cannot fuse into one pass
//                                materialised into arrays (Alea's Prepare phase), or a const
//                                reference to the node itself where it has nothing to change
//                                (leaves; element-wise nodes whose operands all return
//                                themselves), so that an assignment plans the user's
//                                expression without copying its arrays; `context` is an
//                                EvalContext (eval_context.h): where temporaries go, and which
//                                engine this translation unit can run. engine/materialise.h
//                                evaluates a sub-expression into a temporary. The result reads
//                                no allocation that for_each_array(node) did not report, apart
//                                from new temporaries: the alias check relies on it.
//   make_plan(node, out_dims)    the node's Plan in an iteration space of extent out_dims (of
//                                rank >= the node's; operands are right-aligned, NumPy style)
//   for_each_array(node, f)      calls f with every array the node reads, for the place checks and
//                                the alias check (an array read at positions other than the
//                                destination's index is passed as an IndirectRead)
//
// The Plan is a small, trivially-copyable value (mshadow's split between tree and plan) that
// CUDA kernels take by value. Its element accessors return the compute type (core/compute_type.h):
//   at(index)            element at a Dim<M> index of the iteration space            required
//   flat(i)              element i of a plan whose leaves are all dense in the space  required
//   visit_leaves(v)      calls v(data, strides, element_size) for every array it reads, strides
//                        laid over the iteration space: the engines decide density,
//                        vectorisation and alignment from these                       required
//   row(start)           the row from index `start` along the last axis, a row plan whose get(j)
//                        is element start + j; the CPU engine hoists each operand's row start
//                        and stride out of its inner loop                            optional
//   flat_row()           the row plan of a dense plan: get(j) is flat(j)             optional
//   load<V>(i)           flat(i .. i + V - 1) as Lanes<C, V> (core/lanes.h): the CUDA engine's
//                        16-byte vector accesses                                      optional
//   load_at<V>(index)    the V elements from `index` along the last axis, for the CUDA rows
//                        kernel (operands broadcast along rows or columns)           optional
//   vectorizable<B>      static: get's values can be computed in SIMD batches of type B
//                        (a row plan then provides batch<B>(j), lanes j .. j + B::size - 1)
//                                                                                    optional
// The engines reach the optional members only through plan_access.h, which supplies a default
// where a plan has none (a row computed through at(), lanes and batches assembled from single
// elements, not vectorizable). A new node therefore writes at, flat and visit_leaves, and adds
// the others only where it has a faster way. docs/nodes.md walks through two new nodes.
//
// Scalars adopt the element type of what they join (scalar_exp.h); arrays are the leaves
// (array_leaf.h); every element-wise function is one generic node (map_exp.h).
#pragma once

#include <type_traits>

#include "tensorx/core/compute_type.h"
#include "tensorx/core/expression.h"

namespace tensorx {
namespace detail {

/// True when prepare() of a node of type E returned the node itself (Prepared, its return type,
/// is const E&): nothing in it was materialised.
template <class Prepared, class E>
constexpr bool prepared_itself_v = std::is_same_v<Prepared, const E&>;

}  // namespace detail
}  // namespace tensorx

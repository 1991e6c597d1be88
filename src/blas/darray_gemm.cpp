// gemm and batch_gemm on DArrays: the typed matrix each DArray holds, found at run time, then the
// compiled GEMM. Here once, not instantiated over every element type in every user's translation
// unit.
#include "tensorx/blas/gemm.h"

#include "tensorx/array/darray.h"

namespace tensorx {
namespace detail {
namespace {

/// The matrix (Rank 2) or batch (Rank 3) that a DArray holds; any other rank is a TypeError that
/// names the operand.
template <int Rank>
auto darray_matrix_ref(const DArray& x, const char* operand, const char* operation) {
  using Ref = decltype(matrix_ref(Array<float, Rank>()));
  return visit(
      [&](auto& array) -> Ref {
        using A = std::decay_t<decltype(array)>;
        if constexpr (A::rank == Rank) {
          return matrix_ref(array);
        } else {
          throw TypeError(
              message(operation, " needs rank-", Rank, " arrays, but ", operand, " is an ",
                      array_type_name(data_type_of<typename A::value_type>(), A::rank)));
        }
      },
      x);
}

}  // namespace
}  // namespace detail

template <class X, detail::if_darray<X>>
void gemm(Trans trans_a, Trans trans_b, double alpha, const X& a, const X& b, double beta,
          const X& c) {
  detail::gemm(trans_a, trans_b, alpha, detail::darray_matrix_ref<2>(a, "A", "gemm"),
               detail::darray_matrix_ref<2>(b, "B", "gemm"), beta,
               detail::darray_matrix_ref<2>(c, "C", "gemm"));
}

template <class X, detail::if_darray<X>>
void batch_gemm(Trans trans_a, Trans trans_b, double alpha, const X& a, const X& b, double beta,
                const X& c) {
  detail::batch_gemm(trans_a, trans_b, alpha, detail::darray_matrix_ref<3>(a, "A", "batch_gemm"),
                     detail::darray_matrix_ref<3>(b, "B", "batch_gemm"), beta,
                     detail::darray_matrix_ref<3>(c, "C", "batch_gemm"));
}

template void gemm(Trans, Trans, double, const DArray&, const DArray&, double, const DArray&);
template void batch_gemm(Trans, Trans, double, const DArray&, const DArray&, double, const DArray&);

}  // namespace tensorx

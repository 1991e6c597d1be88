// tx::gemm and tx::batch_gemm: C = alpha * op(A) * op(B) + beta * C on typed Arrays and on DArrays,
// computed by the CPU BLAS or cuBLAS on the operands' place (see compiled_gemm.h for the checks).
#pragma once

#include <type_traits>

#include "tensorx/array/array.h"
#include "tensorx/array/darray.h"
#include "tensorx/blas/compiled_gemm.h"
#include "tensorx/blas/matrix_ref.h"
#include "tensorx/blas/trans.h"
#include "tensorx/core/narrow_float.h"

namespace tensorx {

/// The type of alpha and beta for matrices of T: T itself, but float for float16 and bfloat16,
/// whose products accumulate in float.
template <class T>
using gemm_scalar_t = std::conditional_t<is_narrow_float_v<T>, float, T>;

namespace detail {

// The compile-time checks of the typed forms. Alpha and beta are deduced rather than typed
// gemm_scalar_t<T>, so that a typed call matches exactly and never competes with the DArray
// overload (whose arrays would convert implicitly); they are rounded to gemm_scalar_t<T> here.
template <class TA, class TB, class TC, class Alpha, class Beta>
constexpr void check_typed_gemm() {
  static_assert(std::is_same_v<TA, TB> && std::is_same_v<TA, TC>,
                "tx::gemm needs A, B and C of one element type; convert one with tx::cast.");
  static_assert(is_floating_element_v<TA>,
                "tx::gemm multiplies float, double, float16 or bfloat16 matrices.");
  static_assert(std::is_arithmetic_v<Alpha> && std::is_arithmetic_v<Beta>,
                "tx::gemm takes alpha and beta as plain numbers.");
}

template <class T, class Scalar>
double gemm_scalar(Scalar value) {
  return static_cast<double>(static_cast<gemm_scalar_t<T>>(value));
}

}  // namespace detail

/// C = alpha * op(A) * op(B) + beta * C with op(A) M x K, op(B) K x N and C M x N, all on one
/// place and of one element type (float, double, float16 or bfloat16; alpha and beta rounded to
/// gemm_scalar_t). C is written in place, any strides; beta == 0 ignores what C held (NaN
/// included). Runs on that place (CPU BLAS, or cuBLAS on the current stream), from any
/// translation unit. Throws ShapeError naming the three shapes, PlaceError when the places
/// differ, DeviceError for an unusable GPU, BlasError when the BLAS fails.
template <class TA, class TB, class TC, class Alpha, class Beta>
void gemm(Trans trans_a, Trans trans_b, Alpha alpha, const Array<TA, 2>& a, const Array<TB, 2>& b,
          Beta beta, const Array<TC, 2>& c) {
  detail::check_typed_gemm<TA, TB, TC, Alpha, Beta>();
  detail::gemm(trans_a, trans_b, detail::gemm_scalar<TA>(alpha), detail::matrix_ref(a),
               detail::matrix_ref(b), detail::gemm_scalar<TA>(beta), detail::matrix_ref(c));
}

/// C[i] = alpha * op(A[i]) * op(B[i]) + beta * C[i] for each of the C.dims()[0] matrices of C; A
/// or B with a batch extent of 1 serves every i. Throws like gemm, and ShapeError when a batch
/// extent of A or B is neither 1 nor C's.
template <class TA, class TB, class TC, class Alpha, class Beta>
void batch_gemm(Trans trans_a, Trans trans_b, Alpha alpha, const Array<TA, 3>& a,
                const Array<TB, 3>& b, Beta beta, const Array<TC, 3>& c) {
  detail::check_typed_gemm<TA, TB, TC, Alpha, Beta>();
  detail::batch_gemm(trans_a, trans_b, detail::gemm_scalar<TA>(alpha), detail::matrix_ref(a),
                     detail::matrix_ref(b), detail::gemm_scalar<TA>(beta), detail::matrix_ref(c));
}

/// gemm on DArrays, dispatched on the element type at run time (src/blas/darray_gemm.cpp):
/// rank-2 float, double, float16 or bfloat16 arrays of one element type, else TypeError; then the
/// checks of the typed gemm.
template <class X, detail::if_darray<X> = 0>
void gemm(Trans trans_a, Trans trans_b, double alpha, const X& a, const X& b, double beta,
          const X& c);

/// batch_gemm on rank-3 DArrays, dispatched on the element type at run time (TypeError as gemm).
template <class X, detail::if_darray<X> = 0>
void batch_gemm(Trans trans_a, Trans trans_b, double alpha, const X& a, const X& b, double beta,
                const X& c);

}  // namespace tensorx

// Labelled-index (Einstein-notation) expressions, after TensorWrapper's design:
//   c("i,j") = a("i,k") * b("k,j");                // contraction over k: one GEMM
//   z("b,n,k") = x("b,n,m") * y("b,k,m");          // b everywhere: a batch label, one batch_gemm
//   c("i,j,k") = a("k,j,i") + 2.0f * b("i,j,k");   // element-wise, permuted by label: one pass
//   s("i") = a("i,j");                             // j missing on the left: summed, one reduction
//   c = tx::einsum("ik,kj->ij", a, b);             // NumPy's string form
// and tx::windows, the sliding-window view that makes a convolution a labelled contraction.
#pragma once

#include "tensorx/labels/einsum.h"
#include "tensorx/labels/label.h"
#include "tensorx/labels/labelled_array.h"
#include "tensorx/labels/labelled_assign.h"
#include "tensorx/labels/labelled_darray.h"
#include "tensorx/labels/labelled_ops.h"
#include "tensorx/labels/windows.h"

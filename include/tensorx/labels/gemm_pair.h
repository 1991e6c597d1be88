// Running a planned pair contraction (pair_plan.h): operands that must be permuted are copied
// densely, then ONE gemm or batch_gemm of the compiled layer writes the result (through a dense
// temporary copied back when the result's layout does not merge). Type-erased and free of
// engines, so it runs on any place from any translation unit.
#pragma once

#include "tensorx/core/data_type.h"
#include "tensorx/labels/label_table.h"
#include "tensorx/labels/pair_plan.h"

namespace tensorx {
namespace detail {

/// c = alpha * x * y + beta * c as `plan` says (plan.gemm must be true); every operand of element
/// type `type`, on one place. Each copy and the GEMM count as one pass in tx::stats.
void run_gemm_pair(const PairPlan& plan, const LabelTable& table, const LabelledOperand& x,
                   const LabelledOperand& y, const LabelledOperand& c, DataType type, double alpha,
                   double beta);

}  // namespace detail
}  // namespace tensorx

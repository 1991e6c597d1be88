// The direct contraction in a build without CUDA: only GPU operands take it
// (src/labels/gemm_pair.cpp), and no GPU array can exist there.
#include "tensorx/core/error.h"
#include "tensorx/labels/direct_contraction.h"

namespace tensorx {
namespace detail {

void run_direct_contraction(const DirectContraction&, DataType, const LabelledOperand&,
                            const LabelledOperand&, const LabelledOperand& c) {
  throw DeviceError(message("cannot contract on ", c.place(),
                            ": tensorx was built without CUDA (TENSORX_WITH_CUDA=OFF)"));
}

}  // namespace detail
}  // namespace tensorx

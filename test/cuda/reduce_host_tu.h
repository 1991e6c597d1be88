// Reductions of plain GPU arrays evaluated in reduce_host_tu.cpp, a plain C++ translation unit
// (g++), where they run through the compiled layer; reduce_cuda_test.cu evaluates the same ones
// in a CUDA translation unit, where the header's kernels run, and compares the bits.
#pragma once

#include <cstdint>

#include "tensorx/array/array.h"
#include "tensorx/core/float16.h"

namespace tensorx {
namespace testing {
namespace host_tu {

Array<float, 0> sum(const Array<float, 1>& a);
Array<float16, 0> sum(const Array<float16, 1>& a);
Array<float, 1> row_means(const Array<float, 2>& m);
Array<float, 1> column_sums(const Array<float, 2>& m);
Array<std::int64_t, 1> row_argmax(const Array<float, 2>& m);
/// r += the row sums of m.
void add_row_sums(Array<float16, 1>& r, const Array<float16, 2>& m);

}  // namespace host_tu
}  // namespace testing
}  // namespace tensorx

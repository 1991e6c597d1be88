// The direct contraction's kernel (tensorx/labels/direct_contraction.h): a thread a row of the
// product, blockIdx.y (and its multiples) the block's batch, whose short operand the block stages
// in shared memory first (at most 288 x 16 doubles, 36 KB: within the 48 KB a launch may take
// without opting in). Compiled once here for the BLAS element types
// and the three column budgets, so that no user unit compiles it.
#include <cuda_runtime.h>

#include "tensorx/core/cuda_check.h"
#include "tensorx/core/error.h"
#include "tensorx/core/float16.h"
#include "tensorx/labels/direct_contraction.h"
#include "tensorx/memory/stream_order.h"
#include "tensorx/place/device.h"

namespace tensorx {
namespace detail {
namespace {

constexpr unsigned kDirectThreads = 256;
// A kernel's parameters had 4 KB before CUDA 12.1 (32 KB since, on Volta and later): the offset
// tables stay within the 4 KB, which every toolkit and driver takes.
static_assert(sizeof(DirectContraction) + 3 * sizeof(void*) <= 4096,
              "a DirectContraction outgrows a kernel's parameter space");
/// The most blocks along y; batches beyond it loop (CUDA's limit is 65535).
constexpr unsigned kMostBatchBlocks = 65535;

// The staged short operand: inner x Columns values of the compute type.
extern __shared__ __align__(16) unsigned char direct_staged[];

// __grid_constant__ keeps the parameter in constant memory where the threads index its offset
// tables, instead of a copy in each thread's local memory.
template <int Columns, class C, class T>
__global__ void __launch_bounds__(kDirectThreads)
    direct_contraction_kernel(const __grid_constant__ DirectContraction work, const T* long_data,
                              const T* short_data, T* c_data) {
  C* staged = reinterpret_cast<C*>(direct_staged);
  const std::uint32_t row = blockIdx.x * kDirectThreads + threadIdx.x;
  // The batch is the block's, the same for all its threads: they all reach each barrier.
  for (std::uint32_t batch = blockIdx.y; batch < work.batches; batch += gridDim.y) {
    if (batch != blockIdx.y) __syncthreads();  // every thread is done with the last batch's
    stage_direct_short<Columns>(work, batch, short_data, staged, static_cast<int>(threadIdx.x),
                                static_cast<int>(kDirectThreads));
    __syncthreads();
    if (row < work.rows) {
      contract_direct_row<Columns, C>(work, batch, row, long_data, staged, c_data);
    }
  }
}

template <int Columns, class C, class T>
void launch(const DirectContraction& work, const void* long_data, const void* short_data,
            void* c_data, StreamHandle stream) {
  const dim3 grid((work.rows + kDirectThreads - 1) / kDirectThreads,
                  work.batches < kMostBatchBlocks ? work.batches : kMostBatchBlocks);
  const std::size_t staged_bytes = static_cast<std::size_t>(work.inner) * Columns * sizeof(C);
  direct_contraction_kernel<Columns, C, T><<<grid, kDirectThreads, staged_bytes, stream>>>(
      work, static_cast<const T*>(long_data), static_cast<const T*>(short_data),
      static_cast<T*>(c_data));
  TENSORX_CUDA_CHECK(cudaGetLastError());
}

template <class C, class T>
void launch_for_columns(const DirectContraction& work, const void* long_data,
                        const void* short_data, void* c_data, StreamHandle stream) {
  switch (direct_column_budget(work.columns)) {
    case 4:
      launch<4, C, T>(work, long_data, short_data, c_data, stream);
      return;
    case 8:
      launch<8, C, T>(work, long_data, short_data, c_data, stream);
      return;
    default:
      launch<kDirectMaxColumns, C, T>(work, long_data, short_data, c_data, stream);
  }
}

Allocation* buffer_of(const LabelledOperand& operand) {
  return operand.allocated() ? operand.buffer->get() : nullptr;
}

}  // namespace

void run_direct_contraction(const DirectContraction& work, DataType type, const LabelledOperand& x,
                            const LabelledOperand& y, const LabelledOperand& c) {
  const int device = device_of(c.place());
  const cuda::DeviceGuard guard(device);
  StreamOrder order(device);
  order.read(buffer_of(x));
  order.read(buffer_of(y));
  order.write(buffer_of(c));
  const StreamHandle stream = order.stream();
  const std::size_t size = size_of(type);
  const LabelledOperand& long_side = work.long_is_x ? x : y;
  const LabelledOperand& short_side = work.long_is_x ? y : x;
  const void* long_data = long_side.data(size);
  const void* short_data = short_side.data(size);
  void* c_data = c.data(size);
  switch (type) {
    case DataType::kFloat32:
      launch_for_columns<float, float>(work, long_data, short_data, c_data, stream);
      return;
    case DataType::kFloat64:
      launch_for_columns<double, double>(work, long_data, short_data, c_data, stream);
      return;
    case DataType::kFloat16:
      launch_for_columns<float, float16>(work, long_data, short_data, c_data, stream);
      return;
    default:
      throw TypeError(message("a direct contraction of ", type,
                              " elements: only float, double and float16 take this route"));
  }
}

}  // namespace detail
}  // namespace tensorx

// DLPack on the GPU: device arrays export as kDLCUDA and come back without a copy; device,
// managed and pinned memory from a foreign producer import onto the right place, work in GPU
// expressions, are ordered across streams like tensorx's own memory, and go back to the producer
// exactly once, after tensorx's queued work. Every case needs a CUDA device; without one the
// program prints the skip line.
#include <cuda_runtime.h>

#include <cstdint>
#include <optional>

#include <boost/test/unit_test.hpp>

#include "support/cuda_test.h"
#include "support/random.h"
#include "support/spin_kernel.cuh"
#include "tensorx/tensorx.h"

namespace tx = tensorx;

namespace {

/// The memory kinds a CUDA producer (PyTorch, CuPy) exports, and where tensorx puts them.
enum class Memory { kDevice, kManaged, kPinned };

/// A producer's tensor over n floats of `memory`, laid out as `shape` (2-D) with `strides`; its
/// deleter frees the memory and counts the call.
struct CudaProducer {
  DLManagedTensorVersioned managed{};
  std::int64_t shape[2];
  std::int64_t strides[2];
  Memory memory;
  int* deletions;

  static DLManagedTensorVersioned* make(Memory memory, std::int64_t rows, std::int64_t columns,
                                        std::int64_t row_stride, std::uint64_t byte_offset,
                                        int* deletions) {
    auto* producer = new CudaProducer{{}, {rows, columns}, {row_stride, 1}, memory, deletions};
    const std::size_t bytes =
        static_cast<std::size_t>(rows * row_stride) * sizeof(float) + byte_offset;
    void* data = nullptr;
    DLDevice device{kDLCUDA, 0};
    if (memory == Memory::kDevice) {
      BOOST_TEST_REQUIRE(cudaMalloc(&data, bytes) == cudaSuccess);
    } else if (memory == Memory::kManaged) {
      BOOST_TEST_REQUIRE(cudaMallocManaged(&data, bytes) == cudaSuccess);
      device.device_type = kDLCUDAManaged;
    } else {
      BOOST_TEST_REQUIRE(cudaMallocHost(&data, bytes) == cudaSuccess);
      device.device_type = kDLCUDAHost;
    }
    DLManagedTensorVersioned& m = producer->managed;
    m.version = DLPackVersion{1, 0};
    m.manager_ctx = producer;
    m.deleter = [](DLManagedTensorVersioned* self) {
      auto* owner = static_cast<CudaProducer*>(self->manager_ctx);
      ++*owner->deletions;
      if (owner->memory == Memory::kPinned) {
        cudaFreeHost(self->dl_tensor.data);
      } else {
        cudaFree(self->dl_tensor.data);
      }
      delete owner;
    };
    m.dl_tensor = DLTensor{
        data,       device, 2, DLDataType{kDLFloat, 32, 1}, producer->shape, producer->strides,
        byte_offset};
    return &m;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(dlpack_cuda, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(device_arrays_export_as_cuda_memory_and_come_back_without_a_copy) {
  auto rng = tx::testing::make_rng(41);
  tx::Array<float, 2> host(tx::make_dim(3, 5));
  tx::testing::fill_random(host, rng);
  const auto gpu = tx::to(host, tx::CudaPlace(0));
  DLManagedTensorVersioned* tensor = tx::to_dlpack(gpu);
  BOOST_TEST(tensor->dl_tensor.device.device_type == kDLCUDA);
  BOOST_TEST(tensor->dl_tensor.device.device_id == 0);
  BOOST_TEST(tensor->dl_tensor.data == gpu.buffer()->data());

  auto back = tx::from_dlpack<float, 2>(tensor);
  BOOST_TEST(tx::is_gpu_place(back.place()));
  BOOST_TEST(back.data() == gpu.data());
  back = back * 2.0f;  // one kernel, writing the memory gpu shares
  const auto result = tx::to(gpu, tx::CpuPlace());
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 5; ++j) BOOST_TEST(result(i, j) == 2.0f * host(i, j));
  }
}

BOOST_AUTO_TEST_CASE(foreign_device_and_managed_memory_import_onto_the_gpu) {
  for (Memory memory : {Memory::kDevice, Memory::kManaged}) {
    int deletions = 0;
    // Rows of 8 floats of which the view uses 5, 16 bytes in.
    DLManagedTensorVersioned* tensor = CudaProducer::make(memory, 4, 5, 8, 16, &deletions);
    std::optional<tx::Array<float, 2>> a = tx::from_dlpack<float, 2>(tensor);
    BOOST_TEST(tx::is_gpu_place(a->place()));
    BOOST_TEST(a->strides() == tx::make_dim(8, 1));
    tx::fill(*a, 1.0f);
    std::optional<tx::Array<float, 1>> row = (*a)[2];
    *row = *row + 2.0f;  // a kernel that may still run when the views die
    const auto host = tx::to(*a, tx::CpuPlace());
    BOOST_TEST(host(2, 4) == 3.0f);
    BOOST_TEST(host(1, 4) == 1.0f);
    a.reset();
    BOOST_TEST(deletions == 0);
    row.reset();
    BOOST_TEST(deletions == 1);
  }
}

BOOST_AUTO_TEST_CASE(pinned_host_memory_imports_onto_the_cpu) {
  int deletions = 0;
  DLManagedTensorVersioned* tensor = CudaProducer::make(Memory::kPinned, 2, 3, 3, 0, &deletions);
  {
    const tx::DArray d = tx::from_dlpack(tensor);
    BOOST_TEST(tx::is_cpu_place(tx::place(d)));
    const auto a = d.as<float, 2>();
    a(1, 2) = 6.0f;  // host access: the memory is the host's
    BOOST_TEST(static_cast<float*>(tensor->dl_tensor.data)[5] == 6.0f);
  }
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_CASE(imported_device_memory_is_ordered_across_streams_like_tensorx_memory) {
  tx::testing::warm_spin_kernels<>();
  const tx::CudaPlace gpu(0);
  int deletions = 0;
  DLManagedTensorVersioned* tensor = CudaProducer::make(Memory::kDevice, 64, 48, 48, 0, &deletions);
  {
    auto a = tx::from_dlpack<float, 2>(tensor);
    tx::Array<float, 2> b(a.dims(), gpu);
    tx::Array<float, 2> c(a.dims(), gpu);
    tx::fill(b, 3.0f);
    a = b + 1.0f;  // loads the kernels below before the spin
    c = a * 2.0f;
    tx::fill(a, 0.0f);  // what a read that did not wait for the guarded write would see
    tx::synchronize();
    tx::Stream stream(gpu);
    {
      tx::StreamGuard guard(stream);
      tx::testing::delay(stream.handle());
      a = b + 1.0f;  // the imported memory written on the stream, after the spin
    }
    c = a * 2.0f;  // on the default stream: waits for the write only through a's stream record
    const auto host = tx::to(c, tx::CpuPlace());
    int stale = 0;
    for (int i = 0; i < 64; ++i) {
      for (int j = 0; j < 48; ++j) stale += host(i, j) != 8.0f;
    }
    BOOST_TEST(stale == 0, stale << " of 64 x 48 elements read before the guarded write");
  }
  BOOST_TEST(deletions == 1);
}

BOOST_AUTO_TEST_SUITE_END()

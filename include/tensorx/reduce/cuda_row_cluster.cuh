// Thread block clusters for the fused row kernels (cuda_row_engine.cuh): a row too long for one
// block to stage is cut into consecutive slices (row_slice), one per block of a cluster (compute
// capability 9.0 and later), each block staging its slice in its own shared memory. A block
// reduces its slice as a block team reduces a row; the blocks' values then meet in distributed
// shared memory, every thread of the cluster combining them in block order, so that the result is
// the same in every block and repeats bitwise; each block then writes its slice. The pass reads
// its operands from DRAM once whatever the row's length, where a block per row re-read a row that
// outgrew its shared memory from DRAM in every sweep.
//
// An exchange takes two cluster barriers: after the first, every block has read what the
// previous exchange left in its shared memory (and every block has started, as distributed shared
// memory asks); then each block writes its value into every block's shared memory, and after the
// second each reads the values from its own. A block's stores into another come before the second
// barrier, which that block cannot pass before them, and no block reads another's memory: so no
// block has to wait at the kernel's end for the others to be done with its memory (a
// cluster barrier after the item loop cost every loop of the block team's kernels two R2UR
// instructions and the layer_norm kernel spills at its 64 registers: SASS, sm_90).
//
// Host half: which devices and which code can run clusters, how many of a launch are resident,
// and the launch itself. Included by cuda_row_engine.cuh in CUDA translation units only.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "tensorx/core/config.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/engine/cuda_launch.cuh"
#include "tensorx/place/device.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
TENSORX_ENGINE_NAMESPACE_BEGIN

/// The most blocks of a cluster that owns a row: 16, the most an H100 or H200 schedules together
/// (a non-portable size, which each kernel enables once per device; where a device refuses it
/// the occupancy query finds no cluster of that size resident and the launch takes fewer).
constexpr int kMaxClusterBlocks = 16;
/// The most blocks of a cluster that every device of compute capability 9.0 schedules.
constexpr int kPortableClusterBlocks = 8;

/// This block's rank in its cluster, the cluster's index in the grid, and the clusters of the grid
/// (special registers; the host launches clusters only where they exist, max_cluster_blocks).
__device__ TENSORX_FORCE_INLINE int cluster_block_rank() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return static_cast<int>(__clusterRelativeBlockRank());
#else
  return 0;
#endif
}

__device__ TENSORX_FORCE_INLINE index_t cluster_index() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return static_cast<index_t>(__clusterIdx().x);
#else
  return static_cast<index_t>(blockIdx.x);
#endif
}

__device__ TENSORX_FORCE_INLINE index_t cluster_count() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  return static_cast<index_t>(__clusterGridDimInClusters().x);
#else
  return static_cast<index_t>(gridDim.x);
#endif
}

/// Waits for every thread of the cluster, each one's writes to shared memory (its block's or
/// another's) before it visible to all after it (barrier.cluster arrive.release, wait.acquire).
__device__ TENSORX_FORCE_INLINE void cluster_sync() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __cluster_barrier_arrive();
  __cluster_barrier_wait();
#endif
}

/// `value`, this block's combination of its slice, combined with those of the cluster's other
/// blocks in block order: the same result in every thread of the cluster. Every thread of the
/// cluster calls it (see the file comment).
template <class Op, class A>
__device__ TENSORX_FORCE_INLINE A cluster_combine(A value, int blocks) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ A published[kMaxClusterBlocks];  // block b's value in published[b]
  const unsigned rank = __clusterRelativeBlockRank();
  cluster_sync();  // every block has read the values of this function's previous call
  if (threadIdx.x < static_cast<unsigned>(blocks)) {
    *static_cast<A*>(__cluster_map_shared_rank(&published[rank], threadIdx.x)) = value;
  }
  cluster_sync();  // every block's value is in every block
  A total = published[0];
#pragma unroll 1
  for (int block = 1; block < blocks; ++block) total = Op::combine(total, published[block]);
  return total;
#else
  // The host launches clusters only for code compiled for compute capability 9.0 or later
  // (max_cluster_blocks).
  static_cast<void>(blocks);
  __trap();
  return value;
#endif
}

/// A kernel of this translation unit that does nothing: the compute capability its code was
/// compiled for, as the runtime chose it for a device, is that of every kernel of the unit.
template <int kUnused>
__global__ void cluster_probe_kernel() {}

/// The most blocks a cluster of this translation unit's fused kernels may have on `device`:
/// kMaxClusterBlocks where the device launches clusters and the code the runtime
/// runs there was compiled for compute capability 9.0 or later (PTX or machine code), else 1.
/// Asked once per device and unit, on the first pass that needs it there (no other device is
/// touched).
inline int max_cluster_blocks(int device) {
  static const std::unique_ptr<std::atomic<int>[]> most = [] {
    const auto devices = static_cast<std::size_t>(cuda::device_count());
    std::unique_ptr<std::atomic<int>[]> unknown(new std::atomic<int>[devices]);
    for (std::size_t d = 0; d < devices; ++d) unknown[d].store(0, std::memory_order_relaxed);
    return unknown;
  }();
  std::atomic<int>& known = most[static_cast<std::size_t>(device)];
  int blocks = known.load(std::memory_order_acquire);
  if (blocks == 0) {  // not asked yet (two threads asking at once get the same answer)
    int clusters = 0;
    TENSORX_CUDA_CHECK(cudaDeviceGetAttribute(&clusters, cudaDevAttrClusterLaunch, device));
    blocks = 1;
    if (clusters != 0) {
      const cuda::DeviceGuard guard(device);
      cudaFuncAttributes attributes{};
      TENSORX_CUDA_CHECK(cudaFuncGetAttributes(
          &attributes, reinterpret_cast<const void*>(cluster_probe_kernel<0>)));
      if (attributes.ptxVersion >= 90 && attributes.binaryVersion >= 90) {
        blocks = kMaxClusterBlocks;
      }
    }
    known.store(blocks, std::memory_order_release);
  }
  return blocks;
}

/// The share of shared memory a block of a cluster keeps to on `device`: a third of a
/// multiprocessor's, less what the runtime reserves for each block and `static_bytes` of the
/// kernel's own (choose_row_staging says why).
inline std::size_t cluster_share(int device, std::size_t static_bytes) {
  static const std::vector<std::size_t> shares = [] {
    std::vector<std::size_t> result(static_cast<std::size_t>(cuda::device_count()));
    for (std::size_t d = 0; d < result.size(); ++d) {
      int per_multiprocessor = 0, reserved = 0;
      TENSORX_CUDA_CHECK(cudaDeviceGetAttribute(
          &per_multiprocessor, cudaDevAttrMaxSharedMemoryPerMultiprocessor, static_cast<int>(d)));
      TENSORX_CUDA_CHECK(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock,
                                                static_cast<int>(d)));
      const std::size_t third = static_cast<std::size_t>(per_multiprocessor) / 3;
      result[d] = third > static_cast<std::size_t>(reserved) ? third - reserved : 0;
    }
    return result;
  }();
  const std::size_t share = shares[static_cast<std::size_t>(device)];
  return share > static_bytes ? share - static_bytes : 0;
}

/// The launch configuration of `blocks` blocks of kCudaThreads threads in clusters of `cluster`
/// blocks, `bytes` of dynamic shared memory each, on `stream`; `attribute` holds the cluster's
/// size and must outlive the configuration.
inline cudaLaunchConfig_t cluster_launch_config(unsigned blocks, int cluster, std::size_t bytes,
                                                StreamHandle stream,
                                                cudaLaunchAttribute* attribute) {
  attribute->id = cudaLaunchAttributeClusterDimension;
  attribute->val.clusterDim.x = static_cast<unsigned>(cluster);
  attribute->val.clusterDim.y = 1;
  attribute->val.clusterDim.z = 1;
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(kCudaThreads);
  config.dynamicSmemBytes = bytes;
  config.stream = stream;
  config.attrs = attribute;
  config.numAttrs = 1;
  return config;
}

/// The clusters of `cluster` blocks with `bytes` of dynamic shared memory each that kernel
/// `entry` keeps resident on the current device at once (0: none fits). Lets the kernel use
/// clusters of more than kPortableClusterBlocks first, once per device (`non_portable_allowed`,
/// the caller's flag for the kernel and device).
inline int resident_clusters(const void* entry, int cluster, std::size_t bytes,
                             std::atomic<bool>& non_portable_allowed) {
  if (cluster > kPortableClusterBlocks && !non_portable_allowed.load(std::memory_order_acquire)) {
    // Setting it again is harmless: two threads that both see it unset do no wrong.
    if (cudaFuncSetAttribute(entry, cudaFuncAttributeNonPortableClusterSizeAllowed, 1) !=
        cudaSuccess) {
      static_cast<void>(cudaGetLastError());  // a device that refuses: fewer blocks then
      return 0;
    }
    non_portable_allowed.store(true, std::memory_order_release);
  }
  cudaLaunchAttribute attribute;
  const cudaLaunchConfig_t config =
      cluster_launch_config(static_cast<unsigned>(cluster), cluster, bytes, nullptr, &attribute);
  int clusters = 0;
  if (cudaOccupancyMaxActiveClusters(&clusters, entry, &config) != cudaSuccess) {
    static_cast<void>(cudaGetLastError());  // a size the device cannot schedule: none resident
    return 0;
  }
  return clusters;
}

TENSORX_ENGINE_NAMESPACE_END
}  // namespace detail
}  // namespace tensorx

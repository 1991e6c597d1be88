// Streams: every GPU operation of tensorx is ordered on the calling thread's current stream of its
// device. A StreamGuard makes a Stream current for one scope; the default is the device's legacy
// default stream. Host reads of GPU data synchronise; everything else is asynchronous.
#pragma once

#include "tensorx/place/place.h"

// The CUDA runtime's stream type is `CUstream_st*` (cudaStream_t): naming it here keeps this
// header free of cuda_runtime.h while staying the very same type in CUDA translation units.
struct CUstream_st;

namespace tensorx {

/// A CUDA stream handle, identical to cudaStream_t; nullptr is the legacy default stream.
using StreamHandle = CUstream_st*;

/// An owned, non-blocking CUDA stream on one device.
class Stream {
 public:
  /// Creates a stream on `place`'s device; throws DeviceError where that device is not usable.
  explicit Stream(CudaPlace place = CudaPlace(0));
  ~Stream();
  Stream(Stream&& other) noexcept;
  Stream& operator=(Stream&& other) noexcept;
  Stream(const Stream&) = delete;
  Stream& operator=(const Stream&) = delete;

  StreamHandle handle() const { return handle_; }
  CudaPlace place() const { return place_; }
  /// Blocks until every operation queued on this stream has finished.
  void synchronize() const;

 private:
  StreamHandle handle_ = nullptr;
  CudaPlace place_;
};

/// Makes `stream` the calling thread's current stream on its device for one scope.
class StreamGuard {
 public:
  explicit StreamGuard(const Stream& stream);
  ~StreamGuard();
  StreamGuard(const StreamGuard&) = delete;
  StreamGuard& operator=(const StreamGuard&) = delete;

 private:
  int device_;
  StreamHandle previous_;
};

/// The calling thread's current stream on `device`.
StreamHandle current_stream(int device);

/// Blocks until all work queued on `place` has finished (a no-op for the CPU).
void synchronize(const Place& place);

/// Blocks until all work queued on every CUDA device has finished (a no-op without GPUs).
void synchronize();

}  // namespace tensorx

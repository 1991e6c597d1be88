// The CUDA side of the installed-tensorx test: the public header compiled by nvcc, Dim used in a
// kernel, and an Array on GPU 0 written by that kernel and read back (where a GPU is present).
#include <cstdio>

#include <tensorx/tensorx.h>

namespace tx = tensorx;

namespace {

__global__ void write_strides(tx::Dim<3> dims, tx::index_t* out) {
  const tx::Dim<3> strides = tx::contiguous_strides(dims);
  out[0] = tx::get<0>(strides);
  out[1] = tx::get<1>(strides);
  out[2] = tx::get<2>(strides);
  out[3] = tx::product(dims);
}

}  // namespace

int main() {
  if (!tx::cuda::compiled_with_cuda()) {
    std::fprintf(stderr, "FAILED: tensorx_WITH_CUDA is ON but the compiled layer has no CUDA\n");
    return 1;
  }
  if (tx::cuda::device_count() == 0) {
    std::printf("no CUDA device, kernel not run: %s\n", tx::cuda::unavailable_reason());
    return 0;
  }
  tx::Array<tx::index_t, 1> out(tx::make_dim(4), tx::CudaPlace(0));
  write_strides<<<1, 1>>>(tx::make_dim(2, 3, 4), out.data());
  const cudaError_t launch = cudaGetLastError();
  if (launch != cudaSuccess) {
    std::fprintf(stderr, "FAILED: kernel launch: %s\n", cudaGetErrorString(launch));
    return 1;
  }
  const tx::Array<tx::index_t, 1> host = tx::to(out, tx::CpuPlace());
  if (host(0) != 12 || host(1) != 4 || host(2) != 1 || host(3) != 24) {
    std::fprintf(stderr, "FAILED: Dim in device code\n");
    return 1;
  }
  std::printf("install test (CUDA) passed\n");
  return 0;
}

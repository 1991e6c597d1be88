// Tensor Comprehensions' transposed batched matrix multiplication, Z(b,n,k) = sum_m X(b,n,m)
// Y(b,k,m), at the paper's size (B, N, M, K) = (500, 26, 72, 26): b is on both sides of the
// product and on the left, so it is a batch label and the assignment is ONE batch_gemm. Checked
// against plain loops; exits non-zero past the tolerance.
#include "tc_support.h"

int main() {
  using namespace tc_example;
  const index_t B = 500, N = 26, M = 72, K = 26;
  bool ok = true;
  for (const tx::Place& place : places()) {
    const auto x = random_array<float>(tx::make_dim(B, N, M), place, 3);
    const auto y = random_array<float>(tx::make_dim(B, K, M), place, 4);
    tx::Array<float, 3> z;

    z("b,n,k") = x("b,n,m") * y("b,k,m");

    const auto hx = tx::to(x, tx::CpuPlace());
    const auto hy = tx::to(y, tx::CpuPlace());
    ok &= check(
        "tbmm 500x26x72x26 on " + name(place), z,
        [&](const tx::Dim<3>& i) {
          double sum = 0;
          for (index_t m = 0; m < M; ++m) {
            sum += double(hx(i[0], i[1], m)) * double(hy(i[0], i[2], m));
          }
          return sum;
        },
        1e-5 * double(M));
  }
  return ok ? 0 : 1;
}

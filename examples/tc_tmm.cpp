// Tensor Comprehensions' transposed matrix multiplication, C(m,n) = sum_k A(m,k) B(n,k), at the
// paper's sizes, written as one labelled assignment: one GEMM whose second operand is read
// transposed in place (a BLAS flag, no copy). Checked against plain loops (every element at the
// two smaller sizes, every 97th at the largest); exits non-zero past the tolerance.
#include "tc_support.h"

int main() {
  using namespace tc_example;
  const index_t sizes[][3] = {{128, 256, 32}, {128, 1024, 1024}, {128, 16384, 4096}};
  bool ok = true;
  for (const tx::Place& place : places()) {
    for (const auto& size : sizes) {
      const index_t M = size[0], N = size[1], K = size[2];
      const auto a = random_array<float>(tx::make_dim(M, K), place, 1);
      const auto b = random_array<float>(tx::make_dim(N, K), place, 2);
      tx::Array<float, 2> c;

      c("m,n") = a("m,k") * b("n,k");

      const auto ha = tx::to(a, tx::CpuPlace());
      const auto hb = tx::to(b, tx::CpuPlace());
      ok &= check(
          tx::detail::message("tmm ", M, "x", N, "x", K, " on ", name(place)), c,
          [&](const tx::Dim<2>& i) {
            double sum = 0;
            for (index_t k = 0; k < K; ++k) sum += double(ha(i[0], k)) * double(hb(i[1], k));
            return sum;
          },
          1e-5 * double(K), M * N > (1 << 20) ? 97 : 1);
    }
  }
  return ok ? 0 : 1;
}

// Tensor Comprehensions' grouped convolution (stride 1, no padding, 3 x 3 kernels, NCHW):
//   O(n,g,f,h,w) = sum_{c,kh,kw} I(n,g,c,h+kh,w+kw) W(g,f,c,kh,kw) + bias(g,f)
// at the paper's sizes (N,G,F,C,W,H) = (32,32,16,16,14,14) and (32,32,4,4,56,56). tx::windows
// views the 3 x 3 neighbourhoods of every pixel without copying, so the convolution is a labelled
// contraction with g a batch label: one batch_gemm (the input's window axes do not merge into
// one stride, so it is copied once in GEMM order: im2col), then one pass adding the bias (the
// left side's labels must all come from the right side, so it reads `out` there, as TC writes it).
// Checked against plain loops; exits non-zero past the tolerance.
#include "tc_support.h"

int main() {
  using namespace tc_example;
  const index_t sizes[][6] = {{32, 32, 16, 16, 14, 14}, {32, 32, 4, 4, 56, 56}};
  bool ok = true;
  for (const tx::Place& place : places()) {
    for (const auto& size : sizes) {
      const index_t N = size[0], G = size[1], F = size[2], C = size[3], W = size[4], H = size[5];
      const auto in = random_array<float>(tx::make_dim(N, G, C, H, W), place, 5);
      const auto weights = random_array<float>(tx::make_dim(G, F, C, 3, 3), place, 6);
      const auto bias = random_array<float>(tx::make_dim(G, F), place, 7);
      tx::Array<float, 5> out;

      out("n,g,f,h,w") =
          tx::windows(in, tx::make_dim(3, 3))("n,g,c,h,w,kh,kw") * weights("g,f,c,kh,kw");
      out("n,g,f,h,w") = out("n,g,f,h,w") + bias("g,f");

      const auto hi = tx::to(in, tx::CpuPlace());
      const auto hw = tx::to(weights, tx::CpuPlace());
      const auto hb = tx::to(bias, tx::CpuPlace());
      ok &= check(
          tx::detail::message("gconv ", N, ",", G, ",", F, ",", C, ",", W, ",", H, " on ",
                              name(place)),
          out,
          [&](const tx::Dim<5>& i) {
            double sum = hb(i[1], i[2]);
            for (index_t c = 0; c < C; ++c) {
              for (index_t kh = 0; kh < 3; ++kh) {
                for (index_t kw = 0; kw < 3; ++kw) {
                  sum += double(hi(i[0], i[1], c, i[3] + kh, i[4] + kw)) *
                         double(hw(i[1], i[2], c, kh, kw));
                }
              }
            }
            return sum;
          },
          1e-5 * double(C * 9));
    }
  }
  return ok ? 0 : 1;
}

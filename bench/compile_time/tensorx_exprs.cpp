// The compile-time benchmark's tensorx unit: 20 typical fused expressions, each one assignment,
// as a user's translation unit would hold them. bench/compile_time/run compiles it against
// eigen_exprs.cpp, the same expressions written with Eigen Tensor on a thread pool.
#include <tensorx/tensorx.h>

namespace tx = tensorx;

void expressions(tx::Array<float, 1>& a, tx::Array<float, 1>& b, tx::Array<float, 1>& c,
                 tx::Array<float, 1>& d, tx::Array<float, 2>& m, tx::Array<float, 2>& x,
                 tx::Array<float, 2>& t, tx::Array<float, 1>& bias, tx::Array<float, 1>& rows,
                 tx::Array<float, 1>& columns, tx::Array<float, 0>& total,
                 tx::Array<std::int64_t, 1>& positions, tx::Array<double, 1>& wide) {
  c = a * b + 2.0f * d;                                // 1 triad
  c = tx::sigmoid(a);                                  // 2 sigmoid
  m = x + bias;                                        // 3 bias add
  c = tx::where(a > 0.0f, a, 0.1f * a);                // 4 leaky relu
  c = tx::clip(a, -1.0f, 1.0f);                        // 5 clip
  c = tx::pow(a, 2.5f);                                // 6 pow
  t = tx::transpose(m);                                // 7 transpose
  total = tx::sum(a);                                  // 8 full sum
  rows = tx::sum<1>(m);                                // 9 row sum
  columns = tx::max<0>(m);                             // 10 column max
  c = tx::exp(a) - tx::log1p(tx::abs(b));              // 11 exp, log1p
  c = tx::tanh(a) * b;                                 // 12 tanh
  c = tx::maximum(a, b);                               // 13 maximum
  m = tx::relu(x * 2.0f + bias);                       // 14 relu of a bias add
  c = tx::sqrt(tx::abs(a)) + tx::rsqrt(1.0f + a * a);  // 15 sqrt, rsqrt
  c += a * b;                                          // 16 accumulate
  rows = tx::mean<1>(m);                               // 17 row mean
  positions = tx::argmax<1>(m);                        // 18 row argmax
  c = tx::cast<float>(wide) * 2.0f;                    // 19 cast
  m = x * bias - t;                                    // 20 broadcast with a second matrix
}

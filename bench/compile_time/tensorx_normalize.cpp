// The compile-time benchmark's normalisation unit: 10 normalisations along rows, each ONE
// assignment that row-local fusion runs as one pass (DESIGN.md section 10): six library functions
// and four forms written out by a user. bench/compile_time/run compiles it against
// tensorx_normalize_multi_pass.cpp, the same 10 with their reductions materialised first.
#include <tensorx/tensorx.h>

namespace tx = tensorx;

void normalisations(tx::Array<float, 2>& x, tx::Array<float, 2>& y, tx::Array<float, 2>& per_row,
                    tx::Array<float, 1>& rows, tx::Array<float, 1>& gamma,
                    tx::Array<float, 1>& beta, float temperature) {
  y = tx::softmax<1>(x);                         // 1 softmax
  y = tx::log_softmax<1>(x);                     // 2 log_softmax
  per_row = tx::logsumexp<1>(x, tx::keepdims);   // 3 logsumexp
  y = tx::layer_norm<1>(x, gamma, beta, 1e-5f);  // 4 layer_norm
  y = tx::rms_norm<1>(x, gamma, 1e-6f);          // 5 rms_norm
  rows = tx::var<1>(x);                          // 6 variance
  // 7 softmax with a temperature
  y = tx::exp((x - tx::max<1>(x, tx::keepdims)) / temperature) /
      tx::sum<1>(tx::exp((x - tx::max<1>(x, tx::keepdims)) / temperature), tx::keepdims);
  // 8 standardised rows
  y = (x - tx::mean<1>(x, tx::keepdims)) * tx::rsqrt(tx::var<1>(x, tx::keepdims) + 1e-5f);
  // 9 unit rows (L2)
  y = x * tx::rsqrt(tx::sum<1>(tx::square(x), tx::keepdims) + 1e-12f);
  y = x / tx::max<1>(tx::abs(x), tx::keepdims);  // 10 rows scaled by their largest
}

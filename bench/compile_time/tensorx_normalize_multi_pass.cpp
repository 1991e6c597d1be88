// The compile-time benchmark's multi-pass normalisation unit: the 10 normalisations of
// tensorx_normalize.cpp with their reductions (and the subexpressions that a reduction and the
// output share) materialised into named arrays first, as tensorx ran them before row-local
// fusion: 2 to 4 assignments each, none of them with a reduction inside an expression.
#include <tensorx/tensorx.h>

namespace tx = tensorx;

void normalisations(tx::Array<float, 2>& x, tx::Array<float, 2>& y, tx::Array<float, 2>& per_row,
                    tx::Array<float, 1>& rows, tx::Array<float, 1>& gamma,
                    tx::Array<float, 1>& beta, float temperature) {
  tx::Array<float, 2> m(per_row.dims()), s(per_row.dims()), e(x.dims());
  m = tx::max<1>(x, tx::keepdims);  // 1 softmax
  e = tx::exp(x - m);
  s = tx::sum<1>(e, tx::keepdims);
  y = e / s;
  m = tx::max<1>(x, tx::keepdims);  // 2 log_softmax
  e = x - m;
  s = tx::sum<1>(tx::exp(e), tx::keepdims);
  y = e - tx::log(s);
  m = tx::max<1>(x, tx::keepdims);  // 3 logsumexp
  s = tx::sum<1>(tx::exp(x - m), tx::keepdims);
  per_row = m + tx::log(s);
  m = tx::mean<1>(x, tx::keepdims);  // 4 layer_norm
  e = x - m;
  s = tx::mean<1>(tx::square(e), tx::keepdims);
  y = e * tx::rsqrt(s + 1e-5f) * gamma + beta;
  s = tx::mean<1>(tx::square(x), tx::keepdims);  // 5 rms_norm
  y = x * tx::rsqrt(s + 1e-6f) * gamma;
  m = tx::mean<1>(x, tx::keepdims);  // 6 variance
  rows = tx::mean<1>(tx::square(x - m));
  m = tx::max<1>(x, tx::keepdims);  // 7 softmax with a temperature
  e = tx::exp((x - m) / temperature);
  s = tx::sum<1>(e, tx::keepdims);
  y = e / s;
  m = tx::mean<1>(x, tx::keepdims);  // 8 standardised rows
  e = x - m;
  s = tx::mean<1>(tx::square(e), tx::keepdims);
  y = e * tx::rsqrt(s + 1e-5f);
  s = tx::sum<1>(tx::square(x), tx::keepdims);  // 9 unit rows (L2)
  y = x * tx::rsqrt(s + 1e-12f);
  m = tx::max<1>(tx::abs(x), tx::keepdims);  // 10 rows scaled by their largest
  y = x / m;
}

// The compile-time benchmark's wider tensorx unit: 20 fused assignments as a user's real
// translation unit holds them (a dense layer's forward and backward steps, attention scores, a
// recurrent step, image layers): ranks 1 to 4, broadcasting, reductions kept inside expressions
// and to a lower rank, transposes, views, float16 and compound assignments.
// eigen_real_unit.cpp holds the same 20 written with Eigen Tensor on a thread pool.
#include <tensorx/tensorx.h>

namespace tx = tensorx;

void dense_layers(tx::Array<float, 2>& x, tx::Array<float, 2>& y, tx::Array<float, 2>& z,
                  tx::Array<float, 2>& xt, tx::Array<float, 2>& col, tx::Array<float, 2>& wide,
                  tx::Array<float, 1>& bias, tx::Array<float, 1>& gamma, tx::Array<float, 1>& beta,
                  tx::Array<float, 1>& rows, tx::Array<float, 1>& columns,
                  tx::Array<tx::float16, 2>& h, tx::Array<tx::float16, 2>& g) {
  const tx::index_t c = x.dims()[1];
  rows =
      tx::max<1>(x) + tx::log(tx::sum<1>(tx::exp(x - tx::max<1>(x, tx::keepdims))));  // 1 logsumexp
  y = (x - tx::mean<1>(x, tx::keepdims)) * tx::rsqrt(tx::var<1>(x, tx::keepdims) + 1e-5f) * gamma +
      beta;                                                                    // 2 layer norm
  y = x / tx::sqrt(tx::sum<1>(x * x, tx::keepdims) + 1e-12f);                  // 3 L2 row norm
  y = 0.5f * x * (1.0f + tx::tanh(0.7978846f * (x + 0.044715f * x * x * x)));  // 4 gelu
  y = tx::slice(wide, 1, 0, c) * tx::sigmoid(tx::slice(wide, 1, c, 2 * c));    // 5 GLU
  y = (x + bias) * tx::sigmoid(x + bias);                                      // 6 silu
  y = tx::clip(x / col, -3.0f, 3.0f);                                          // 7 size-1 axis
  xt = tx::transpose(x) * rows;                                                // 8 transpose
  y += 0.01f * tx::pow(tx::abs(x), 1.5f);                                      // 9 accumulate
  x -= 0.001f * y / (tx::sqrt(z) + 1e-8f);                                     // 10 Adam-like step
  y *= tx::where(x > 0.0f, 1.0f, tx::exp(x));                                  // 11 ELU backward
  columns = tx::sum<0>(y);                                                     // 12 bias gradient
  h = tx::cast<tx::float16>(tx::relu(x + bias));                               // 13 to float16
  y += tx::cast<float>(h * tx::sigmoid(g));                                    // 14 float16 gate
}

void sequence_and_image_layers(tx::Array<float, 3>& s, tx::Array<float, 3>& p,
                               tx::Array<float, 3>& mask, tx::Array<float, 3>& u,
                               tx::Array<float, 3>& hs, tx::index_t t, tx::Array<float, 4>& img,
                               tx::Array<float, 4>& out, tx::Array<float, 4>& mu,
                               tx::Array<float, 4>& var, tx::Array<float, 2>& pooled) {
  s = tx::where(mask > 0.0f, s * 0.125f, -1e9f);  // 15 masked scaled scores
  p = tx::exp(s - tx::max<2>(s, tx::keepdims)) /
      tx::sum<2>(tx::exp(s - tx::max<2>(s, tx::keepdims)), tx::keepdims);  // 16 softmax
  hs[t] = tx::tanh(u[t] + 0.5f * hs[t - 1]);                   // 17 recurrent step, views
  out = tx::relu((img - mu) * tx::rsqrt(var + 1e-5f));         // 18 batch norm, relu
  pooled = tx::mean<2, 3>(img);                                // 19 global average pool
  out = img * tx::sigmoid(tx::mean<2, 3>(img, tx::keepdims));  // 20 squeeze-excite gate
}

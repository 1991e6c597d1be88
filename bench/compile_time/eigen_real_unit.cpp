// The compile-time benchmark's wider Eigen unit: the 20 assignments of tensorx_real_unit.cpp
// written with Eigen Tensor, evaluated on a ThreadPoolDevice (Eigen's threaded path, as tensorx's
// are threaded). Keepdims and row vectors are reshape and broadcast, transposes shuffle, views
// slice and chip, float16 Eigen::half; TensorDevice has no *=, so 11 is written y = y * (...).
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

using Index2 = Eigen::array<Eigen::Index, 2>;
using Vector = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>>;
using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
using Tensor3 = Eigen::TensorMap<Eigen::Tensor<float, 3, Eigen::RowMajor>>;
using Tensor4 = Eigen::TensorMap<Eigen::Tensor<float, 4, Eigen::RowMajor>>;
using Half = Eigen::TensorMap<Eigen::Tensor<Eigen::half, 2, Eigen::RowMajor>>;

void dense_layers(const Eigen::ThreadPoolDevice& device, Matrix& x, Matrix& y, Matrix& z,
                  Matrix& xt, Matrix& col, Matrix& wide, Vector& bias, Vector& gamma, Vector& beta,
                  Vector& rows, Vector& columns, Half& h, Half& g) {
  const Eigen::Index n = x.dimension(0), c = x.dimension(1);
  const Eigen::array<Eigen::Index, 1> axis0{0}, axis1{1};
  const Index2 keep{n, 1}, across{1, c}, left{0, 0}, right{0, c}, half{n, c};
  const auto per_row = [&](const auto& r) { return r.reshape(keep).broadcast(across); };
  const auto each_row = [](const Vector& v, Eigen::Index count) {
    return v.reshape(Index2{1, v.dimension(0)}).broadcast(Index2{count, 1});
  };
  rows.device(device) =
      x.maximum(axis1) + (x - per_row(x.maximum(axis1))).exp().sum(axis1).log();  // 1
  y.device(device) =
      (x - per_row(x.mean(axis1))) *
          (per_row((x - per_row(x.mean(axis1))).square().mean(axis1)) + 1e-5f).rsqrt() *
          each_row(gamma, n) +
      each_row(beta, n);                                                                     // 2
  y.device(device) = x / (per_row((x * x).sum(axis1)) + 1e-12f).sqrt();                      // 3
  y.device(device) = 0.5f * x * (((x + 0.044715f * x * x * x) * 0.7978846f).tanh() + 1.0f);  // 4
  y.device(device) = wide.slice(left, half) * wide.slice(right, half).sigmoid();             // 5
  y.device(device) = (x + each_row(bias, n)) * (x + each_row(bias, n)).sigmoid();            // 6
  y.device(device) = (x / col.broadcast(across)).cwiseMax(-3.0f).cwiseMin(3.0f);             // 7
  xt.device(device) = x.shuffle(Index2{1, 0}) * each_row(rows, c);                           // 8
  y.device(device) += 0.01f * x.abs().pow(1.5f);                                             // 9
  x.device(device) -= 0.001f * y / (z.sqrt() + 1e-8f);                                       // 10
  y.device(device) = y * (x > x.constant(0.0f)).select(x.constant(1.0f), x.exp());           // 11
  columns.device(device) = y.sum(axis0);                                                     // 12
  h.device(device) = (x + each_row(bias, n)).cwiseMax(0.0f).cast<Eigen::half>();             // 13
  y.device(device) += (h * g.sigmoid()).cast<float>();                                       // 14
}

void sequence_and_image_layers(const Eigen::ThreadPoolDevice& device, Tensor3& s, Tensor3& p,
                               Tensor3& mask, Tensor3& u, Tensor3& hs, Eigen::Index t, Tensor4& img,
                               Tensor4& out, Tensor4& mu, Tensor4& var, Matrix& pooled) {
  using Index3 = Eigen::array<Eigen::Index, 3>;
  using Index4 = Eigen::array<Eigen::Index, 4>;
  const Eigen::Index b = s.dimension(0), q = s.dimension(1), k = s.dimension(2);
  const Eigen::Index n = img.dimension(0), c = img.dimension(1);
  const Eigen::Index rows = img.dimension(2), columns = img.dimension(3);
  const Eigen::array<Eigen::Index, 1> axis2{2};
  const Eigen::array<Eigen::Index, 2> plane{2, 3};
  const auto per_row = [&](const auto& r) {
    return r.reshape(Index3{b, q, 1}).broadcast(Index3{1, 1, k});
  };
  const auto per_channel = [&](const auto& r) {
    return r.reshape(Index4{n, c, 1, 1}).broadcast(Index4{1, 1, rows, columns});
  };
  const Index4 batch_and_plane{n, 1, rows, columns};
  s.device(device) = (mask.broadcast(Index3{1, q, 1}) > s.constant(0.0f))
                         .select(s * 0.125f, s.constant(-1e9f));  // 15
  p.device(device) = (s - per_row(s.maximum(axis2))).exp() /
                     per_row((s - per_row(s.maximum(axis2))).exp().sum(axis2));     // 16
  hs.chip(t, 0).device(device) = (u.chip(t, 0) + 0.5f * hs.chip(t - 1, 0)).tanh();  // 17
  out.device(device) =
      ((img - mu.broadcast(batch_and_plane)) * (var.broadcast(batch_and_plane) + 1e-5f).rsqrt())
          .cwiseMax(0.0f);                                            // 18
  pooled.device(device) = img.mean(plane);                            // 19
  out.device(device) = img * per_channel(img.mean(plane)).sigmoid();  // 20
}

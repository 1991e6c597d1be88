// The compile-time benchmark's Eigen unit: the 20 expressions of tensorx_exprs.cpp written with
// Eigen Tensor, evaluated on a ThreadPoolDevice (Eigen's threaded path, as tensorx's are threaded).
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

#include <cstdint>

using Vector = Eigen::TensorMap<Eigen::Tensor<float, 1, Eigen::RowMajor>>;
using Matrix = Eigen::TensorMap<Eigen::Tensor<float, 2, Eigen::RowMajor>>;
using Scalar = Eigen::TensorMap<Eigen::Tensor<float, 0, Eigen::RowMajor>>;
using Positions = Eigen::TensorMap<Eigen::Tensor<std::int64_t, 1, Eigen::RowMajor>>;
using Wide = Eigen::TensorMap<Eigen::Tensor<double, 1, Eigen::RowMajor>>;

void expressions(const Eigen::ThreadPoolDevice& device, Vector& a, Vector& b, Vector& c, Vector& d,
                 Matrix& m, Matrix& x, Matrix& t, Vector& bias, Vector& rows, Vector& columns,
                 Scalar& total, Positions& positions, Wide& wide) {
  const Eigen::array<Eigen::Index, 2> stretch{x.dimension(0), 1};
  const Eigen::array<Eigen::Index, 2> as_row{1, bias.dimension(0)};
  const Eigen::array<Eigen::Index, 1> axis1{1}, axis0{0};
  const Eigen::array<int, 2> swap{1, 0};
  const auto b2 = bias.reshape(as_row).broadcast(stretch);
  c.device(device) = a * b + d * 2.0f;                            // 1
  c.device(device) = a.sigmoid();                                 // 2
  m.device(device) = x + b2;                                      // 3
  c.device(device) = (a > a.constant(0.0f)).select(a, a * 0.1f);  // 4
  c.device(device) = a.cwiseMax(-1.0f).cwiseMin(1.0f);            // 5
  c.device(device) = a.pow(2.5f);                                 // 6
  t.device(device) = m.shuffle(swap);                             // 7
  total.device(device) = a.sum();                                 // 8
  rows.device(device) = m.sum(axis1);                             // 9
  columns.device(device) = m.maximum(axis0);                      // 10
  c.device(device) = a.exp() - b.abs().log1p();                   // 11
  c.device(device) = a.tanh() * b;                                // 12
  c.device(device) = a.cwiseMax(b);                               // 13
  m.device(device) = (x * 2.0f + b2).cwiseMax(0.0f);              // 14
  c.device(device) = a.abs().sqrt() + (a * a + 1.0f).rsqrt();     // 15
  c.device(device) += a * b;                                      // 16
  rows.device(device) = m.mean(axis1);                            // 17
  positions.device(device) = m.argmax(1).cast<std::int64_t>();    // 18
  c.device(device) = wide.cast<float>() * 2.0f;                   // 19
  m.device(device) = x * b2 - t;                                  // 20
}

// The compile-time benchmark's smallest Eigen unit: the Tensor module with its thread pool.
#define EIGEN_USE_THREADS
#include <unsupported/Eigen/CXX11/Tensor>

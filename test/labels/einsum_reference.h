// The independent reference of the labelled tests: Einstein summation by brute force in double
// precision. Operands are host copies read element by element with their labels (one character
// each); the result loops over every value of every label and adds the product of the operands'
// elements into the element named by the left side's labels.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "support/reference.h"
#include "support/test_place.h"
#include "tensorx/array/array.h"
#include "tensorx/array/array_view.h"

namespace tensorx {
namespace testing {

/// An operand of the reference: its elements in row-major order, extents and one-letter labels.
struct RefOperand {
  std::vector<double> values;
  std::vector<index_t> dims;
  std::string labels;

  double at(const std::map<char, index_t>& value_of) const {
    index_t flat = 0;
    for (std::size_t axis = 0; axis < labels.size(); ++axis) {
      flat = flat * dims[axis] + value_of.at(labels[axis]);
    }
    return values[static_cast<std::size_t>(flat)];
  }
};

/// The reference operand of an array on any place (any strides) labelled `labels`.
template <class T, int N>
RefOperand ref(const Array<T, N>& array, const std::string& labels) {
  RefOperand operand;
  for (const T& value : make_view(on_host(array))) operand.values.push_back(double(value));
  for (int i = 0; i < N; ++i) operand.dims.push_back(array.dims()[i]);
  operand.labels = labels;
  return operand;
}

/// The single value of a rank-0 result (check_close walks indices, which rank 0 has none of).
template <class T>
void check_scalar(const Array<T, 0>& result, const Array<double, 0>& expected, double tol) {
  const double got = double(result.item());
  const double want = expected.item();
  BOOST_TEST(std::abs(got - want) <= tol * std::max(1.0, std::abs(want)),
             "got " << got << ", expected " << want);
}

/// sum over the labels absent from `left` of the product of `operands`, times `scale`, as a
/// double array of extent `dims` (the left side's, in its label order).
template <int N>
Array<double, N> einsum_reference(const std::string& left, const Dim<N>& dims,
                                  const std::vector<RefOperand>& operands, double scale = 1.0) {
  std::map<char, index_t> extent;
  for (const RefOperand& operand : operands) {
    for (std::size_t axis = 0; axis < operand.labels.size(); ++axis) {
      extent[operand.labels[axis]] = operand.dims[axis];
    }
  }
  std::vector<char> labels;
  for (const auto& entry : extent) labels.push_back(entry.first);
  Array<double, N> out(dims);
  for (double& value : make_view(out)) value = 0.0;
  std::map<char, index_t> value_of;
  for (char label : labels) value_of[label] = 0;
  for (const auto& entry : extent) {
    if (entry.second == 0) return out;
  }
  for (;;) {
    double product = scale;
    for (const RefOperand& operand : operands) product *= operand.at(value_of);
    Dim<N> index;
    if constexpr (N > 0) {
      for (int i = 0; i < N; ++i) index[i] = value_of[left[static_cast<std::size_t>(i)]];
    }
    out[index] += product;
    std::size_t i = labels.size();
    while (i > 0) {
      --i;
      if (++value_of[labels[i]] < extent[labels[i]]) break;
      value_of[labels[i]] = 0;
      if (i == 0) return out;
    }
    if (labels.empty()) return out;
  }
}

}  // namespace testing
}  // namespace tensorx

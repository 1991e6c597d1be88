// The DDim operations that visit every alternative (Dim<1> .. Dim<9>), compiled once here rather
// than in every translation unit that includes shape/ddim.h.
#include "tensorx/shape/ddim.h"

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/variant.hpp>

#include "tensorx/core/error.h"
#include "tensorx/shape/dim.h"

namespace tensorx {
namespace {

void check_index(const DDim& dd, int i) {
  if (i < 0 || i >= arity(dd)) {
    throw IndexError(
        detail::message("index ", i, " is out of range for the DDim ", dd, " of rank ", arity(dd)));
  }
}

template <int N>
DDim ddim_from_values(const index_t* values) {
  Dim<N> d;
  for (int i = 0; i < N; ++i) d.at(i) = values[i];
  return d;
}

/// Picks the Dim<rank> alternative at run time through a table of one maker per rank.
template <int... RanksMinusOne>
DDim ddim_from_extents(const index_t* values, std::size_t rank,
                       std::integer_sequence<int, RanksMinusOne...>) {
  if (rank < 1 || rank > static_cast<std::size_t>(kMaxRank)) {
    throw ShapeError(detail::message("make_ddim needs 1 to ", kMaxRank, " extents, got rank ", rank,
                                     " instead"));
  }
  using Maker = DDim (*)(const index_t*);
  static constexpr Maker makers[] = {&ddim_from_values<RanksMinusOne + 1>...};
  return makers[rank - 1](values);
}

}  // namespace

DDim::DDim(const DDim& other) = default;
DDim::DDim(DDim&& other) noexcept = default;
DDim& DDim::operator=(const DDim& other) = default;
DDim& DDim::operator=(DDim&& other) noexcept = default;
DDim::~DDim() = default;

index_t& DDim::operator[](int i) {
  check_index(*this, i);
  return boost::apply_visitor([i](auto& d) -> index_t& { return d.at(i); }, *this);
}

index_t DDim::operator[](int i) const {
  check_index(*this, i);
  return boost::apply_visitor([i](const auto& d) { return d.at(i); }, *this);
}

bool DDim::equal(const DDim& a, const DDim& b) {
  return static_cast<const Base&>(a) == static_cast<const Base&>(b);
}

std::ostream& DDim::print(std::ostream& out, const DDim& dd) {
  return boost::apply_visitor([&out](const auto& d) -> std::ostream& { return out << d; }, dd);
}

int arity(const DDim& dd) {
  return boost::apply_visitor([](const auto& d) { return std::decay_t<decltype(d)>::dimensions; },
                              dd);
}

index_t product(const DDim& dd) {
  return boost::apply_visitor([](const auto& d) { return product(d); }, dd);
}

std::vector<std::int64_t> vectorize(const DDim& dd) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(arity(dd)));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = dd[static_cast<int>(i)];
  return values;
}

DDim contiguous_strides(const DDim& extent) {
  return boost::apply_visitor([](const auto& d) { return DDim(contiguous_strides(d)); }, extent);
}

DDim make_ddim(std::initializer_list<index_t> extents) {
  return ddim_from_extents(extents.begin(), extents.size(),
                           std::make_integer_sequence<int, kMaxRank>());
}

DDim make_ddim(const std::vector<index_t>& extents) {
  return ddim_from_extents(extents.data(), extents.size(),
                           std::make_integer_sequence<int, kMaxRank>());
}

}  // namespace tensorx

// DDim: an extent or index whose rank (1 to 9) is known only at run time, after Majel. It IS a
// boost::variant of Dim<1>..Dim<9>, so boost::get and boost::apply_visitor work on it directly, and
// it converts back to the Dim<N> that typed code (Array<T, N>) needs. Host only.
#pragma once

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

class DDim;

template <int N>
Dim<N> to_dim(const DDim& dd);

/// The rank of a DDim, 1 to 9.
inline int arity(const DDim& dd);

/// A Dim<1>, ..., Dim<9> chosen at run time. Alternative k holds Dim<k + 1>. A default-constructed
/// DDim is the empty rank-1 extent (0), boost::variant's default of its first alternative.
class DDim : public boost::variant<Dim<1>, Dim<2>, Dim<3>, Dim<4>, Dim<5>, Dim<6>, Dim<7>, Dim<8>,
                                   Dim<9>> {
 public:
  using Base =
      boost::variant<Dim<1>, Dim<2>, Dim<3>, Dim<4>, Dim<5>, Dim<6>, Dim<7>, Dim<8>, Dim<9>>;

  DDim() = default;

  /// Any Dim<1>..Dim<9> converts implicitly, as in Majel: DDim dd = make_dim(2, 3);
  template <int N>
  DDim(const Dim<N>& d) : Base(d) {  // NOLINT(google-explicit-constructor)
    static_assert(N >= 1 && N <= kMaxRank,
                  "A DDim holds ranks 1 to 9; a Dim<0> (the shape of a scalar) has no DDim.");
  }

  /// Element i; an index outside [0, arity) throws IndexError.
  index_t& operator[](int i) {
    check_index(i);
    return boost::apply_visitor([i](auto& d) -> index_t& { return d.at(i); }, *this);
  }
  index_t operator[](int i) const {
    check_index(i);
    return boost::apply_visitor([i](const auto& d) { return d.at(i); }, *this);
  }

  /// The Dim<N> this holds: static_cast<Dim<3>>(dd). Throws ShapeError when the rank is not N.
  /// Because of it every Dim<k> counts as constructible from a DDim, which makes boost::variant's
  /// converting constructor ambiguous: copy a DDim into a plain Base through a reference,
  /// Base b = static_cast<const Base&>(dd).
  template <int N>
  explicit operator Dim<N>() const {
    return to_dim<N>(*this);
  }

  /// Equal when the ranks and every extent are equal; different ranks are simply unequal.
  /// Hidden friends, so that Dim<2> == Dim<3> does not compile through two conversions to DDim.
  friend bool operator==(const DDim& a, const DDim& b) {
    return static_cast<const Base&>(a) == static_cast<const Base&>(b);
  }
  friend bool operator!=(const DDim& a, const DDim& b) { return !(a == b); }

  /// Comparison with a Dim<N> without building a DDim (and boost::variant's member templates
  /// that reject foreign types would otherwise make dd == make_dim(2, 3) ambiguous).
  template <int N>
  friend bool operator==(const DDim& a, const Dim<N>& b) {
    const Dim<N>* d = boost::get<Dim<N>>(&a);
    return d != nullptr && *d == b;
  }
  template <int N>
  friend bool operator==(const Dim<N>& a, const DDim& b) {
    return b == a;
  }
  template <int N>
  friend bool operator!=(const DDim& a, const Dim<N>& b) {
    return !(a == b);
  }
  template <int N>
  friend bool operator!=(const Dim<N>& a, const DDim& b) {
    return !(b == a);
  }

  /// Prints like the Dim it holds: "(2, 3)".
  friend std::ostream& operator<<(std::ostream& out, const DDim& dd) {
    return boost::apply_visitor([&out](const auto& d) -> std::ostream& { return out << d; }, dd);
  }

 private:
  void check_index(int i) const {
    if (i < 0 || i >= arity(*this)) {
      throw IndexError(detail::message("index ", i, " is out of range for the DDim ", *this,
                                       " of rank ", arity(*this)));
    }
  }
};

inline int arity(const DDim& dd) {
  return boost::apply_visitor([](const auto& d) { return std::decay_t<decltype(d)>::dimensions; },
                              dd);
}

/// The number of elements an extent holds.
inline index_t product(const DDim& dd) {
  return boost::apply_visitor([](const auto& d) { return product(d); }, dd);
}

/// The extents as a vector, outermost first.
inline std::vector<std::int64_t> vectorize(const DDim& dd) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(arity(dd)));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = dd[static_cast<int>(i)];
  return values;
}

/// Row-major strides of a dense array of this extent, with the same rank.
inline DDim contiguous_strides(const DDim& extent) {
  return boost::apply_visitor([](const auto& d) { return DDim(contiguous_strides(d)); }, extent);
}

/// The Dim<N> a DDim holds; a DDim of another rank throws ShapeError naming both ranks.
template <int N>
Dim<N> to_dim(const DDim& dd) {
  static_assert(N >= 1 && N <= kMaxRank, "A DDim holds ranks 1 to 9 only.");
  if (const Dim<N>* d = boost::get<Dim<N>>(&dd)) return *d;
  throw ShapeError(detail::message("cannot convert the DDim ", dd, " of rank ", arity(dd),
                                   " to a Dim<", N, ">"));
}

namespace detail {

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
    throw ShapeError(
        message("make_ddim needs 1 to ", kMaxRank, " extents, got rank ", rank, " instead"));
  }
  using Maker = DDim (*)(const index_t*);
  static constexpr Maker makers[] = {&ddim_from_values<RanksMinusOne + 1>...};
  return makers[rank - 1](values);
}

}  // namespace detail

/// A DDim from its extents, outermost first: make_ddim({2, 3}). A rank outside 1..9 throws
/// ShapeError.
inline DDim make_ddim(std::initializer_list<index_t> extents) {
  return detail::ddim_from_extents(extents.begin(), extents.size(),
                                   std::make_integer_sequence<int, kMaxRank>());
}
inline DDim make_ddim(const std::vector<index_t>& extents) {
  return detail::ddim_from_extents(extents.data(), extents.size(),
                                   std::make_integer_sequence<int, kMaxRank>());
}

}  // namespace tensorx

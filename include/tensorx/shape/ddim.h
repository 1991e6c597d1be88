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

/// A Dim<1>, ..., Dim<9> chosen at run time. Alternative k holds Dim<k + 1>. A default-constructed
/// DDim is the empty rank-1 extent (0), boost::variant's default of its first alternative.
class DDim : public boost::variant<Dim<1>, Dim<2>, Dim<3>, Dim<4>, Dim<5>, Dim<6>, Dim<7>, Dim<8>,
                                   Dim<9>> {
 public:
  /// The boost::variant a DDim is.
  using Base =
      boost::variant<Dim<1>, Dim<2>, Dim<3>, Dim<4>, Dim<5>, Dim<6>, Dim<7>, Dim<8>, Dim<9>>;

  /// The empty rank-1 extent, (0).
  DDim() = default;
  // Copies, moves and destruction are compiled once, in libtensorx (src/shape/ddim.cpp): declared
  // implicitly, they made clang and nvcc's front end resolve the variant's constructor overloads
  // (Boost's test of whether a variant converts to each of its nine alternatives) in every
  // translation unit that includes this header.
  ///@{
  /// DDims are values: a copy holds the same Dim.
  DDim(const DDim& other);
  DDim(DDim&& other) noexcept;
  DDim& operator=(const DDim& other);
  DDim& operator=(DDim&& other) noexcept;
  ///@}
  ~DDim();

  /// Any Dim<1>..Dim<9> converts implicitly, as in Majel: DDim dd = make_dim(2, 3);
  template <int N>
  DDim(const Dim<N>& d) : Base(d) {  // NOLINT(google-explicit-constructor)
    static_assert(N >= 1 && N <= kMaxRank,
                  "A DDim holds ranks 1 to 9; a Dim<0> (the shape of a scalar) has no DDim.");
  }

  ///@{
  /// Element i; an index outside [0, arity) throws IndexError.
  index_t& operator[](int i);
  index_t operator[](int i) const;
  ///@}

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
  ///@{
  friend bool operator==(const DDim& a, const DDim& b) { return equal(a, b); }
  friend bool operator!=(const DDim& a, const DDim& b) { return !equal(a, b); }
  ///@}

  ///@{
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
  ///@}

  /// Prints like the Dim it holds: "(2, 3)".
  friend std::ostream& operator<<(std::ostream& out, const DDim& dd) { return print(out, dd); }

 private:
  // The operations that visit all nine alternatives are compiled once, in libtensorx
  // (src/shape/ddim.cpp), rather than in every translation unit that includes this header.
  static bool equal(const DDim& a, const DDim& b);
  static std::ostream& print(std::ostream& out, const DDim& dd);
};

/// The rank of a DDim, 1 to 9.
int arity(const DDim& dd);

/// The number of elements an extent holds.
index_t product(const DDim& dd);

/// The extents as a vector, outermost first.
std::vector<std::int64_t> vectorize(const DDim& dd);

/// Row-major strides of a dense array of this extent, with the same rank.
DDim contiguous_strides(const DDim& extent);

/// The Dim<N> a DDim holds; a DDim of another rank throws ShapeError naming both ranks.
template <int N>
Dim<N> to_dim(const DDim& dd) {
  static_assert(N >= 1 && N <= kMaxRank, "A DDim holds ranks 1 to 9 only.");
  if (const Dim<N>* d = boost::get<Dim<N>>(&dd)) return *d;
  throw ShapeError(detail::message("cannot convert the DDim ", dd, " of rank ", arity(dd),
                                   " to a Dim<", N, ">"));
}

///@{
/// A DDim from its extents, outermost first: make_ddim({2, 3}). A rank outside 1..9 throws
/// ShapeError.
DDim make_ddim(std::initializer_list<index_t> extents);
DDim make_ddim(const std::vector<index_t>& extents);
///@}

}  // namespace tensorx

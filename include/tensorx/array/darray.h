// DArray: an Array whose element type and rank are chosen at run time (after Majel). It IS a
// boost::variant with one alternative per element type, each a variant of ranks 1..4: nesting keeps
// every variant far inside Boost.Variant's 20-alternative limit (6 types x 4 ranks flat would be
// 24) and leaves room for new types.
//
// DArray names BasicDArray<void>, a class template with one instantiation, so that a translation
// unit that never uses a DArray never instantiates its seven variants and 24 typed arrays: that
// took an eighth of the public header's compile time (0.71 of 5.76 billion instructions, g++).
// To keep it so, nothing in a header may name DArray where the compiler needs it complete before
// a DArray is used:
// - every function that takes a DArray is a template enabled for DArray alone (if_darray below),
//   so that a call with another type (tx::sum(array), `out << value`) never asks whether that type
//   converts to a DArray, which would instantiate it; the compiled layer defines and explicitly
//   instantiates the ones that are not inline;
// - templates name it through a template parameter (detail::delayed_t), since a compiler checks
//   code that depends on no parameter, a return type included, where the template is defined;
// - no inline function that is not a template returns or builds one (load_npy's and from_dlpack's
//   DArray forms are compiled in src/interop/).
// test_darray_lazy (test/lazy_darray/) fails when a unit of typed calls compiles a DArray.
#pragma once

#include <cstdint>
#include <ostream>
#include <type_traits>
#include <utility>

#include <boost/variant.hpp>

#include "tensorx/array/array.h"
#include "tensorx/array/global_ops.h"
#include "tensorx/core/data_type.h"
#include "tensorx/core/narrow_float.h"
#include "tensorx/shape/ddim.h"

namespace tensorx {

template <class Lazy = void>
class BasicDArray;
/// The run-time typed array (see the file comment for why it is a template's one instantiation).
using DArray = BasicDArray<>;

template <class Lazy>
class BasicLabelledDArray;
/// A DArray with its axes labelled, x("i,k") (labels/labelled_darray.h).
using LabelledDArray = BasicLabelledDArray<void>;

/// The largest rank a DArray holds.
constexpr int kMaxDArrayRank = 4;

/// The arrays of one element type that a DArray can hold: Array<T, 1> .. Array<T, 4>.
template <class T>
using TypedDArray = boost::variant<Array<T, 1>, Array<T, 2>, Array<T, 3>, Array<T, 4>>;

/// The variant a DArray is: one TypedDArray per element type.
using DArrayVariant =
    boost::variant<TypedDArray<float>, TypedDArray<double>, TypedDArray<float16>,
                   TypedDArray<std::int32_t>, TypedDArray<std::int64_t>, TypedDArray<bfloat16>>;

/// The DArray element type that a value of type V selects: float, double, float16 and bfloat16
/// stand for themselves; an integer for the narrower of int32 and int64 that holds every value of
/// its type (a 32-bit unsigned value selects int64). A 64-bit unsigned type selects itself, which
/// no DArray holds: make_darray rejects it rather than change its values.
template <class V>
using darray_element_t = std::conditional_t<
    std::is_integral_v<V>,
    std::conditional_t<(std::is_signed_v<V> ? sizeof(V) <= 4 : sizeof(V) < 4), std::int32_t,
                       std::conditional_t<(std::is_signed_v<V> || sizeof(V) < 8), std::int64_t, V>>,
    V>;

namespace detail {

template <class T>
constexpr bool is_darray_element_v = is_supported_element_v<T>;

/// Enables a function for X = DArray alone: `template <class X, detail::if_darray<X> = 0>`.
template <class X>
using if_darray = std::enable_if_t<std::is_same_v<X, DArray>, int>;

/// T, named through a template's parameter `Lazy` so that the compiler looks at T only when that
/// template is instantiated.
template <class T, class Lazy>
struct Delayed {
  using type = T;
};
template <class T, class Lazy>
using delayed_t = typename Delayed<T, Lazy>::type;

/// "Array<float32, 2>": how errors name a typed array.
std::string array_type_name(DataType type, int rank);

/// Calls f(std::integral_constant<int, N>{}) for the run-time rank N in 1..4; other ranks throw
/// TypeError.
template <class F>
decltype(auto) darray_rank_switch(int rank, F&& f) {
  switch (rank) {
    case 1:
      return f(std::integral_constant<int, 1>{});
    case 2:
      return f(std::integral_constant<int, 2>{});
    case 3:
      return f(std::integral_constant<int, 3>{});
    case 4:
      return f(std::integral_constant<int, 4>{});
    default:
      throw TypeError(message("a DArray holds ranks 1 to ", kMaxDArrayRank, ", not ", rank));
  }
}

}  // namespace detail

/// An array whose element type (float, double, float16, bfloat16, int32, int64) and rank (1 to 4)
/// are chosen at run time: a variant holding one typed Array<T, N>, with the same handle semantics
/// (copies alias; the buffer is shared). Use it through DArray; tx::visit recovers the typed array.
template <class Lazy>
class BasicDArray : public detail::delayed_t<DArrayVariant, Lazy> {
  using Variant = detail::delayed_t<DArrayVariant, Lazy>;

 public:
  class Element;

  /// An unallocated Array<float, 1>.
  BasicDArray() = default;
  // Copies, moves and destruction are compiled once, in libtensorx (src/array/darray.cpp): declared
  // implicitly, they made clang and nvcc's front end resolve the variant's constructor overloads
  // (Boost's test of whether a variant converts to each of its 24 alternatives) in every
  // translation unit that includes this header, a quarter of the header's compile time with clang.
  ///@{
  /// Copying or assigning a DArray aliases it, as for Array: the typed handle is copied.
  BasicDArray(const BasicDArray& other);
  BasicDArray(BasicDArray&& other) noexcept;
  BasicDArray& operator=(const BasicDArray& other);
  BasicDArray& operator=(BasicDArray&& other) noexcept;
  ///@}
  ~BasicDArray();

  /// Any Array of a DArray element type and rank converts implicitly, sharing its buffer.
  template <class T, int N>
  BasicDArray(const Array<T, N>& array)  // NOLINT(google-explicit-constructor): Majel's conversion.
      : Variant(TypedDArray<T>(array)) {
    static_assert(detail::is_darray_element_v<T>,
                  "A DArray holds float, double, float16, bfloat16, int32 or int64 elements.");
    static_assert(N >= 1 && N <= kMaxDArrayRank, "A DArray holds arrays of rank 1 to 4.");
  }

  /// The typed array held; throws TypeError naming both types when T or N differ.
  template <class T, int N>
  Array<T, N> as() const;

  /// The element at `index`, as a proxy that reads and writes through the element type. Reading
  /// or writing it throws TypeError when the index rank differs from the array's, IndexError
  /// outside the extent, PlaceError for a GPU array.
  Element operator[](const DDim& index) const;

  /// x("i,k"): this DArray with its axes labelled, for Einstein-notation expressions
  /// (labels/labelled_darray.h). Throws LabelError unless the labels name rank(x) axes; an
  /// unallocated DArray labelled this way is allocated by the assignment to it.
  BasicLabelledDArray<Lazy> operator()(const char* labels) const;
  /// x("i,k") of a mutable DArray: as the const form; an unallocated one is allocated by the
  /// assignment to the result.
  BasicLabelledDArray<Lazy> operator()(const char* labels);
};

/// The element type of a DArray.
template <class X, detail::if_darray<X> = 0>
DataType dtype(const X& x);

namespace detail {

// Visits the typed array inside a DArray: a mutable DArray hands f its own handle (so that f may
// rebind it), a const one a copy of the handle (which still shares the buffer).
template <class Result, class F>
class DArrayVisitor : public boost::static_visitor<Result> {
 public:
  explicit DArrayVisitor(F& f) : f_(f) {}
  template <class T>
  Result operator()(TypedDArray<T>& typed) const {
    return boost::apply_visitor(*this, typed);
  }
  template <class T>
  Result operator()(const TypedDArray<T>& typed) const {
    return boost::apply_visitor(*this, typed);
  }
  template <class T, int N>
  Result operator()(Array<T, N>& array) const {
    return f_(array);
  }
  template <class T, int N>
  Result operator()(const Array<T, N>& array) const {
    Array<T, N> handle = array;
    return f_(handle);
  }

 private:
  F& f_;
};

template <class F, class First, class... Rest>
decltype(auto) call_with_lvalues(F& f, First& first, Rest... rest) {
  return f(first, rest...);
}

}  // namespace detail

/// Calls f with the typed Array<T, N>& that `x` holds; with more DArrays, f gets one typed array
/// from each, all of the same element type and rank (else TypeError naming both).
template <class F, class X, class... Others,
          class = std::enable_if_t<std::is_same_v<std::decay_t<X>, DArray>>>
decltype(auto) visit(F&& f, X&& x, const Others&... others) {
  static_assert((std::is_same_v<Others, DArray> && ...), "tx::visit takes DArrays.");
  auto typed_call = [&](auto& array) -> decltype(auto) {
    using A = std::decay_t<decltype(array)>;
    return detail::call_with_lvalues(f, array,
                                     others.template as<typename A::value_type, A::rank>()...);
  };
  using Result = decltype(typed_call(std::declval<Array<float, 1>&>()));
  return boost::apply_visitor(
      detail::DArrayVisitor<Result, decltype(typed_call)>(typed_call),
      static_cast<std::conditional_t<std::is_const_v<std::remove_reference_t<X>>,
                                     const DArrayVariant&, DArrayVariant&>>(x));
}

/// tx::visit for a body that only compiles for floating-point arrays (float, double, float16,
/// bfloat16), such as `[](auto& a) { a = tx::exp(a); }`: the body is instantiated for those alone,
/// and a DArray of integers throws TypeError naming its element type.
template <class F, class X, class... Others,
          class = std::enable_if_t<std::is_same_v<std::decay_t<X>, DArray>>>
decltype(auto) visit_floating(F&& f, X&& x, const Others&... others) {
  using Result = decltype(f(std::declval<Array<float, 1>&>(),
                            std::declval<std::conditional_t<true, Array<float, 1>, Others>&>()...));
  return visit(
      [&](auto& array, auto&... rest) -> Result {
        using T = typename std::decay_t<decltype(array)>::value_type;
        if constexpr (is_floating_element_v<T>) {
          return f(array, rest...);
        } else {
          throw TypeError(
              detail::message("tx::visit_floating visits arrays of float, double, "
                              "float16 or bfloat16 elements, but the DArray holds ",
                              data_type_of<T>()));
        }
      },
      std::forward<X>(x), others...);
}

/// The rank of a DArray, 1 to 4.
template <class X, detail::if_darray<X> = 0>
int rank(const X& x);

/// The extent of a DArray.
template <class X, detail::if_darray<X> = 0>
DDim dims(const X& x);

/// Where a DArray's elements live.
template <class X, detail::if_darray<X> = 0>
Place place(const X& x);

/// The number of elements of a DArray.
template <class X, detail::if_darray<X> = 0>
index_t numel(const X& x);

/// Prints "DArray<float32, (2, 3)> on CpuPlace".
template <class X, detail::if_darray<X> = 0>
std::ostream& operator<<(std::ostream& out, const X& x);

namespace detail {
// The element access and creation of the compiled layer (src/array/darray.cpp), through which
// the templates below work for any value type without visiting the 24 typed arrays in every
// translation unit. Integers travel as int64 (exactly), everything else as double (exactly for
// every DArray element type but int64, which takes the integer path).
double element_as_double(const DArray& x, const DDim& index);
std::int64_t element_as_int64(const DArray& x, const DDim& index);
void set_element(const DArray& x, const DDim& index, double value);
void set_element(const DArray& x, const DDim& index, std::int64_t value);
void fill_darray(const DArray& x, double value);
void fill_darray(const DArray& x, std::int64_t value);
DArray make_uninitialised_darray(DataType type, const DDim& dims, const Place& place);
/// True when the DArray holds an allocated array.
bool darray_allocated(const DArray& x);

/// `value` as the compiled layer's element value: int64 for integers, else double.
template <class V>
auto element_value(const V& value) {
  if constexpr (std::is_integral_v<V>) {
    return static_cast<std::int64_t>(value);
  } else {
    return static_cast<double>(value);
  }
}
}  // namespace detail

template <class Lazy>
template <class T, int N>
Array<T, N> BasicDArray<Lazy>::as() const {
  const TypedDArray<T>* typed = boost::get<TypedDArray<T>>(static_cast<const Variant*>(this));
  const Array<T, N>* array = typed ? boost::get<Array<T, N>>(typed) : nullptr;
  if (!array) {
    throw TypeError(detail::message("expected an ", detail::array_type_name(data_type_of<T>(), N),
                                    " but the DArray holds an ",
                                    detail::array_type_name(dtype(*this), rank(*this))));
  }
  return *array;
}

/// A proxy for one element of a DArray: reads convert from, writes convert to, the element type.
template <class Lazy>
class BasicDArray<Lazy>::Element {
 public:
  /// Element `index` of `array` (checked when it is read or written).
  Element(BasicDArray array, DDim index);

  /// Writes `value`, converted to the element type.
  template <class V, class = std::enable_if_t<std::is_arithmetic_v<V> || is_narrow_float_v<V>>>
  Element& operator=(const V& value) {
    detail::set_element(array_, index_, detail::element_value(value));
    return *this;
  }
  /// Copies the value of another element (x[i] = y[j]), not the proxy.
  Element& operator=(const Element& other);

  /// The element converted to V.
  template <class V>
  V value() const {
    if constexpr (std::is_integral_v<V>) {
      return static_cast<V>(detail::element_as_int64(array_, index_));
    } else {
      return static_cast<V>(detail::element_as_double(array_, index_));
    }
  }
  /// The element as a double (value<double>()).
  operator double() const { return value<double>(); }  // NOLINT: reads like a number.

 private:
  BasicDArray array_;
  DDim index_;
};

/// A DArray of the given extent (rank 1..4) on `place`, every element `value`; the value's type
/// picks the element type (float, double, float16, bfloat16, int32 or int64). Throws TypeError for
/// another rank, ShapeError for a negative extent, DeviceError for an unusable GPU,
/// OutOfMemoryError. The return type is DArray, named through V: a compiler completes a
/// template's return type where it is defined.
template <class V>
detail::delayed_t<DArray, V> make_darray(const DDim& dims, const V& value,
                                         const Place& place = CpuPlace()) {
  using T = darray_element_t<V>;
  static_assert(
      detail::is_darray_element_v<T>,
      "make_darray takes a float, double, float16, bfloat16 or integer value that int32 or "
      "int64 holds exactly; convert a 64-bit unsigned value to int64_t or double first.");
  using D = detail::delayed_t<DArray, V>;
  if constexpr (detail::is_darray_element_v<T>) {
    const D x = detail::make_uninitialised_darray(data_type_of<T>(), dims, place);
    detail::fill_darray(x, detail::element_value(static_cast<T>(value)));
    return x;
  } else {
    return D();
  }
}

}  // namespace tensorx

// The DArray operations that are the same in every program: each visits the 24 typed arrays a
// DArray may hold, so compiling them here once, instead of in every translation unit that includes
// tensorx, takes most of the cost of the public header away (the compile-time issue measured it).
// DArray is BasicDArray<void> (array/darray.h says why): its members and the function templates
// enabled for it alone are defined here and explicitly instantiated for it.
#include "tensorx/array/darray.h"

#include <cstdint>
#include <ostream>
#include <string>
#include <utility>

#include "tensorx/array/darray_ops.h"
#include "tensorx/array/global_ops.h"

namespace tensorx {

template <class Lazy>
BasicDArray<Lazy>::BasicDArray(const BasicDArray& other) = default;
template <class Lazy>
BasicDArray<Lazy>::BasicDArray(BasicDArray&& other) noexcept = default;
template <class Lazy>
BasicDArray<Lazy>& BasicDArray<Lazy>::operator=(const BasicDArray& other) = default;
template <class Lazy>
BasicDArray<Lazy>& BasicDArray<Lazy>::operator=(BasicDArray&& other) noexcept = default;
template <class Lazy>
BasicDArray<Lazy>::~BasicDArray() = default;

template <class Lazy>
typename BasicDArray<Lazy>::Element BasicDArray<Lazy>::operator[](const DDim& index) const {
  return Element(*this, index);
}

template <class Lazy>
BasicDArray<Lazy>::Element::Element(BasicDArray array, DDim index)
    : array_(std::move(array)), index_(std::move(index)) {}

template <class Lazy>
typename BasicDArray<Lazy>::Element& BasicDArray<Lazy>::Element::operator=(const Element& other) {
  if (is_integer(dtype(other.array_))) {
    detail::set_element(array_, index_, detail::element_as_int64(other.array_, other.index_));
  } else {
    detail::set_element(array_, index_, detail::element_as_double(other.array_, other.index_));
  }
  return *this;
}

// The whole class, Element included: g++ 12 rejects the explicit instantiation of a single member
// defined out of class as `= default`. Members a header defines stay inline for their users too.
template class BasicDArray<void>;

template <class X, detail::if_darray<X>>
DataType dtype(const X& x) {
  return visit(
      [](auto& a) { return data_type_of<typename std::decay_t<decltype(a)>::value_type>(); }, x);
}

template <class X, detail::if_darray<X>>
int rank(const X& x) {
  return visit([](auto& a) { return std::decay_t<decltype(a)>::rank; }, x);
}

template <class X, detail::if_darray<X>>
DDim dims(const X& x) {
  return visit([](auto& a) { return DDim(a.dims()); }, x);
}

template <class X, detail::if_darray<X>>
Place place(const X& x) {
  return visit([](auto& a) { return a.place(); }, x);
}

template <class X, detail::if_darray<X>>
index_t numel(const X& x) {
  return visit([](auto& a) { return a.numel(); }, x);
}

template <class X, detail::if_darray<X>>
std::ostream& operator<<(std::ostream& out, const X& x) {
  return out << "DArray<" << name(dtype(x)) << ", " << dims(x) << "> on " << place(x);
}

template <class X, detail::if_darray<X>>
DArray reshape(const X& x, const DDim& dims) {
  return visit(
      [&](auto& a) {
        return detail::darray_rank_switch(
            arity(dims), [&](auto rank) { return DArray(reshape(a, to_dim<rank>(dims))); });
      },
      x);
}

template <class X, detail::if_darray<X>>
void copy(const X& dst, const X& src) {
  visit([](auto& d, auto& s) { copy(d, s); }, dst, src);
}

template <class X, detail::if_darray<X>>
DArray to(const X& x, const Place& place) {
  return visit([&](auto& a) { return DArray(to(a, place)); }, x);
}

template DataType dtype(const DArray&);
template int rank(const DArray&);
template DDim dims(const DArray&);
template Place place(const DArray&);
template index_t numel(const DArray&);
template std::ostream& operator<<(std::ostream&, const DArray&);
template DArray reshape(const DArray&, const DDim&);
template void copy(const DArray&, const DArray&);
template DArray to(const DArray&, const Place&);

namespace detail {

std::string array_type_name(DataType type, int rank) {
  return message("Array<", name(type), ", ", rank, ">");
}

bool darray_allocated(const DArray& x) {
  return visit([](auto& a) { return a.allocated(); }, x);
}

DArray make_uninitialised_darray(DataType type, const DDim& dims, const Place& place) {
  return type_switch(type, [&](auto tag) -> DArray {
    using T = typename decltype(tag)::type;
    return darray_rank_switch(arity(dims), [&](auto rank) -> DArray {
      return Array<T, rank>(to_dim<rank>(dims), place);
    });
  });
}

void fill_darray(const DArray& x, double value) {
  visit(
      [&](auto& a) { fill(a, static_cast<typename std::decay_t<decltype(a)>::value_type>(value)); },
      x);
}

void fill_darray(const DArray& x, std::int64_t value) {
  visit(
      [&](auto& a) { fill(a, static_cast<typename std::decay_t<decltype(a)>::value_type>(value)); },
      x);
}

namespace {

/// The element `index` of `a`; TypeError when the index rank differs from the array's.
template <class T, int N>
T& element_of(const Array<T, N>& a, const DDim& index) {
  if (arity(index) != N) {
    throw TypeError(message("index ", index, " has ", arity(index),
                            " dimensions but the DArray holds an ",
                            array_type_name(data_type_of<T>(), N)));
  }
  return a[to_dim<N>(index)];
}

template <class V>
V read_element(const DArray& x, const DDim& index) {
  return visit([&](auto& a) { return static_cast<V>(element_of(a, index)); }, x);
}

template <class V>
void write_element(const DArray& x, const DDim& index, V value) {
  visit(
      [&](auto& a) {
        element_of(a, index) = static_cast<typename std::decay_t<decltype(a)>::value_type>(value);
      },
      x);
}

}  // namespace

double element_as_double(const DArray& x, const DDim& index) {
  return read_element<double>(x, index);
}
std::int64_t element_as_int64(const DArray& x, const DDim& index) {
  return read_element<std::int64_t>(x, index);
}
void set_element(const DArray& x, const DDim& index, double value) {
  write_element(x, index, value);
}
void set_element(const DArray& x, const DDim& index, std::int64_t value) {
  write_element(x, index, value);
}

}  // namespace detail
}  // namespace tensorx

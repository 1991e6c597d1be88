// test_cross_tu: the same functions over tensorx's variant types (Place, DDim, DArray) are compiled
// once by g++ (cross_tu_host.cpp) and once by nvcc (cross_tu_device.cu), and each half calls the
// other's. If the compilers disagreed on Boost.Variant's template arguments the program would not
// link; if they disagreed on layout or behaviour the values would come back wrong.
#pragma once

#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "tensorx/array/array_view.h"
#include "tensorx/array/darray.h"
#include "tensorx/core/data_type.h"
#include "tensorx/place/place.h"
#include "tensorx/shape/ddim.h"

namespace tensorx {
namespace testing {
namespace cross_tu {

/// What one compiler makes of the shared types.
struct Facts {
  std::size_t place_size;
  std::size_t place_alignment;
  std::size_t ddim_size;
  std::size_t ddim_alignment;
  std::size_t darray_size;
  std::size_t float16_size;
  bool variadic_variant;  // Boost.Variant's variadic-template implementation is in use
};

struct Gxx;   // names the half compiled by g++
struct Nvcc;  // names the half compiled by nvcc

/// The functions of one half. Half<Gxx> is instantiated only in cross_tu_host.cpp and Half<Nvcc>
/// only in cross_tu_device.cu, from the same definitions below.
template <class Compiler>
struct Half {
  static Facts facts();
  /// CudaPlace(device), or the CPU for a negative device.
  static Place make_place(int device);
  /// Takes and returns the plain boost::variant, so that its template arguments are mangled into
  /// the symbol the other half links against.
  static Place::Base echo_place(const Place::Base& place);
  static std::string print(const Place& place);
  static Dim<3> echo_dim(const Dim<3>& dim);
  static DDim make_ddim(const std::vector<index_t>& extents);
  static DDim::Base echo_ddim(const DDim::Base& dims);
  static std::string print(const DDim& dims);
  /// A CPU DArray of `type` and `extents` (rank 1 to 4) whose i-th element is i + 0.5 (i for
  /// integers), written through this half's element types.
  static DArray make_darray(const std::vector<index_t>& extents, DataType type);
  /// Takes and returns the plain nested variant; the array comes back as the same handle.
  static DArrayVariant echo_darray(const DArrayVariant& array);
  /// The sum of the elements, read through this half's element types.
  static double sum(const DArray& array);
  static std::string print(const DArray& array);
};

// Each half instantiates only its own; calls to the other's are left to the linker.
extern template struct Half<Gxx>;
extern template struct Half<Nvcc>;

template <class Compiler>
Facts Half<Compiler>::facts() {
#if defined(BOOST_VARIANT_DO_NOT_USE_VARIADIC_TEMPLATES)
  constexpr bool variadic = false;
#else
  constexpr bool variadic = true;
#endif
  return {sizeof(Place),  alignof(Place),  sizeof(DDim), alignof(DDim),
          sizeof(DArray), sizeof(float16), variadic};
}

template <class Compiler>
Place Half<Compiler>::make_place(int device) {
  if (device < 0) return CpuPlace();
  return CudaPlace(device);
}

template <class Compiler>
Place::Base Half<Compiler>::echo_place(const Place::Base& place) {
  return place;
}

template <class Compiler>
std::string Half<Compiler>::print(const Place& place) {
  std::ostringstream out;
  out << place;
  return out.str();
}

template <class Compiler>
Dim<3> Half<Compiler>::echo_dim(const Dim<3>& dim) {
  return dim;
}

template <class Compiler>
DDim Half<Compiler>::make_ddim(const std::vector<index_t>& extents) {
  return tensorx::make_ddim(extents);
}

template <class Compiler>
DDim::Base Half<Compiler>::echo_ddim(const DDim::Base& dims) {
  return dims;
}

template <class Compiler>
std::string Half<Compiler>::print(const DDim& dims) {
  std::ostringstream out;
  out << dims;
  return out.str();
}

template <class Compiler>
DArray Half<Compiler>::make_darray(const std::vector<index_t>& extents, DataType type) {
  DArray array = type_switch(type, [&](auto tag) {
    return tensorx::make_darray(tensorx::make_ddim(extents), typename decltype(tag)::type());
  });
  visit(
      [](auto& typed) {
        using T = typename std::decay_t<decltype(typed)>::value_type;
        double value = std::is_integral_v<T> ? 0.0 : 0.5;
        for (T& element : make_view(typed)) element = static_cast<T>(value++);
      },
      array);
  return array;
}

template <class Compiler>
DArrayVariant Half<Compiler>::echo_darray(const DArrayVariant& array) {
  return array;
}

template <class Compiler>
double Half<Compiler>::sum(const DArray& array) {
  return visit(
      [](auto& typed) {
        double total = 0.0;
        for (const auto& element : make_view(typed)) total += static_cast<double>(element);
        return total;
      },
      array);
}

template <class Compiler>
std::string Half<Compiler>::print(const DArray& array) {
  std::ostringstream out;
  out << array;
  return out.str();
}

/// Both compilers see the same sizes and the same Boost.Variant implementation.
template <class Here, class There>
void check_facts() {
  const Facts here = Half<Here>::facts();
  const Facts there = Half<There>::facts();
  BOOST_TEST(there.place_size == here.place_size);
  BOOST_TEST(there.place_alignment == here.place_alignment);
  BOOST_TEST(there.ddim_size == here.ddim_size);
  BOOST_TEST(there.ddim_alignment == here.ddim_alignment);
  BOOST_TEST(there.darray_size == here.darray_size);
  BOOST_TEST(there.float16_size == here.float16_size);
  BOOST_TEST(there.variadic_variant == here.variadic_variant);
}

/// Places made There arrive Here intact, and Here's go There and back.
template <class Here, class There>
void check_places() {
  for (int device : {-1, 0, 3}) {
    BOOST_TEST_CONTEXT("device " << device) {
      const Place here = Half<Here>::make_place(device);
      const Place there = Half<There>::make_place(device);
      BOOST_TEST(there == here);
      BOOST_TEST(there.which() == here.which());
      BOOST_TEST(is_gpu_place(there) == (device >= 0));
      BOOST_TEST(Place(Half<There>::echo_place(here)) == here);
      BOOST_TEST(Half<There>::print(here) == Half<Here>::print(here));
    }
  }
}

/// Dim and DDim values of every rank cross both ways unchanged.
template <class Here, class There>
void check_dims() {
  BOOST_TEST(Half<There>::echo_dim(make_dim(2, 3, 4)) == make_dim(2, 3, 4));
  std::vector<index_t> extents;
  for (int rank = 1; rank <= kMaxRank; ++rank) {
    extents.push_back(rank + 1);
    BOOST_TEST_CONTEXT("rank " << rank) {
      const DDim here = Half<Here>::make_ddim(extents);
      const DDim there = Half<There>::make_ddim(extents);
      BOOST_TEST(there == here);
      BOOST_TEST(arity(there) == rank);
      BOOST_TEST(vectorize(there) == extents, boost::test_tools::per_element());
      const DDim::Base& plain = here;
      BOOST_TEST((Half<There>::echo_ddim(plain) == plain));
      BOOST_TEST(Half<There>::print(here) == Half<Here>::print(here));
    }
  }
}

/// The buffer a DArray's nested variant refers to.
inline const void* data_of(const DArrayVariant& array) {
  return boost::apply_visitor(
      [](const auto& typed) {
        return boost::apply_visitor(
            [](const auto& a) { return static_cast<const void*>(a.data()); }, typed);
      },
      array);
}

/// DArrays of every element type and rank cross both ways with their type, extent and values.
template <class Here, class There>
void check_darrays() {
  const std::vector<std::vector<index_t>> shapes = {{5}, {2, 3}, {2, 1, 3}, {1, 2, 3, 2}};
  for (DataType type : kAllDataTypes) {
    for (const auto& extents : shapes) {
      BOOST_TEST_CONTEXT(name(type) << " " << make_ddim(extents)) {
        const DArray there = Half<There>::make_darray(extents, type);
        const DArray here = Half<Here>::make_darray(extents, type);
        BOOST_TEST((dtype(there) == type));
        BOOST_TEST(dims(there) == make_ddim(extents));
        BOOST_TEST(is_cpu_place(place(there)));
        const index_t count = numel(here);
        const double expected =
            count * (count - 1) / 2.0 +
            (type == DataType::kInt32 || type == DataType::kInt64 ? 0.0 : 0.5 * count);
        BOOST_TEST(Half<Here>::sum(there) == expected);
        BOOST_TEST(Half<There>::sum(here) == expected);
        const DArrayVariant& plain = here;
        BOOST_TEST(data_of(Half<There>::echo_darray(plain)) == data_of(plain));
        BOOST_TEST(Half<There>::print(here) == Half<Here>::print(here));
      }
    }
  }
}

}  // namespace cross_tu
}  // namespace testing
}  // namespace tensorx

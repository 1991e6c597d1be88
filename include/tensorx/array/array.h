// Array<T, N>: a cheap handle to a shared buffer plus extents, strides and an offset, like a
// shared_ptr (copying or assigning an Array aliases it). Views (a[i], slice, reshape) share the
// buffer; data moves only through copy(), an expression or a global op. Setting every element to
// a number works from this header alone; the assignments of expressions are defined by the
// engine (engine/assign.h), which every header that builds expressions includes.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <utility>

#include "tensorx/core/config.h"
#include "tensorx/core/error.h"
#include "tensorx/core/expression.h"
#include "tensorx/core/narrow_float.h"
#include "tensorx/core/stats.h"
#include "tensorx/core/translation_unit.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/memory/strided_copy.h"
#include "tensorx/place/place.h"
#include "tensorx/shape/dim.h"

namespace tensorx {

template <class T, int N>
class LabelledArray;
template <class Rhs>
class EinsumExp;

namespace saver {
struct write;
struct add;
struct subtract;
struct multiply;
struct divide;
}  // namespace saver

namespace detail {
/// Whether an assignment checks that no operand reads the destination's memory through another
/// index mapping (kCheck), or takes the caller's word for it (kVouched, tx::noalias).
enum class Aliasing { kCheck, kVouched };

// The assignment engine (engine/assign.h), which Array's operators hand every expression, and
// every number they combine with the elements, to.
template <class Saver, class TU, Aliasing kAliasing = Aliasing::kCheck, class T, int N, class E>
void evaluate(Array<T, N>& dst, const E& e);
template <class Saver, class TU, class T, int N>
void evaluate_scalar(Array<T, N>& dst, T value);
}  // namespace detail

/// A rank-N array of T elements (float, double, float16, bfloat16, int32, int64, or any
/// trivially-copyable type for storage alone): a cheap handle to a shared buffer on one Place,
/// with extents, strides and an offset. Copying or assigning to a named Array aliases it; views
/// (a[i], slice, reshape, transpose) share the buffer.
///
/// Assignment rules, for every assignment of an expression (=, +=, -=, *=, /=, tx::assign): the
/// expression's rank and element type must be the destination's (a static_assert says which
/// differs); its shape must equal an allocated destination's (ShapeError, also for +=, -=, *=, /=
/// into an unallocated array); every array it reads must be on the destination's place
/// (PlaceError). An unallocated destination is allocated with the expression's shape on the
/// place of its first array operand (the CPU where it reads none). Evaluation into GPU memory
/// needs a translation unit compiled as CUDA (Error otherwise), except a reduction or product of
/// plain arrays, which the compiled layer computes; a GPU that is not usable throws DeviceError,
/// memory that cannot be had OutOfMemoryError. Nothing is written when a check fails. GPU work is
/// queued on the calling thread's current stream of the destination's device.
template <class T, int N>
class Array {
  static_assert(N >= 0 && N <= kMaxRank, "Array<T, N> supports ranks 0 to 9.");
  static_assert(std::is_trivially_copyable_v<T>,
                "Array elements must be trivially copyable, since they move as raw bytes.");

 public:
  /// The element type.
  using value_type = T;
  /// The number of dimensions.
  static constexpr int rank = N;

  /// Rank > 0: an empty, unallocated array that the first assigned expression allocates.
  /// Rank 0: one element on the CPU.
  Array() {
    if constexpr (N == 0) allocate(CpuPlace());
  }

  /// A dense row-major array of the given extent on `place` (the CPU by default). Elements are
  /// uninitialised; use zeros/ones/fill for values. Negative extents, or more elements than a
  /// 64-bit index counts, throw ShapeError naming the extent; more bytes than the place can serve
  /// throw OutOfMemoryError; an unusable GPU throws DeviceError.
  explicit Array(const Dim<N>& dims, const Place& place = CpuPlace()) : dims_(dims) {
    detail::checked_numel(dims);  // before the strides multiply the extents
    strides_ = contiguous_strides(dims);
    allocate(place);
  }

  /// A new array holding the value of an expression: Array<float, 2> c = a + b; allocated on the
  /// place of the expression's arrays, by the assignment rules (class comment).
  template <class E, class TU = detail::ThisTranslationUnit,
            class = std::enable_if_t<is_expression_v<E> && !std::is_same_v<E, Array>>>
  Array(const E& e) {  // NOLINT(google-explicit-constructor): reads like the math.
    detail::evaluate<saver::write, TU>(*this, e);
  }

  ///@{
  /// Copying an Array, or assigning one to a named Array, aliases it (a handle, like shared_ptr):
  /// `Array b = a; b = c;` makes b refer to c's buffer.
  Array(const Array&) = default;
  Array& operator=(const Array&) & = default;
  Array(Array&&) noexcept = default;
  Array& operator=(Array&&) & noexcept = default;
  ///@}

  /// Assigning to a temporary, a view that a[i], a.slice(), tx::slice() or tx::reshape()
  /// returned, writes elements instead, as mshadow and Eigen do: `m[0] = m[1]` copies row 1 into
  /// row 0 in ONE pass (through a temporary where the two overlap). Follows the assignment rules
  /// (class comment): ShapeError, PlaceError, ... before writing anything.
  template <class TU = detail::ThisTranslationUnit>
  Array& operator=(const Array& other) && {
    detail::evaluate<saver::write, TU>(*this, other);
    return *this;
  }

  /// Evaluates an expression into this array in ONE pass; an unallocated array is allocated with
  /// the expression's shape. Follows the assignment rules (class comment): ShapeError, PlaceError,
  /// ... before writing anything.
  template <class E, class TU = detail::ThisTranslationUnit,
            class = std::enable_if_t<is_expression_v<E> && !std::is_same_v<E, Array>>>
  Array& operator=(const E& e) {
    detail::evaluate<saver::write, TU>(*this, e);
    return *this;
  }
  /// Sets every element to `value` (converted to T), through the compiled layer: from any
  /// translation unit, on any place. Throws ShapeError for an unallocated array.
  template <class V, class = std::enable_if_t<is_scalar_number_v<V>>>
  Array& operator=(V value) {
    check_allocated_for(value);
    const T element = static_cast<T>(value);
    if (numel() > 0) stats::record_pass();  // an assignment's one pass, as for expressions
    detail::fill_strided(detail::strided_bytes(data(), place(), dims_, strides_, buffer_.get()),
                         &element, sizeof(T));
    return *this;
  }

  ///@{
  /// Element-wise compound assignment with an expression or a number, in ONE pass, by the
  /// assignment rules (class comment); the array must be allocated (ShapeError otherwise).
  template <class V, class TU = detail::ThisTranslationUnit>
  Array& operator+=(const V& v) {
    return compound<saver::add, TU>(v);
  }
  template <class V, class TU = detail::ThisTranslationUnit>
  Array& operator-=(const V& v) {
    return compound<saver::subtract, TU>(v);
  }
  template <class V, class TU = detail::ThisTranslationUnit>
  Array& operator*=(const V& v) {
    return compound<saver::multiply, TU>(v);
  }
  template <class V, class TU = detail::ThisTranslationUnit>
  Array& operator/=(const V& v) {
    return compound<saver::divide, TU>(v);
  }
  ///@}

  /// A view of `buffer` with the given layout; offset and strides are counted in elements and not
  /// checked against the buffer's size (the caller vouches for them).
  Array(std::shared_ptr<Allocation> buffer, const Dim<N>& dims, const Dim<N>& strides,
        index_t offset)
      : buffer_(std::move(buffer)), dims_(dims), strides_(strides), offset_(offset) {}

  /// The extent.
  const Dim<N>& dims() const { return dims_; }
  /// The step between neighbours along each axis, in elements (row-major for a dense array).
  const Dim<N>& strides() const { return strides_; }
  /// Where data() starts inside the buffer, in elements.
  index_t offset() const { return offset_; }
  /// The number of elements, product(dims()).
  index_t numel() const { return product(dims_); }
  /// The first element (nullptr for an unallocated or zero-byte array); device memory for a GPU
  /// array.
  T* data() const { return buffer_ ? static_cast<T*>(buffer_->data()) + offset_ : nullptr; }
  /// Where the buffer is; the CPU for an unallocated array.
  Place place() const { return buffer_ ? buffer_->place() : Place(CpuPlace()); }
  /// False only for a default-constructed array of rank > 0 that nothing was assigned to yet.
  bool allocated() const { return buffer_ != nullptr; }
  /// The shared buffer (null for an unallocated array).
  const std::shared_ptr<Allocation>& buffer() const { return buffer_; }

  /// True when the elements are dense in row-major order (strides of size-1 extents ignored).
  bool is_contiguous() const {
    if constexpr (N > 0) {
      index_t expected = 1;
      for (int i = N - 1; i >= 0; --i) {
        if (dims_.at(i) != 1 && strides_.at(i) != expected) return numel() == 0;
        expected *= dims_.at(i);
      }
    }
    return true;
  }

  /// Host access to one element of a CPU array; throws PlaceError for a GPU array and
  /// IndexError for an index outside dims().
  T& operator[](const Dim<N>& index) const {
    check_host_access();
    if (!contains(dims_, index)) {
      throw IndexError(detail::message("index ", index, " is out of range for shape ", dims_));
    }
    return data()[linearize(index, strides_)];
  }

  /// a(i, j, ...): the same as a[make_dim(i, j, ...)].
  template <class... Indices, class = std::enable_if_t<(std::is_arithmetic_v<Indices> && ...)>>
  T& operator()(Indices... indices) const {
    static_assert(sizeof...(Indices) == N, "Array element access needs one index per dimension.");
    static_assert((std::is_integral_v<Indices> && ...),
                  "Array element access takes integer indices: a(1.5, 0) would truncate 1.5; "
                  "convert the index explicitly.");
    return (*this)[Dim<N>(static_cast<index_t>(indices)...)];
  }

  ///@{
  /// a("i,k"): this array with its axes labelled, for Einstein-notation expressions
  /// (labels/labelled_array.h). Throws LabelError unless the labels name exactly N axes. An
  /// unallocated array labelled this way is allocated by the assignment to it. (Templates, so
  /// that a(0) is element access and never a null label string.)
  template <class Labels,
            class = std::enable_if_t<std::is_convertible_v<const Labels&, const char*>>>
  LabelledArray<T, N> operator()(const Labels& labels) const;
  template <class Labels,
            class = std::enable_if_t<std::is_convertible_v<const Labels&, const char*>>>
  LabelledArray<T, N> operator()(const Labels& labels);
  ///@}

  /// Array<float, 2> c = tx::einsum("ik,kj->ij", a, b) (labels/einsum.h): a new array, as
  /// operator=(const EinsumExp&) makes it.
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  Array(const EinsumExp<Rhs>& e);  // NOLINT(google-explicit-constructor): reads like the math.
  /// c = tx::einsum("ik,kj->ij", a, b): evaluates into this array, allocating it if it is
  /// unallocated, as the labelled assignment c("i,j") = ... does (LabelError for a result rank
  /// other than N, ShapeError, PlaceError; labels/labelled_array.h).
  template <class Rhs, class TU = detail::ThisTranslationUnit>
  Array& operator=(const EinsumExp<Rhs>& e);

  /// The view of row `i`: the first dimension dropped, the buffer shared. Throws IndexError for a
  /// row outside [0, dims()[0]).
  template <int M = N, class = std::enable_if_t<(M > 0)>>
  Array<T, M - 1> operator[](index_t i) const {
    if (i < 0 || i >= dims_.head) {
      throw IndexError(detail::message("row ", i, " is out of range for shape ", dims_));
    }
    return Array<T, M - 1>(buffer_, dims_.tail, strides_.tail, offset_ + i * strides_.head);
  }

  /// The view of rows [begin, end) along the first dimension, sharing the buffer. Throws
  /// IndexError unless 0 <= begin <= end <= dims()[0].
  template <int M = N, class = std::enable_if_t<(M > 0)>>
  Array slice(index_t begin, index_t end) const {
    if (begin < 0 || begin > end || end > dims_.head) {
      throw IndexError(
          detail::message("slice [", begin, ", ", end, ") is out of range for shape ", dims_));
    }
    Dim<N> dims = dims_;
    dims.head = end - begin;
    return Array(buffer_, dims, strides_, offset_ + begin * strides_.head);
  }

  /// The single element of an array with numel() == 1 (ShapeError otherwise), read on the host
  /// from any place. A GPU read waits for every write to the element queued before it, on any
  /// stream.
  T item() const {
    if (numel() != 1) {
      throw ShapeError(
          detail::message("item() needs exactly one element, but the array has shape ", dims_));
    }
    T value;
    detail::copy_strided(detail::strided_bytes(&value, CpuPlace(), Dim<0>(), Dim<0>()),
                         detail::strided_bytes(data(), place(), Dim<0>(), Dim<0>(), buffer_.get()),
                         sizeof(T));
    return value;
  }

 private:
  template <class Saver, class TU, class V>
  Array& compound(const V& v) {
    if constexpr (is_expression_v<V>) {
      detail::evaluate<Saver, TU>(*this, v);
      return *this;
    } else {
      static_assert(is_scalar_number_v<V>, "Compound assignment takes an expression or a number.");
      check_allocated_for(v);
      detail::evaluate_scalar<Saver, TU>(*this, static_cast<T>(v));
      return *this;
    }
  }

  template <class V>
  void check_allocated_for(const V& value) const {
    if (!allocated()) {
      throw ShapeError(
          detail::message("cannot set an unallocated array to ", value, ": give it a shape first"));
    }
  }

  void allocate(const Place& place) {
    if constexpr (N > 0) {
      index_t dims[N];
      for (int i = 0; i < N; ++i) dims[i] = dims_.at(i);
      buffer_ =
          detail::allocate_elements(static_cast<std::uint64_t>(numel()), sizeof(T), place, dims, N);
    } else {
      buffer_ = detail::allocate_elements(1, sizeof(T), place, nullptr, 0);
    }
  }

  void check_host_access() const {
    // The allocation's place by reference: this runs for every element accessed from the host.
    if (buffer_ && is_gpu_place(buffer_->place())) {
      throw PlaceError(detail::message("cannot access an element of an array on ", place(),
                                       " from the host; copy it with tx::to(a, tx::CpuPlace())"));
    }
  }

  std::shared_ptr<Allocation> buffer_;
  Dim<N> dims_;
  Dim<N> strides_;
  index_t offset_ = 0;
};

namespace detail {

/// True when `a` is allocated on a GPU: the allocation's place read in place, not copied as
/// place() returns it (the engines ask this once per assignment).
template <class T, int N>
bool is_on_gpu(const Array<T, N>& a) {
  return a.allocated() && is_gpu_place(a.buffer()->place());
}

}  // namespace detail
}  // namespace tensorx

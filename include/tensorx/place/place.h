// Where memory lives: CpuPlace, CudaPlace(device), and Place, the boost::variant of the two.
// A default-constructed Place is the CPU.
#pragma once

#include <ostream>

#include <boost/variant.hpp>

#include "tensorx/core/error.h"

namespace tensorx {

/// Host memory.
struct CpuPlace {
  /// Every CpuPlace is the same place.
  friend bool operator==(CpuPlace, CpuPlace) { return true; }
  /// Never true: there is one CPU place.
  friend bool operator!=(CpuPlace, CpuPlace) { return false; }
  /// Prints "CpuPlace".
  friend std::ostream& operator<<(std::ostream& out, CpuPlace) { return out << "CpuPlace"; }
};

/// Memory of one CUDA device, by ordinal.
struct CudaPlace {
  /// Device 0.
  CudaPlace() = default;
  /// Device `device_id`. Not checked here: whatever uses the place throws DeviceError where the
  /// device is not usable (cuda::check_device).
  explicit CudaPlace(int device_id) : device(device_id) {}
  /// The CUDA device ordinal.
  int device = 0;
  /// Equal when the ordinals are.
  friend bool operator==(CudaPlace a, CudaPlace b) { return a.device == b.device; }
  /// Unequal when the ordinals are.
  friend bool operator!=(CudaPlace a, CudaPlace b) { return a.device != b.device; }
  /// Prints "CudaPlace(<device>)".
  friend std::ostream& operator<<(std::ostream& out, CudaPlace p) {
    return out << "CudaPlace(" << p.device << ")";
  }
};

/// CpuPlace or CudaPlace. It is a boost::variant (Majel's order: CudaPlace first) whose default is
/// the CPU, so boost::get and boost::apply_visitor work on it directly.
///
/// Copying, comparing, printing and destroying a Place go through boost::variant's visitation,
/// about 140 small functions that every translation unit would compile and optimise again; they
/// are compiled once in libtensorx (src/place/place.cpp); is_gpu_place and is_cpu_place read the
/// variant's discriminator.
class Place : public boost::variant<CudaPlace, CpuPlace> {
 public:
  /// The boost::variant a Place is.
  using Base = boost::variant<CudaPlace, CpuPlace>;
  /// The CPU.
  Place() : Base(CpuPlace()) {}
  /// The CPU; implicit, as every conversion of a place to a Place.
  Place(CpuPlace p) : Base(p) {}  // NOLINT: a place converts implicitly, as in Majel.
  /// The CUDA device of `p`.
  Place(CudaPlace p) : Base(p) {}  // NOLINT
  /// The place the variant `b` holds.
  Place(const Base& b);  // NOLINT
  ///@{
  /// Places are values: copies are equal and independent.
  Place(const Place& other);
  Place& operator=(const Place& other);
  ///@}
  ~Place();

  /// Equal when both are the CPU or both the same CUDA device.
  friend bool operator==(const Place& a, const Place& b);
  /// !(a == b).
  friend bool operator!=(const Place& a, const Place& b) { return !(a == b); }
  /// Prints the place it holds: "CpuPlace" or "CudaPlace(<device>)".
  friend std::ostream& operator<<(std::ostream& out, const Place& p);
};

/// True when `p` is a CudaPlace.
inline bool is_gpu_place(const Place& p) {
  return p.which() == 0;
}
/// True when `p` is the CPU.
inline bool is_cpu_place(const Place& p) {
  return p.which() == 1;
}

/// The device ordinal of a CUDA place; a CPU place throws PlaceError.
int device_of(const Place& p);

}  // namespace tensorx

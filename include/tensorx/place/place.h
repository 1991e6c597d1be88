// Where memory lives: CpuPlace, CudaPlace(device), and Place, the boost::variant of the two.
// A default-constructed Place is the CPU.
#pragma once

#include <ostream>

#include <boost/variant.hpp>

#include "tensorx/core/error.h"

namespace tensorx {

/// Host memory.
struct CpuPlace {
  friend bool operator==(CpuPlace, CpuPlace) { return true; }
  friend bool operator!=(CpuPlace, CpuPlace) { return false; }
  friend std::ostream& operator<<(std::ostream& out, CpuPlace) { return out << "CpuPlace"; }
};

/// Memory of one CUDA device, by ordinal.
struct CudaPlace {
  CudaPlace() = default;
  explicit CudaPlace(int device_id) : device(device_id) {}
  int device = 0;
  friend bool operator==(CudaPlace a, CudaPlace b) { return a.device == b.device; }
  friend bool operator!=(CudaPlace a, CudaPlace b) { return a.device != b.device; }
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
  using Base = boost::variant<CudaPlace, CpuPlace>;
  Place() : Base(CpuPlace()) {}
  Place(CpuPlace p) : Base(p) {}   // NOLINT: a place converts implicitly, as in Majel.
  Place(CudaPlace p) : Base(p) {}  // NOLINT
  Place(const Base& b);            // NOLINT
  Place(const Place& other);
  Place& operator=(const Place& other);
  ~Place();

  friend bool operator==(const Place& a, const Place& b);
  friend bool operator!=(const Place& a, const Place& b) { return !(a == b); }
  friend std::ostream& operator<<(std::ostream& out, const Place& p);
};

inline bool is_gpu_place(const Place& p) {
  return p.which() == 0;
}
inline bool is_cpu_place(const Place& p) {
  return p.which() == 1;
}

/// The device ordinal of a CUDA place; a CPU place throws PlaceError.
int device_of(const Place& p);

}  // namespace tensorx

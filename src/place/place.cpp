// Place's operations over its two alternatives, compiled once here instead of in every translation
// unit (see the comment on Place in include/tensorx/place/place.h).
#include "tensorx/place/place.h"

namespace tensorx {

Place::Place(const Base& b) : Base(b) {}
Place::Place(const Place& other) = default;
Place& Place::operator=(const Place& other) = default;
Place::~Place() = default;

bool operator==(const Place& a, const Place& b) {
  return static_cast<const Place::Base&>(a) == static_cast<const Place::Base&>(b);
}

std::ostream& operator<<(std::ostream& out, const Place& p) {
  return out << static_cast<const Place::Base&>(p);
}

int device_of(const Place& p) {
  if (const CudaPlace* gpu = boost::get<CudaPlace>(&p)) return gpu->device;
  throw PlaceError(detail::message("expected a CudaPlace, got ", p));
}

}  // namespace tensorx

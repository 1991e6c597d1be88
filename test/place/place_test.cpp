// Places and the device layer on any machine: what a Place is, how it compares and prints, and how
// device queries, guards and streams behave where no GPU is usable (they throw DeviceError with a
// sentence saying why) or where one is, and events that captured no work.
#include <sstream>
#include <string>
#include <utility>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"
#include "tensorx/place/device.h"
#include "tensorx/place/event.h"
#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

namespace tx = tensorx;

namespace {

template <class T>
std::string printed(const T& value) {
  std::ostringstream out;
  out << value;
  return out.str();
}

bool has_gpu() {
  return tx::cuda::device_count() > 0;
}

// The message every use of CudaPlace(device) gives where no GPU is usable.
std::string no_gpu_message(int device) {
  return "cannot use CudaPlace(" + std::to_string(device) + "): " + tx::cuda::unavailable_reason();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(place)

BOOST_AUTO_TEST_CASE(a_default_place_is_the_cpu) {
  const tx::Place place;
  BOOST_TEST(tx::is_cpu_place(place));
  BOOST_TEST(!tx::is_gpu_place(place));
  BOOST_TEST(place == tx::Place(tx::CpuPlace()));
  BOOST_TEST(tx::CudaPlace().device == 0);
}

BOOST_AUTO_TEST_CASE(a_cuda_place_is_a_gpu_place_with_its_device) {
  const tx::Place place = tx::CudaPlace(1);
  BOOST_TEST(tx::is_gpu_place(place));
  BOOST_TEST(!tx::is_cpu_place(place));
  BOOST_TEST(tx::device_of(place) == 1);
  BOOST_CHECK_EXCEPTION(tx::device_of(tx::CpuPlace()), tx::PlaceError,
                        tx::testing::message_is("expected a CudaPlace, got CpuPlace"));
}

BOOST_AUTO_TEST_CASE(boost_get_and_visitors_see_the_variant) {
  const tx::Place gpu = tx::CudaPlace(2);
  BOOST_TEST(boost::get<tx::CudaPlace>(gpu).device == 2);
  BOOST_TEST(boost::get<tx::CpuPlace>(&gpu) == nullptr);
  BOOST_CHECK_THROW(boost::get<tx::CpuPlace>(gpu), boost::bad_get);
  BOOST_TEST(gpu.which() == 0);  // Majel's order: CudaPlace first
  BOOST_TEST(tx::Place().which() == 1);

  tx::Place place = tx::CpuPlace();
  place = tx::CudaPlace(3);
  boost::get<tx::CudaPlace>(place).device = 4;
  BOOST_TEST(place == tx::Place(tx::CudaPlace(4)));

  struct DeviceOrMinusOne : boost::static_visitor<int> {
    int operator()(tx::CudaPlace p) const { return p.device; }
    int operator()(tx::CpuPlace) const { return -1; }
  };
  BOOST_TEST(boost::apply_visitor(DeviceOrMinusOne(), place) == 4);
  BOOST_TEST(boost::apply_visitor(DeviceOrMinusOne(), tx::Place()) == -1);
}

BOOST_AUTO_TEST_CASE(places_compare_by_kind_and_device) {
  BOOST_TEST(tx::CpuPlace() == tx::CpuPlace());
  BOOST_TEST(!(tx::CpuPlace() != tx::CpuPlace()));
  BOOST_TEST(tx::CudaPlace(0) == tx::CudaPlace(0));
  BOOST_TEST(tx::CudaPlace(0) != tx::CudaPlace(1));
  BOOST_TEST(tx::Place(tx::CudaPlace(1)) == tx::Place(tx::CudaPlace(1)));
  BOOST_TEST(tx::Place(tx::CudaPlace(0)) != tx::Place(tx::CudaPlace(1)));
  BOOST_TEST(tx::Place(tx::CudaPlace(0)) != tx::Place(tx::CpuPlace()));
  BOOST_TEST(tx::Place() == tx::Place(tx::CpuPlace()));
}

BOOST_AUTO_TEST_CASE(places_print_their_kind_and_device) {
  BOOST_TEST(printed(tx::CpuPlace()) == "CpuPlace");
  BOOST_TEST(printed(tx::CudaPlace(1)) == "CudaPlace(1)");
  BOOST_TEST(printed(tx::Place()) == "CpuPlace");
  BOOST_TEST(printed(tx::Place(tx::CudaPlace(1))) == "CudaPlace(1)");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(device)

BOOST_AUTO_TEST_CASE(device_count_answers_without_throwing) {
  int count = -1;
  BOOST_CHECK_NO_THROW(count = tx::cuda::device_count());
  BOOST_TEST(count >= 0);
  BOOST_TEST(tx::cuda::device_count() == count);
#if defined(TENSORX_WITH_CUDA)
  BOOST_TEST(tx::cuda::compiled_with_cuda());
#else
  BOOST_TEST(!tx::cuda::compiled_with_cuda());
  BOOST_TEST(count == 0);
  BOOST_TEST(std::string(tx::cuda::unavailable_reason()).find("built without CUDA") !=
             std::string::npos);
#endif
}

BOOST_AUTO_TEST_CASE(the_reason_is_given_exactly_when_no_device_is_usable) {
  const std::string reason = tx::cuda::unavailable_reason();
  BOOST_TEST(reason.empty() == has_gpu());
  if (!has_gpu()) BOOST_TEST(reason.find("CUDA") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_cpu_is_always_usable) {
  BOOST_CHECK_NO_THROW(tx::check_place(tx::CpuPlace()));
  BOOST_CHECK_NO_THROW(tx::check_place(tx::Place()));
  BOOST_CHECK_NO_THROW(tx::synchronize(tx::CpuPlace()));
  BOOST_CHECK_NO_THROW(tx::synchronize());
}

BOOST_AUTO_TEST_CASE(cuda_place_0_is_usable_exactly_when_a_device_is) {
  if (has_gpu()) {
    BOOST_CHECK_NO_THROW(tx::check_place(tx::CudaPlace(0)));
    BOOST_CHECK_NO_THROW(tx::cuda::check_device(0));
  } else {
    BOOST_CHECK_EXCEPTION(tx::check_place(tx::CudaPlace(0)), tx::DeviceError,
                          tx::testing::message_is(no_gpu_message(0)));
    BOOST_CHECK_EXCEPTION(tx::cuda::check_device(0), tx::DeviceError,
                          tx::testing::message_is(no_gpu_message(0)));
  }
}

BOOST_AUTO_TEST_CASE(an_ordinal_past_the_devices_names_itself_and_the_count) {
  const int count = tx::cuda::device_count();
  for (int device : {count, count + 5, -1}) {
    if (has_gpu()) {
      BOOST_CHECK_EXCEPTION(
          tx::check_place(tx::CudaPlace(device)), tx::DeviceError,
          tx::testing::message_has({"CudaPlace(" + std::to_string(device) + ")", "out of range",
                                    std::to_string(count) + " CUDA device"}));
    } else {
      BOOST_CHECK_EXCEPTION(tx::check_place(tx::CudaPlace(device)), tx::DeviceError,
                            tx::testing::message_is(no_gpu_message(device)));
    }
  }
}

BOOST_AUTO_TEST_CASE(the_current_device_and_guards_need_a_gpu) {
  if (has_gpu()) {
    const int before = tx::cuda::current_device();
    {
      tx::cuda::DeviceGuard guard(tx::cuda::device_count() - 1);
      BOOST_TEST(tx::cuda::current_device() == tx::cuda::device_count() - 1);
    }
    BOOST_TEST(tx::cuda::current_device() == before);
    {
      // A guard of the current device still restores it when code in its scope changes it.
      tx::cuda::DeviceGuard guard(before);
      tx::cuda::set_device(tx::cuda::device_count() - 1);
    }
    BOOST_TEST(tx::cuda::current_device() == before);
    return;
  }
  const std::string reason = tx::cuda::unavailable_reason();
  BOOST_CHECK_EXCEPTION(tx::cuda::current_device(), tx::DeviceError,
                        tx::testing::message_is("cannot query the current CUDA device: " + reason));
  BOOST_CHECK_EXCEPTION(tx::cuda::set_device(0), tx::DeviceError,
                        tx::testing::message_is(no_gpu_message(0)));
  BOOST_CHECK_EXCEPTION(tx::cuda::DeviceGuard(0), tx::DeviceError,
                        tx::testing::message_is(no_gpu_message(0)));
}

BOOST_AUTO_TEST_CASE(streams_need_a_gpu) {
  if (has_gpu()) {
    tx::Stream stream;
    BOOST_TEST(stream.handle() != nullptr);
    BOOST_TEST(stream.place() == tx::CudaPlace(0));
    BOOST_TEST(tx::current_stream(0) == nullptr);
    {
      tx::StreamGuard guard(stream);
      BOOST_TEST(tx::current_stream(0) == stream.handle());
    }
    BOOST_TEST(tx::current_stream(0) == nullptr);
    return;
  }
  BOOST_CHECK_EXCEPTION(tx::Stream(), tx::DeviceError, tx::testing::message_is(no_gpu_message(0)));
  BOOST_CHECK_EXCEPTION(tx::Stream(tx::CudaPlace(2)), tx::DeviceError,
                        tx::testing::message_is(no_gpu_message(2)));
  BOOST_CHECK_EXCEPTION(tx::current_stream(0), tx::DeviceError,
                        tx::testing::message_is(no_gpu_message(0)));
  BOOST_CHECK_EXCEPTION(tx::synchronize(tx::CudaPlace(0)), tx::DeviceError,
                        tx::testing::message_is(no_gpu_message(0)));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(event)

BOOST_AUTO_TEST_CASE(an_event_that_captured_nothing_is_complete) {
  tx::Event event;
  BOOST_TEST(event.handle() == nullptr);
  BOOST_TEST(event.query());
  BOOST_CHECK_NO_THROW(event.synchronize());
  tx::Event moved = std::move(event);
  BOOST_TEST(moved.query());
}

BOOST_AUTO_TEST_CASE(events_record_streams_on_a_gpu) {
  if (!has_gpu()) return;  // no Stream to record on; test/cuda/streams_test.cu covers the rest
  tx::Stream stream;
  tx::Event event;
  event.record(stream);
  BOOST_TEST(event.handle() != nullptr);
  BOOST_TEST(event.device() == 0);
  event.synchronize();
  BOOST_TEST(event.query());
  tx::Stream other;
  BOOST_CHECK_NO_THROW(other.wait(event));
  BOOST_CHECK_NO_THROW(other.wait(stream));
}

BOOST_AUTO_TEST_SUITE_END()

// The rule that orders GPU work across streams, as the plain class that holds it: which streams a
// read or a write of a buffer on some stream must wait for, given the streams that used the buffer
// before. Streams are names here; on a GPU they are the states of CUDA streams (test/cuda/
// streams_test.cu checks the waits there). Also what host memory and machines without a GPU see
// of the stream bookkeeping and of the GPU memory counters.
#include <string>
#include <vector>

#include <boost/test/unit_test.hpp>

#include "support/errors.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/memory/memory_stats.h"
#include "tensorx/memory/stream_record.h"
#include "tensorx/place/device.h"

namespace tx = tensorx;

namespace {

using Record = tx::detail::StreamRecord<std::string>;
using Streams = std::vector<std::string>;

// The streams a use waited for, in the order the record asked.
Streams read(Record& record, const std::string& stream) {
  Streams waits;
  record.read(stream, [&](const std::string& earlier) { waits.push_back(earlier); });
  return waits;
}

Streams write(Record& record, const std::string& stream) {
  Streams waits;
  record.write(stream, [&](const std::string& earlier) { waits.push_back(earlier); });
  return waits;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(stream_record)

BOOST_AUTO_TEST_CASE(one_stream_never_waits) {
  Record record("default");
  BOOST_TEST(record.used_only_on("default"));
  for (int step = 0; step < 3; ++step) {
    BOOST_TEST(read(record, "default").empty());
    BOOST_TEST(write(record, "default").empty());
  }
  BOOST_TEST(record.used_only_on("default"));
  BOOST_TEST(!record.used_only_on("s"));
}

BOOST_AUTO_TEST_CASE(the_allocation_is_the_first_write) {
  // Memory from a stream-ordered allocator exists in its stream's order only.
  Record record("alloc");
  BOOST_TEST(read(record, "s") == Streams{"alloc"});
  Record other("alloc");
  BOOST_TEST(write(other, "s") == Streams{"alloc"});
}

BOOST_AUTO_TEST_CASE(a_read_follows_the_last_write_once) {
  Record record("w");
  BOOST_TEST(read(record, "r") == Streams{"w"});
  BOOST_TEST(read(record, "r").empty(), "r already follows the write");
  BOOST_TEST(read(record, "w").empty(), "the writer's own stream is in order");
  BOOST_TEST(read(record, "q") == Streams{"w"});
  BOOST_TEST(record.writer() == "w");
  BOOST_TEST(record.readers() == (Streams{"r", "q"}));
  BOOST_TEST(!record.used_only_on("w"));
}

BOOST_AUTO_TEST_CASE(a_write_follows_the_last_write_and_every_read_since) {
  Record record("w");
  read(record, "r");
  read(record, "q");
  BOOST_TEST(write(record, "x") == (Streams{"w", "r", "q"}));
  BOOST_TEST(record.writer() == "x");
  BOOST_TEST(record.readers().empty());
  BOOST_TEST(record.used_only_on("x"));
  // The next write after that follows x alone.
  BOOST_TEST(write(record, "y") == Streams{"x"});
}

BOOST_AUTO_TEST_CASE(a_reader_that_writes_waits_for_the_other_readers_only) {
  Record record("w");
  read(record, "r");
  read(record, "q");
  // r already waited for w when it read; q may still be reading.
  BOOST_TEST(write(record, "r") == Streams{"q"});
  BOOST_TEST(record.used_only_on("r"));
}

BOOST_AUTO_TEST_CASE(the_writer_that_writes_again_waits_for_the_readers) {
  Record record("w");
  read(record, "r");
  BOOST_TEST(write(record, "w") == Streams{"r"});
  BOOST_TEST(record.used_only_on("w"));
}

BOOST_AUTO_TEST_CASE(ping_pong_between_two_streams) {
  // a writes, b reads and writes, a reads: each hand-over is one wait.
  Record record("a");
  BOOST_TEST(read(record, "b") == Streams{"a"});
  BOOST_TEST(write(record, "b").empty());
  BOOST_TEST(read(record, "a") == Streams{"b"});
  BOOST_TEST(write(record, "a").empty());
  BOOST_TEST(record.used_only_on("a"));
}

BOOST_AUTO_TEST_CASE(readers_whose_work_is_done_are_forgotten_and_need_no_wait) {
  Record record("w");
  for (const char* reader : {"r1", "done1", "r2", "done2"}) read(record, reader);
  BOOST_TEST(record.has_reader("done1"));
  record.forget_finished_readers(
      [](const std::string& reader) { return reader.rfind("done", 0) == 0; });
  BOOST_TEST(record.readers() == (Streams{"r1", "r2"}), "the others keep their order");
  BOOST_TEST(!record.has_reader("done1"));
  BOOST_TEST(record.writer() == "w", "the writer is never forgotten");
  // A forgotten reader that reads again follows the write again; a write follows the rest.
  BOOST_TEST(read(record, "done1") == Streams{"w"});
  BOOST_TEST(write(record, "x") == (Streams{"w", "r1", "r2", "done1"}));
}

BOOST_AUTO_TEST_CASE(forgetting_every_reader_leaves_the_writer_the_only_user) {
  Record record("w");
  read(record, "r");
  record.forget_finished_readers([](const std::string&) { return true; });
  BOOST_TEST(record.readers().empty());
  BOOST_TEST(record.used_only_on("w"));
  BOOST_TEST(write(record, "w").empty());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(stream_bookkeeping_without_a_gpu)

BOOST_AUTO_TEST_CASE(host_memory_has_no_stream_record) {
  tx::Allocation host(64, tx::CpuPlace());
  // No record was started for host memory, so a use is ignored: a null stream state would crash
  // if anything were done with it.
  BOOST_CHECK_NO_THROW(host.streams().use(nullptr, false));
  BOOST_CHECK_NO_THROW(host.streams().use(nullptr, true));
  BOOST_TEST(host.streams().reader_count() == 0u);
}

BOOST_AUTO_TEST_CASE(gpu_memory_counters_need_a_gpu) {
  if (tx::cuda::device_count() > 0) return;  // test/cuda/streams_test.cu checks them on a GPU
  const std::string reason = tx::cuda::unavailable_reason();
  BOOST_CHECK_EXCEPTION(tx::cuda::memory_stats(0), tx::DeviceError,
                        tx::testing::message_is("cannot use CudaPlace(0): " + reason));
  BOOST_CHECK_EXCEPTION(tx::cuda::set_memory_cache_limit(0, 1 << 20), tx::DeviceError,
                        tx::testing::message_is("cannot use CudaPlace(0): " + reason));
  BOOST_CHECK_EXCEPTION(tx::cuda::memory_cache_limit(1), tx::DeviceError,
                        tx::testing::message_is("cannot use CudaPlace(1): " + reason));
  BOOST_CHECK_NO_THROW(tx::cuda::empty_cache());
}

BOOST_AUTO_TEST_SUITE_END()

// GPU work in program order whatever streams it runs on (DESIGN.md section 7). Each case delays
// one stream with a spinning kernel (some milliseconds) and then queues tensorx work there and on
// another stream: without the ordering the second stream runs during the spin and reads stale
// values, overwrites what the first still reads, or gets its memory. Every kernel a case runs is
// launched once before its spin, so that CUDA's lazy module loading (which may wait for running
// kernels when it loads one) cannot order the work by itself and hide a missing wait.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <cuda_runtime.h>
#include <boost/test/unit_test.hpp>

#include <tensorx/tensorx.h>

#include "interop/scratch_dir.h"
#include "support/cuda_test.h"
#include "support/errors.h"
#include "support/reference.h"
#include "support/spin_kernel.cuh"

namespace tx = tensorx;
using tx::index_t;
using tx::testing::check_close;
using tx::testing::delay;
using tx::testing::on_host;
using tx::testing::reference;

namespace {

tx::Place gpu() {
  return tx::CudaPlace(0);
}

void require_success(cudaError_t status) {
  BOOST_TEST_REQUIRE(status == cudaSuccess, cudaGetErrorName(status));
}

constexpr index_t kCount = 1 << 16;

/// A new array of kCount elements on GPU 0, every element `value`, the fill complete.
tx::Array<float, 1> filled(float value) {
  auto a = tx::Array<float, 1>(tx::make_dim(kCount), gpu());
  tx::fill(a, value);
  tx::synchronize();
  return a;
}

template <int N>
tx::Array<double, N> constant(const tx::Dim<N>& dims, double value) {
  return reference(dims, [value](const auto&) { return value; });
}

/// Loads the spinning kernels before any case runs.
struct WarmSpin {
  WarmSpin() {
    if (tx::cuda::device_count() > 0) tx::testing::warm_spin_kernels<float>();
  }
};
BOOST_TEST_GLOBAL_FIXTURE(WarmSpin);

}  // namespace

BOOST_AUTO_TEST_SUITE(cross_stream_order, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(a_read_on_another_stream_waits_for_the_write) {
  const auto b = filled(3.0f);
  auto a = filled(0.0f);
  tx::Array<float, 1> c(a.dims(), gpu());
  c = a * 2.0f;  // loads the kernels
  a = b + 1.0f;
  tx::fill(a, 0.0f);  // what a read that did not wait would see
  tx::synchronize();
  tx::Stream stream;
  // The default stream writes a after its spin; the guarded stream reads it at once.
  delay(nullptr);
  a = b + 1.0f;
  {
    tx::StreamGuard guard(stream);
    c = a * 2.0f;
  }
  check_close(c, constant(c.dims(), 8.0));
}

BOOST_AUTO_TEST_CASE(work_on_the_default_stream_waits_for_a_guarded_write) {
  const auto b = filled(3.0f);
  auto a = filled(0.0f);
  tx::Array<float, 1> c(a.dims(), gpu());
  c = a * 2.0f;
  a = b + 1.0f;
  tx::fill(a, 0.0f);
  tx::synchronize();
  tx::Stream stream;
  {
    tx::StreamGuard guard(stream);
    delay(stream.handle());
    a = b + 1.0f;
  }
  c = a * 2.0f;
  check_close(c, constant(c.dims(), 8.0));
}

BOOST_AUTO_TEST_CASE(a_write_on_another_stream_waits_for_earlier_reads) {
  auto a = filled(1.0f);
  tx::Array<float, 1> c(a.dims(), gpu());
  c = a * 2.0f;
  tx::synchronize();
  tx::Stream stream;
  {
    tx::StreamGuard guard(stream);
    delay(stream.handle());
    c = a * 2.0f;  // reads a once the spin ends
  }
  tx::fill(a, 5.0f);  // on the default stream: must not overtake the read
  check_close(c, constant(c.dims(), 2.0));
  check_close(a, constant(a.dims(), 5.0));
}

BOOST_AUTO_TEST_CASE(memory_is_not_reused_while_another_stream_reads_it) {
  auto a = filled(1.0f);
  tx::Array<float, 1> c(a.dims(), gpu());
  c = a * 2.0f;
  tx::synchronize();
  tx::Stream stream;
  {
    tx::StreamGuard guard(stream);
    delay(stream.handle());
    c = a * 2.0f;
  }
  const float* const freed = a.data();
  a = tx::Array<float, 1>();  // the last handle: the buffer goes back to the pool
  // The same size on the default stream: the pool would hand back a's block at once if its free
  // were not ordered after the read, and the fill would overwrite it during the spin.
  auto b = filled(7.0f);
  BOOST_TEST_MESSAGE("the next allocation " << (b.data() == freed ? "reused" : "did not reuse")
                                            << " the freed block");
  check_close(c, constant(c.dims(), 2.0));
}

BOOST_AUTO_TEST_CASE(host_reads_wait_for_work_queued_in_a_guard) {
  const auto b = filled(3.0f);
  tx::Array<float, 1> c(b.dims(), gpu());
  tx::Array<float, 0> s(tx::Dim<0>(), gpu());
  c = b + 1.0f;
  s = tx::sum(c);
  tx::synchronize();
  tx::Stream stream;
  const auto in_guard = [&](auto work) {
    tx::StreamGuard guard(stream);
    delay(stream.handle());
    work();
  };
  // tx::to
  in_guard([&] { c = b * 2.0f; });
  check_close(c, constant(c.dims(), 6.0));
  // .item()
  in_guard([&] { s = tx::sum(c); });
  BOOST_TEST(s.item() == 6.0f * kCount);
  // tx::copy into host memory
  in_guard([&] { c = b + 4.0f; });
  tx::Array<float, 1> host(c.dims());
  tx::copy(host, c);
  BOOST_TEST(host(0) == 7.0f);
  BOOST_TEST(host(kCount - 1) == 7.0f);
  // tx::save_npy of a GPU array
  in_guard([&] { c = b + 5.0f; });
  const tx::testing::ScratchDir dir;
  tx::save_npy(dir.file("c.npy"), c);
  const auto saved = tx::load_npy<float, 1>(dir.file("c.npy"));
  BOOST_TEST(saved(0) == 8.0f);
  BOOST_TEST(saved(kCount - 1) == 8.0f);
}

BOOST_AUTO_TEST_CASE(arrays_outlive_the_stream_they_were_made_on) {
  const auto a = filled(2.0f);
  const tx::Array<float, 1> host = on_host(a);
  {
    // Loads the kernel; its 10s are what a recycled block would show if a read did not wait.
    const tx::Array<float, 1> warm = a * 5.0f;
  }
  tx::synchronize();
  tx::Array<float, 1> c;
  tx::Array<float, 1> moved;
  const std::size_t before = tx::cuda::memory_stats(0).allocated_bytes;
  {
    tx::Stream stream;
    tx::StreamGuard guard(stream);
    delay(stream.handle());
    c = a * 3.0f;                 // allocated on the stream, written after the spin
    moved = tx::to(host, gpu());  // allocated and copied on the stream
  }                               // the stream is destroyed with its work still queued
  check_close(c, constant(c.dims(), 6.0));
  check_close(moved, constant(moved.dims(), 2.0));
  BOOST_TEST(tx::cuda::memory_stats(0).allocated_bytes == before + 2 * kCount * sizeof(float));
  c = tx::Array<float, 1>();  // freed after the destroyed stream's last work
  moved = tx::Array<float, 1>();
  BOOST_TEST(tx::cuda::memory_stats(0).allocated_bytes == before);
  tx::synchronize();
  BOOST_TEST(cudaGetLastError() == cudaSuccess, "no free went to a destroyed stream");
}

BOOST_AUTO_TEST_CASE(
    reductions_products_contractions_transposes_and_copies_follow_writes_on_other_streams) {
  const auto b = filled(3.0f);
  auto m = tx::to(tx::zeros<float>(tx::make_dim(256, 256)), gpu());
  auto w = tx::to(tx::ones<float>(tx::make_dim(256, 256)), gpu());
  auto bias = tx::to(tx::ones<float>(tx::make_dim(256)), gpu());
  tx::Array<float, 1> row_sums(tx::make_dim(256), gpu());
  tx::Array<float, 2> product(m.dims(), gpu()), layer(m.dims(), gpu()), turned(m.dims(), gpu());
  tx::Array<float, 2> copied(m.dims(), gpu()), labelled(m.dims(), gpu());
  tx::Array<float, 2> regrouped(m.dims(), gpu()), einsummed;
  // (k, l) in m's order and (l, k) in w's: one of them is copied into the other's order first.
  auto m3 = tx::reshape(m, tx::make_dim(256, 16, 16));
  auto w3 = tx::reshape(w, tx::make_dim(16, 16, 256));
  const auto run_all = [&] {
    row_sums = tx::sum<1>(m);
    product = tx::dot(m, w);
    layer = tx::relu(tx::dot(m, w) + bias);
    turned = tx::transpose(m);
    tx::copy(copied, m);
    labelled("i,j") = m("i,k") * w("k,j");
    regrouped("i,j") = m3("i,k,l") * w3("l,k,j");
    einsummed = tx::einsum("ik,kj->ij", m, w);
  };
  run_all();  // loads every kernel and makes the BLAS handles and plans
  tx::synchronize();
  tx::Stream stream;
  delay(nullptr);
  m = tx::broadcast_to(b.slice(0, 256), m.dims()) * 1.0f;  // every element 3, after the spin
  {
    tx::StreamGuard guard(stream);
    run_all();
  }
  check_close(row_sums, constant(row_sums.dims(), 3.0 * 256));
  check_close(product, constant(product.dims(), 3.0 * 256), 1e-5);
  check_close(layer, constant(layer.dims(), 3.0 * 256 + 1.0), 1e-5);
  check_close(turned, constant(turned.dims(), 3.0));
  check_close(copied, constant(copied.dims(), 3.0));
  check_close(labelled, constant(labelled.dims(), 3.0 * 256), 1e-5);
  check_close(regrouped, constant(regrouped.dims(), 3.0 * 256), 1e-5);
  check_close(einsummed, constant(einsummed.dims(), 3.0 * 256), 1e-5);
}

BOOST_AUTO_TEST_CASE(threads_on_their_own_streams_read_one_array) {
  auto a = filled(1.0f);
  std::vector<tx::Array<float, 1>> results(4);
  for (auto& r : results) r = a * 1.0f;
  tx::synchronize();
  delay(nullptr);
  a = a * 2.0f;  // 2 everywhere, after the spin
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      tx::Stream stream;
      tx::StreamGuard guard(stream);
      results[t] = a * static_cast<float>(t + 1);
    });
  }
  for (auto& thread : threads) thread.join();
  tx::fill(a, -1.0f);  // must wait for every thread's read
  for (std::size_t t = 0; t < results.size(); ++t) {
    check_close(results[t], constant(results[t].dims(), 2.0 * static_cast<double>(t + 1)));
  }
}

BOOST_AUTO_TEST_CASE(a_stream_destroyed_on_one_thread_while_another_frees_what_it_wrote) {
  // A stress case, since no hook stops either thread at the racy point: the free waits for a
  // reader and goes on the array's last writer while another thread destroys that writer's
  // Stream. A free queued on the destroyed stream fails (the block then stays in the pool) or
  // crashes; two locks taken in opposite orders would hang.
  const auto b = filled(1.0f);
  { const tx::Array<float, 1> warm = b * 2.0f; }  // loads the kernel
  tx::synchronize();
  tx::cuda::empty_cache();
  const tx::cuda::MemoryStats before = tx::cuda::memory_stats(0);
  for (int round = 0; round < 200; ++round) {
    std::optional<tx::Stream> stream(std::in_place);
    std::optional<tx::Array<float, 1>> a;
    {
      tx::StreamGuard guard(*stream);
      a = b * 2.0f;  // allocated and written on the stream
    }
    const tx::Array<float, 1> c = *a + 1.0f;  // read on the default stream
    std::atomic<int> arrived{0};
    const auto meet = [&] {
      arrived.fetch_add(1);
      while (arrived.load() < 2) {
      }
    };
    std::thread destroyer([&] {
      meet();
      stream.reset();
    });
    meet();
    a.reset();
    destroyer.join();
  }
  tx::synchronize();
  tx::cuda::empty_cache();
  const tx::cuda::MemoryStats after = tx::cuda::memory_stats(0);
  BOOST_TEST(after.allocated_bytes == before.allocated_bytes);
  BOOST_TEST(after.reserved_bytes == before.reserved_bytes, "a block was never freed");
  require_success(cudaGetLastError());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(events_and_waits, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(an_event_orders_a_kernel_the_program_launched_itself) {
  auto a = filled(0.0f);
  tx::Array<float, 1> c(a.dims(), gpu());
  c = a + 1.0f;
  tx::synchronize();
  tx::Stream producer, consumer;
  tx::testing::spin_then_fill(producer.handle(), a.data(), kCount, 4.0f);
  tx::Event done;
  done.record(producer);
  BOOST_TEST(!done.query(), "the spin is still running");
  consumer.wait(done);
  {
    tx::StreamGuard guard(consumer);
    c = a + 1.0f;  // tensorx cannot see the raw kernel's write: the event orders it
  }
  check_close(c, constant(c.dims(), 5.0));
  done.synchronize();
  BOOST_TEST(done.query());
}

BOOST_AUTO_TEST_CASE(a_stream_waits_for_another_stream) {
  auto a = filled(0.0f);
  tx::Array<float, 1> c(a.dims(), gpu());
  c = a + 1.0f;
  tx::synchronize();
  tx::Stream producer, consumer;
  tx::testing::spin_then_fill(producer.handle(), a.data(), kCount, 9.0f);
  consumer.wait(producer);
  {
    tx::StreamGuard guard(consumer);
    c = a + 1.0f;
  }
  check_close(c, constant(c.dims(), 10.0));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(bounded_resources, *tx::testing::needs_cuda())

BOOST_AUTO_TEST_CASE(a_thousand_short_lived_streams_keep_handles_and_memory_bounded) {
  auto a = tx::to(tx::ones<float>(tx::make_dim(64, 64)), gpu());
  tx::Array<float, 2> c(a.dims(), gpu());
  tx::Array<float, 2> h(a.dims(), gpu());
  const auto bias = tx::to(tx::ones<float>(tx::make_dim(64)), gpu());
  const auto step = [&] {
    c = tx::dot(a, a);
    h = tx::relu(tx::dot(a, c) + bias);
  };
  step();  // this thread's handles, the plans, the kernels
  tx::synchronize();
  tx::cuda::empty_cache();
  std::size_t free_before = 0, free_after = 0, total = 0;
  require_success(cudaMemGetInfo(&free_before, &total));
  const std::size_t allocated_before = tx::cuda::memory_stats(0).allocated_bytes;
  for (int request = 0; request < 1000; ++request) {
    tx::Stream stream;
    tx::StreamGuard guard(stream);
    step();
  }
  tx::synchronize();
  {
    // Every earlier request's Stream is gone and its work done: a new reader forgets them.
    tx::Stream stream;
    tx::StreamGuard guard(stream);
    step();
  }
  const std::size_t readers = a.buffer()->streams().reader_count();
  BOOST_TEST(readers <= tx::detail::BufferStreams::kReadersBeforeForgetting,
             "a, read by every request, still names " << readers << " streams");
  tx::synchronize();
  tx::cuda::empty_cache();
  require_success(cudaMemGetInfo(&free_after, &total));
  // A cuBLAS handle per stream (each with its workspace) would take gigabytes here.
  BOOST_TEST(free_before - std::min(free_before, free_after) < (std::size_t{64} << 20),
             "device memory fell by " << (free_before - std::min(free_before, free_after)));
  BOOST_TEST(tx::cuda::memory_stats(0).allocated_bytes == allocated_before);
  check_close(h, constant(h.dims(), 64.0 * 64.0 + 1.0), 1e-5);
}

BOOST_AUTO_TEST_CASE(memory_stats_count_live_and_cached_bytes) {
  tx::synchronize();
  tx::cuda::empty_cache();
  tx::cuda::reset_peak_memory_stats(0);
  const tx::cuda::MemoryStats start = tx::cuda::memory_stats(0);
  constexpr std::size_t kBytes = std::size_t{64} << 20;
  {
    tx::Allocation block(kBytes, gpu());
    const tx::cuda::MemoryStats during = tx::cuda::memory_stats(0);
    BOOST_TEST(during.allocated_bytes == start.allocated_bytes + kBytes);
    BOOST_TEST(during.peak_allocated_bytes == during.allocated_bytes);
    BOOST_TEST(during.reserved_bytes >= during.allocated_bytes);
  }
  const tx::cuda::MemoryStats after = tx::cuda::memory_stats(0);
  BOOST_TEST(after.allocated_bytes == start.allocated_bytes);
  BOOST_TEST(after.peak_allocated_bytes == start.allocated_bytes + kBytes);
  BOOST_TEST(after.reserved_bytes >= kBytes, "the freed block stays cached");
  tx::cuda::empty_cache();
  BOOST_TEST(tx::cuda::memory_stats(0).reserved_bytes < kBytes, "and goes back to the driver");
}

BOOST_AUTO_TEST_CASE(the_cache_limit_is_an_eighth_of_the_device_and_can_be_set) {
  std::size_t free = 0, total = 0;
  require_success(cudaMemGetInfo(&free, &total));
  const std::size_t limit = tx::cuda::memory_cache_limit(0);
  BOOST_TEST(limit == total / tx::cuda::kDefaultCacheFraction);
  tx::cuda::set_memory_cache_limit(0, 0);
  BOOST_TEST(tx::cuda::memory_cache_limit(0) == 0u);
  { tx::Allocation block(std::size_t{64} << 20, gpu()); }
  tx::synchronize();  // the pool releases what it caches beyond the limit at a synchronisation
  BOOST_TEST(tx::cuda::memory_stats(0).reserved_bytes < (std::size_t{64} << 20));
  tx::cuda::set_memory_cache_limit(0, limit);
}

BOOST_AUTO_TEST_CASE(running_out_of_memory_is_an_out_of_memory_error_and_harmless) {
  std::size_t free = 0, total = 0;
  require_success(cudaMemGetInfo(&free, &total));
  // Cache a block first: the failed allocation hands it back to the driver before it gives up.
  const std::size_t limit = tx::cuda::memory_cache_limit(0);
  tx::cuda::set_memory_cache_limit(0, SIZE_MAX);
  constexpr std::size_t kCached = std::size_t{256} << 20;
  { tx::Allocation block(kCached, gpu()); }
  tx::synchronize();
  BOOST_TEST(tx::cuda::memory_stats(0).reserved_bytes >= kCached);
  const std::size_t allocated = tx::cuda::memory_stats(0).allocated_bytes;
  const std::size_t too_many = total + (std::size_t{1} << 30);
  BOOST_CHECK_EXCEPTION(
      tx::Allocation(too_many, gpu()), tx::OutOfMemoryError,
      tx::testing::message_has({"cannot allocate " + std::to_string(too_many) + " bytes on",
                                "CudaPlace(0)", "bytes free of " + std::to_string(total)}));
  BOOST_CHECK_THROW(tx::Allocation(std::size_t{1} << 60, gpu()), tx::OutOfMemoryError);
  BOOST_TEST(tx::cuda::memory_stats(0).reserved_bytes < kCached, "the cache went back first");
  BOOST_TEST(tx::cuda::memory_stats(0).allocated_bytes == allocated);
  BOOST_TEST(cudaGetLastError() == cudaSuccess, "no error is left for the next launch check");
  // The process goes on as before.
  const auto a = filled(2.0f);
  tx::Array<float, 1> c = a * 3.0f;
  check_close(c, constant(c.dims(), 6.0));
  tx::cuda::set_memory_cache_limit(0, limit);
}

BOOST_AUTO_TEST_CASE(an_allocation_that_fits_once_the_cache_is_released_succeeds) {
  tx::synchronize();
  tx::cuda::empty_cache();
  std::size_t free = 0, total = 0;
  require_success(cudaMemGetInfo(&free, &total));
  const std::size_t limit = tx::cuda::memory_cache_limit(0);
  tx::cuda::set_memory_cache_limit(0, SIZE_MAX);
  const std::size_t unit = free / 10 / 256 * 256;
  {
    tx::Allocation cached(5 * unit, gpu());  // half the free memory, then cached
  }
  tx::synchronize();
  void* other_library = nullptr;  // memory the pool cannot get back
  require_success(cudaMalloc(&other_library, unit));
  // Seven tenths: more than the cached block and more than the driver has left, but less than
  // both together once the cache is released.
  BOOST_CHECK_NO_THROW(tx::Allocation(7 * unit, gpu()));
  require_success(cudaFree(other_library));
  tx::cuda::set_memory_cache_limit(0, limit);
  tx::cuda::empty_cache();
}

BOOST_AUTO_TEST_SUITE_END()

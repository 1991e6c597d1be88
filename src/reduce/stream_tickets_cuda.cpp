// The tickets of each stream (tensorx/reduce/stream_tickets.h): a buffer per stream that uses
// them, in tensorx's stream-ordered GPU memory, made (and set to 0) on the stream, grown by
// doubling, and given back once the stream was destroyed and its last work finished. A buffer
// outgrown stays until then too: another thread may hold it for a kernel it has yet to queue on
// the same stream.
#include "tensorx/reduce/stream_tickets.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

#include "place/stream_state.h"
#include "tensorx/core/cuda_check.h"
#include "tensorx/memory/allocation.h"
#include "tensorx/place/device.h"
#include "tensorx/place/place.h"
#include "tensorx/place/stream.h"

namespace tensorx {
namespace detail {
namespace {

struct StreamTickets {
  StreamRef stream;
  std::unique_ptr<Allocation> memory;
  index_t count = 0;
  std::vector<std::unique_ptr<Allocation>> outgrown;
};

/// The fewest tickets a stream's buffer holds: every split reduction of an H100 needs fewer than
/// 16 a multiprocessor (launch_rows, launch_columns), so that most streams never grow theirs.
constexpr index_t kLeastTickets = 4096;

std::mutex tickets_mutex;
std::vector<StreamTickets>& all_tickets() {
  // Never destroyed: a reduction queued during static destruction may still ask for tickets.
  static auto* all = new std::vector<StreamTickets>();
  return *all;
}

}  // namespace

unsigned* stream_tickets(int device, index_t count) {
  const StreamRef& stream = current_stream_state(device);
  const std::lock_guard<std::mutex> lock(tickets_mutex);
  std::vector<StreamTickets>& all = all_tickets();
  auto found = std::find_if(all.begin(), all.end(),
                            [&](const StreamTickets& t) { return t.stream == stream; });
  if (found == all.end()) {
    // A new stream: first forget those destroyed whose work has finished (their memory is freed
    // after its uses, which ended with that work).
    all.erase(std::remove_if(all.begin(), all.end(),
                             [](const StreamTickets& t) { return t.stream->finished(); }),
              all.end());
    all.push_back(StreamTickets{stream, nullptr, 0, {}});
    found = all.end() - 1;
  }
  if (found->count < count) {
    const index_t grown = std::max({count, 2 * found->count, kLeastTickets});
    const std::size_t bytes = static_cast<std::size_t>(grown) * sizeof(unsigned);
    // Made on this stream (its first use) and set to 0 there, before any kernel that takes it.
    auto memory = std::make_unique<Allocation>(bytes, CudaPlace(device));
    const cuda::DeviceGuard guard(device);
    TENSORX_CUDA_CHECK(cudaMemsetAsync(memory->data(), 0, bytes, stream->handle()));
    if (found->memory) found->outgrown.push_back(std::move(found->memory));
    found->memory = std::move(memory);
    found->count = grown;
  }
  return static_cast<unsigned*>(found->memory->data());
}

}  // namespace detail
}  // namespace tensorx

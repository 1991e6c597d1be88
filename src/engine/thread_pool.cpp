// The pool behind detail::run_chunks (engine/parallel_for.h): num_threads() - 1 workers that sleep
// until a pass opens, claim chunks from one atomic counter alongside the calling thread, and go
// back to sleep. The caller closes the pass once every chunk is claimed and waits only for the
// workers that joined it, each finishing the chunk in its hands: a worker that wakes late finds
// the pass closed and joins nothing.
#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tensorx/core/error.h"
#include "tensorx/engine/parallel_for.h"

namespace tensorx {
namespace detail {
namespace {

/// True on a thread while it runs a chunk: a pass started from inside one runs serially.
thread_local bool running_chunk = false;

/// The thread count from the environment, else the hardware's (at least 1).
int default_threads() {
  for (const char* name : {"TENSORX_NUM_THREADS", "OMP_NUM_THREADS"}) {
    if (const char* text = std::getenv(name)) {
      char* end = nullptr;
      const long value = std::strtol(text, &end, 10);
      if (end != text && *end == '\0' && value >= 1 && value <= 4096) {
        return static_cast<int>(value);
      }
    }
  }
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

class ThreadPool {
 public:
  static ThreadPool& instance() {
    static ThreadPool pool;
    return pool;
  }

  ~ThreadPool() { stop_workers(); }

  int threads() const { return threads_.load(std::memory_order_relaxed); }

  void set_threads(int threads) {
    std::lock_guard<std::mutex> pass(pass_mutex_);
    stop_workers();
    threads_.store(threads, std::memory_order_relaxed);
  }

  void run(index_t chunks, void (*run_chunk)(void*, index_t), void* context) {
    std::unique_lock<std::mutex> pass(pass_mutex_, std::try_to_lock);
    if (running_chunk || !pass.owns_lock() || threads() < 2) {
      // Inside a chunk, or while another thread's pass holds the pool: this thread alone.
      for (index_t chunk = 0; chunk < chunks; ++chunk) run_chunk(context, chunk);
      return;
    }
    start_workers();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      run_chunk_ = run_chunk;
      context_ = context;
      chunks_ = chunks;
      next_.store(0, std::memory_order_relaxed);
      error_ = nullptr;
      open_ = true;
      ++generation_;
    }
    wake_.notify_all();
    work(run_chunk, context, chunks);
    std::exception_ptr error;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      open_ = false;
      finished_.wait(lock, [&] { return participants_ == 0; });
      error = error_;
    }
    if (error) std::rethrow_exception(error);
  }

 private:
  ThreadPool() : threads_(default_threads()) {}

  /// Claims and runs chunks until none are left or one has thrown.
  void work(void (*run_chunk)(void*, index_t), void* context, index_t chunks) {
    running_chunk = true;
    for (;;) {
      const index_t chunk = next_.fetch_add(1, std::memory_order_relaxed);
      if (chunk >= chunks) break;
      try {
        run_chunk(context, chunk);
      } catch (...) {
        next_.store(chunks, std::memory_order_relaxed);  // no further chunks start
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
    }
    running_chunk = false;
  }

  void worker_loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    std::uint64_t seen = generation_;
    for (;;) {
      wake_.wait(lock, [&] { return stopping_ || (open_ && generation_ != seen); });
      if (stopping_) return;
      seen = generation_;
      ++participants_;
      const auto run_chunk = run_chunk_;
      void* const context = context_;
      const index_t chunks = chunks_;
      lock.unlock();
      work(run_chunk, context, chunks);
      lock.lock();
      if (--participants_ == 0) finished_.notify_all();
    }
  }

  /// Starts the workers of the current thread count, if they are not running (pass_mutex_ held).
  void start_workers() {
    if (!workers_.empty()) return;
    const int count = threads() - 1;
    workers_.reserve(static_cast<std::size_t>(count));
    for (int i = 0; i < count; ++i) workers_.emplace_back([this] { worker_loop(); });
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& worker : workers_) worker.join();
    workers_.clear();
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = false;
  }

  std::atomic<int> threads_;
  std::mutex pass_mutex_;  // one pass at a time uses the workers
  std::vector<std::thread> workers_;

  std::mutex mutex_;  // guards everything below but next_
  std::condition_variable wake_;
  std::condition_variable finished_;
  std::uint64_t generation_ = 0;
  bool open_ = false;
  bool stopping_ = false;
  int participants_ = 0;
  void (*run_chunk_)(void*, index_t) = nullptr;
  void* context_ = nullptr;
  index_t chunks_ = 0;
  std::exception_ptr error_;
  std::atomic<index_t> next_{0};
};

}  // namespace

void run_chunks(index_t chunks, void (*run_chunk)(void*, index_t), void* context) {
  ThreadPool::instance().run(chunks, run_chunk, context);
}

}  // namespace detail

int num_threads() {
  return detail::ThreadPool::instance().threads();
}

void set_num_threads(int threads) {
  if (threads < 1) {
    throw Error(detail::message("tx::set_num_threads needs at least 1 thread, not ", threads));
  }
  detail::ThreadPool::instance().set_threads(threads);
}

}  // namespace tensorx

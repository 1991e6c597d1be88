// tx::load_npy of a 1 GiB float32 file against the rate at which the same file can be read at all:
// plain POSIX read() calls into a buffer that is already mapped (what the operating system
// delivers) and into a newly allocated one (what any loader that returns new memory pays: the
// page faults of the fresh buffer). Each runs twice: from the page cache, and cold, with the
// file's cached pages dropped (posix_fadvise DONTNEED) before every iteration, outside the timing.
//   build/bench/bench_npy --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
// The file goes to $TENSORX_BENCH_DIR (default: the temporary directory) and is removed at exit.
#include <benchmark/benchmark.h>

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>

#include <tensorx/array/global_ops.h>
#include <tensorx/interop/npy.h>

namespace tx = tensorx;

namespace {

constexpr tx::index_t kElements = tx::index_t{1} << 28;  // 1 GiB of float32

/// The benchmark's .npy file, written once and removed when the program ends.
class BenchFile {
 public:
  BenchFile() {
    const char* dir = std::getenv("TENSORX_BENCH_DIR");
    path_ = (dir ? std::filesystem::path(dir) : std::filesystem::temp_directory_path()) /
            ("tensorx-bench-" + std::to_string(::getpid()) + ".npy");
    tx::Array<float, 1> data(tx::make_dim(kElements));
    tx::fill(data, 1.5f);
    tx::save_npy(path_.string(), data);
  }
  ~BenchFile() { std::filesystem::remove(path_); }
  std::string path() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

const BenchFile& bench_file() {
  static const BenchFile file;
  return file;
}

/// Drops the file's pages from the page cache, so that the next read comes from the disk.
void drop_cached_pages(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0 || ::fdatasync(fd) != 0 || ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0) {
    throw std::runtime_error("cannot drop the cached pages of " + path);
  }
  ::close(fd);
}

/// Reads the whole file into `buffer` with read() calls, as large as the kernel takes.
void read_whole_file(const std::string& path, char* buffer, std::size_t bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  std::size_t done = 0;
  while (fd >= 0 && done < bytes) {
    const ssize_t n = ::read(fd, buffer + done, bytes - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  ::close(fd);
  if (done != bytes) throw std::runtime_error("short read of " + path);
}

std::size_t file_bytes() {
  return std::filesystem::file_size(bench_file().path());
}

/// Runs `load` once per iteration, from the page cache or (cold) from the disk.
template <class Load>
void run(benchmark::State& state, Load&& load) {
  const bool cold = state.range(0) != 0;
  const std::string path = bench_file().path();
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      drop_cached_pages(path);
      state.ResumeTiming();
    }
    load(path);
  }
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(file_bytes()));
  state.SetLabel(cold ? "cold (from disk)" : "page cache");
}

void BM_load_npy(benchmark::State& state) {
  run(state, [](const std::string& path) {
    const auto array = tx::load_npy<float, 1>(path);
    benchmark::DoNotOptimize(array.data());
  });
}

void BM_read_into_mapped_buffer(benchmark::State& state) {
  // Allocated and touched once, outside the timing: the read itself, nothing else.
  static const auto buffer = [] {
    auto memory = std::make_unique<char[]>(file_bytes());
    read_whole_file(bench_file().path(), memory.get(), file_bytes());
    return memory;
  }();
  run(state, [](const std::string& path) {
    read_whole_file(path, buffer.get(), file_bytes());
    benchmark::DoNotOptimize(buffer.get());
  });
}

void BM_read_into_new_buffer(benchmark::State& state) {
  run(state, [](const std::string& path) {
    tx::Allocation buffer(file_bytes(), tx::CpuPlace());
    read_whole_file(path, static_cast<char*>(buffer.data()), file_bytes());
    benchmark::DoNotOptimize(buffer.data());
  });
}

}  // namespace

BENCHMARK(BM_load_npy)
    ->ArgName("cold")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_read_into_new_buffer)
    ->ArgName("cold")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_read_into_mapped_buffer)
    ->ArgName("cold")
    ->Arg(0)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

BENCHMARK_MAIN();

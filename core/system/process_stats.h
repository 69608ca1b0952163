#pragma once
/// The process and the machine while a run trains (issue 49 §5), read from Linux /proc and the
/// process's CPU clock, about once a second: the system panel and the run folder's system.csv.
/// Torch-free; cheap (a few small /proc reads per sample: bench_evaluation's system line).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// One reading. CPU shares are over the interval since the sampler's previous reading (NaN at
/// the first).
struct ProcessSample {
  double time = 0;  ///< Unix seconds
  /// This process's CPU time (user + system, all its threads) over the interval, as a share
  /// of all cores: 100 = every core busy with this process (top's %CPU divided by the cores).
  double cpu_percent = 0;
  int64_t rss_bytes = 0;        ///< resident set (/proc/self/statm), 0 when unreadable
  int64_t available_bytes = 0;  ///< MemAvailable (/proc/meminfo), 0 when unreadable
  int os_threads = 0;           ///< threads of this process (/proc/self/stat num_threads)
  /// Each core's busy share over the interval, 0-100 (/proc/stat cpuN: everything but idle
  /// and iowait, any process), in core order.
  std::vector<double> core_percent;
};

/// Per-core jiffies of a /proc/stat text: (busy, total) of each "cpuN" line, in order.
std::vector<std::pair<uint64_t, uint64_t>> coreJiffies(const std::string& proc_stat);
/// num_threads (field 20) of a /proc/<pid>/stat text; 0 when unreadable.
int threadsInStat(const std::string& pid_stat);
/// CPU cores this process may run on (sched_getaffinity; hardware_concurrency where that fails).
int usableCores();
/// Processes of this machine whose command name (/proc/<pid>/comm, cut by the kernel to 15
/// characters: the CLI's engine is "trainscope-cli-") starts with `prefix` (e.g.
/// "trainscope": the dashboard, CLI runs, sweep trials): the runs that share the cores.
int countProcesses(const std::string& prefix);

/// Takes ProcessSamples; each sample's CPU shares cover the time since the previous one.
class ProcessSampler {
 public:
  ProcessSampler();
  ProcessSample sample();

 private:
  double last_wall_ = 0, last_cpu_ = 0;  ///< steady seconds, process CPU seconds
  std::vector<std::pair<uint64_t, uint64_t>> last_cores_;
  bool first_ = true;
};

/// The BLAS libtorch's matrix products run on, and what the CPU could run (issue 49 §5).
struct BlasKernel {
  std::string library;      ///< DeviceInfo::blas_name ("OpenBLAS (OpenMP)", ...)
  std::string core_type;    ///< OpenBLAS's openblas_get_corename() ("Haswell", "SkylakeX", "Prescott"), "" when not OpenBLAS
  std::string config;       ///< openblas_get_config(), "" when not OpenBLAS
  bool cpu_avx2 = false, cpu_avx512 = false;  ///< /proc/cpuinfo flags
  /// A generic kernel family (OpenBLAS's "Prescott", "Core2", "Nehalem", "Katmai"...: no AVX2)
  /// on a CPU that has AVX2 or AVX-512.
  bool generic_fallback = false;
  std::string environment;  ///< OPENBLAS_CORETYPE as set for this process, "" when unset
  /// What to set (e.g. "OPENBLAS_CORETYPE=Haswell") when generic_fallback; else "".
  std::string suggestion;
};
/// Reads the BLAS kernel of this process (dlsym of openblas_get_corename in the loaded
/// libraries; nothing is set or changed).
BlasKernel blasKernel(const std::string& blas_name);
/// The kernel verdict for `core_type` on a CPU with the given flags (a pure function for tests).
BlasKernel judgeBlasKernel(BlasKernel k);

}  // namespace trainscope

#pragma once
/// Device probing for the device panel and `trainscope-cli device`. Torch-free, JSON-free API
/// (the JSON form is in device_info_json.h).
#include <string>
#include <vector>

namespace trainscope {

/// What this process can train on.
struct DeviceInfo {
  std::string trainscope_version;
  std::string torch_version;  ///< libtorch version, e.g. "1.13.1"
  bool cuda_available = false;
  std::string cuda_unavailable_reason;  ///< English, empty when CUDA is available
  /// Why CUDA is unavailable, as a stable code front ends translate: "built_without_cuda" |
  /// "no_device"; empty when available.
  std::string cuda_unavailable_code;
  int cuda_device_count = 0;
  std::vector<std::string> cuda_devices;  ///< "cuda:0 NVIDIA ..." names where known
  std::string cpu_name;                   ///< model name from /proc/cpuinfo
  int cpu_cores = 1;                      ///< logical cores of the machine
  int default_threads = 1;                ///< intra-op threads a run uses when num_threads is null
  std::string blas_library;               ///< resolved libblas.so.3 in use (path), empty if unknown
  /// "OpenBLAS (OpenMP)" | "OpenBLAS (pthreads)" | "reference BLAS" | file name | "".
  std::string blas_name;
  std::string default_device;  ///< what training.device=auto picks: "cpu" or "cuda:0"
};

/// Probes libtorch and the machine. Never throws.
DeviceInfo probeDevices();
/// TrainScope's own version string ("0.1.0").
const char* trainscopeVersion();
/// The libtorch version core was compiled against ("1.13.1"), without probing anything.
std::string libtorchVersion();

}  // namespace trainscope

namespace trainscope {
/// Intra-op threads a run uses when training.num_threads is null: OMP_NUM_THREADS when set to
/// a positive integer, else all logical cores less `reserved_cores` (at least 1). The GUI
/// reserves one core for drawing: OpenMP workers spin-wait, and on two cores they fought the
/// GUI thread (measured 19-29k samples/s with 2 threads vs 53k with 1 on Fashion-MNIST).
int defaultThreadCount(int reserved_cores = 0);
}  // namespace trainscope

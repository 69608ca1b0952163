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
  /// Why CUDA is unavailable (and why `auto` falls back to the CPU), as a stable code front
  /// ends translate: "built_without_cuda" | "no_driver" | "no_device"; empty when available.
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
  /// AMP on the CPU is bf16 autocast: native when the CPU has avx512_bf16 or amx_bf16 (flags
  /// of /proc/cpuinfo), else emulated (converted to float32 around each multiply).
  bool bf16_native = false;
  std::string bf16_flags;  ///< the native bf16 flags found, e.g. "avx512_bf16 amx_bf16"
  bool onednn = false;     ///< libtorch has oneDNN (MKLDNN) kernels (its CPU bf16 GEMMs)
  /// English, for the device panel: "CPU: bf16 autocast (native: avx512_bf16)" or
  /// "CPU: bf16 autocast (emulated: no avx512_bf16/amx_bf16)"; CUDA: "fp16 autocast with
  /// loss scaling" when CUDA is available.
  std::string amp_support;
};

/// The native bf16 flags ("avx512_bf16", "amx_bf16") in a /proc/cpuinfo text, space-separated
/// in that order; empty when there are none.
std::string bf16FlagsIn(const std::string& cpuinfo);

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

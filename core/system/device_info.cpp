#include "core/system/device_info.h"

#include <ATen/Context.h>
#include <ATen/Parallel.h>
#include <link.h>
#include <torch/cuda.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <thread>

#include "core/system/device_info_json.h"
#include "core/system/torch_compat.h"

#ifndef TRAINSCOPE_VERSION
#define TRAINSCOPE_VERSION "0.0.0"
#endif

namespace trainscope {
namespace {

std::string cpuName() {
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("model name", 0) == 0) {
      auto colon = line.find(':');
      if (colon != std::string::npos) {
        auto start = line.find_first_not_of(" \t", colon + 1);
        return start == std::string::npos ? "" : line.substr(start);
      }
    }
  }
  return "unknown CPU";
}

// The BLAS libtorch's matrix products run on: the loaded libblas.so.3, resolved.
std::string loadedBlas() {
  std::string found;
  dl_iterate_phdr(
      [](struct dl_phdr_info* info, size_t, void* data) {
        std::string name = info->dlpi_name ? info->dlpi_name : "";
        if (name.find("libblas.so") != std::string::npos ||
            name.find("libopenblas") != std::string::npos) {
          auto* out = static_cast<std::string*>(data);
          if (out->empty()) *out = name;
        }
        return 0;
      },
      &found);
  if (found.empty()) return "";
  std::error_code ec;
  auto real = std::filesystem::canonical(found, ec);
  return ec ? found : real.string();
}

}  // namespace

std::string bf16FlagsIn(const std::string& cpuinfo) {
  // The first "flags" line; every core lists the same flags.
  std::istringstream lines(cpuinfo);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("flags", 0) != 0) continue;
    std::istringstream words(
        line.substr(line.find(':') == std::string::npos ? line.size() : line.find(':') + 1));
    bool avx = false, amx = false;
    for (std::string w; words >> w;) {
      avx = avx || w == "avx512_bf16";
      amx = amx || w == "amx_bf16";
    }
    std::string out = avx ? "avx512_bf16" : "";
    if (amx) out += out.empty() ? "amx_bf16" : " amx_bf16";
    return out;
  }
  return "";
}

const char* trainscopeVersion() { return TRAINSCOPE_VERSION; }

std::string libtorchVersion() { return compat::torchVersion(); }

int defaultThreadCount(int reserved_cores) {
  if (const char* env = std::getenv("OMP_NUM_THREADS")) {
    int n = std::atoi(env);  // leading integer ("4,2" -> 4); digits are locale-independent
    if (n > 0) return n;
  }
  unsigned hw = std::thread::hardware_concurrency();
  int cores = hw > 0 ? static_cast<int>(hw) : 1;
  return std::max(1, cores - std::max(0, reserved_cores));
}

namespace {
std::string blasName(const std::string& path) {
  if (path.empty()) return "";
  if (path.find("openblas-openmp") != std::string::npos) return "OpenBLAS (OpenMP)";
  if (path.find("openblas-pthread") != std::string::npos) return "OpenBLAS (pthreads)";
  if (path.find("openblas-serial") != std::string::npos) return "OpenBLAS (serial)";
  if (path.find("/blas/") != std::string::npos) return "reference BLAS";
  return std::filesystem::path(path).filename().string();
}
}  // namespace

DeviceInfo probeDevices() {
  DeviceInfo info;
  info.trainscope_version = trainscopeVersion();
  info.torch_version = compat::torchVersion();
  try {
    info.cuda_available = torch::cuda::is_available();
    info.cuda_device_count = static_cast<int>(torch::cuda::device_count());
  } catch (...) {
    info.cuda_available = false;
  }
  if (!info.cuda_available) {
    std::error_code ec;
    const bool driver = std::filesystem::exists("/proc/driver/nvidia/version", ec);
    if (!at::hasCUDA()) {
      info.cuda_unavailable_code = "built_without_cuda";
      info.cuda_unavailable_reason =
          "this libtorch was built without CUDA support (CPU-only build)";
    } else if (!driver) {
      info.cuda_unavailable_code = "no_driver";
      info.cuda_unavailable_reason = "no NVIDIA driver is loaded (/proc/driver/nvidia missing)";
    } else {
      info.cuda_unavailable_code = "no_device";
      info.cuda_unavailable_reason = "no CUDA device found (the driver sees no usable GPU)";
    }
  }
  for (int i = 0; i < info.cuda_device_count; ++i)
    info.cuda_devices.push_back("cuda:" + std::to_string(i));
  info.cpu_name = cpuName();
  unsigned hw = std::thread::hardware_concurrency();
  info.cpu_cores = hw > 0 ? static_cast<int>(hw) : 1;
  info.default_threads = defaultThreadCount();
  info.blas_library = loadedBlas();
  info.blas_name = blasName(info.blas_library);
  info.default_device = info.cuda_available ? "cuda:0" : "cpu";
  {
    std::ifstream in("/proc/cpuinfo");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    info.bf16_flags = bf16FlagsIn(text);
  }
  info.bf16_native = !info.bf16_flags.empty();
  info.onednn = at::hasMKLDNN();
  info.amp_support = "CPU: bf16 autocast (" +
                     (info.bf16_native ? "native: " + info.bf16_flags
                                       : std::string("emulated: no avx512_bf16/amx_bf16")) +
                     ")";
  if (info.cuda_available) info.amp_support += "; CUDA: fp16 autocast with loss scaling";
  return info;
}

nlohmann::json toJson(const DeviceInfo& i) {
  return {{"trainscope_version", i.trainscope_version},
          {"torch_version", i.torch_version},
          {"cuda_available", i.cuda_available},
          {"cuda_unavailable_reason", i.cuda_unavailable_reason},
          {"cuda_unavailable_code", i.cuda_unavailable_code},
          {"cuda_device_count", i.cuda_device_count},
          {"cuda_devices", i.cuda_devices},
          {"cpu_name", i.cpu_name},
          {"cpu_cores", i.cpu_cores},
          {"default_threads", i.default_threads},
          {"blas_library", i.blas_library},
          {"blas_name", i.blas_name},
          {"default_device", i.default_device},
          {"bf16_native", i.bf16_native},
          {"bf16_flags", i.bf16_flags},
          {"onednn", i.onednn},
          {"amp_support", i.amp_support}};
}

}  // namespace trainscope

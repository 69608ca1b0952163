// `trainscope-cli device [--json]`
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstdlib>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/system/device_info.h"
#include "core/system/device_info_json.h"
#include "core/system/process_stats.h"

namespace trainscope::cli {

DeviceCommand::DeviceCommand(CLI::App& app)
    : sub_(app.add_subcommand("device", "Show the devices and libraries in use")) {
  sub_->add_flag("--json", json_, "Print the device information as JSON");
}

bool DeviceCommand::parsed() const { return sub_->parsed(); }

int DeviceCommand::run() const {
  const DeviceInfo info = probeDevices();
  const BlasKernel kernel = blasKernel(info.blas_name);
  if (json_) {
    nlohmann::json j = toJson(info);
    j["blas_kernel"] = {{"core_type", kernel.core_type},
                        {"config", kernel.config},
                        {"cpu_avx2", kernel.cpu_avx2},
                        {"cpu_avx512", kernel.cpu_avx512},
                        {"generic_fallback", kernel.generic_fallback},
                        {"openblas_coretype", kernel.environment},
                        {"suggestion", kernel.suggestion}};
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("trainscope      %s\n", info.trainscope_version.c_str());
  std::printf("libtorch        %s\n", info.torch_version.c_str());
  std::printf("default device  %s\n", info.default_device.c_str());
  if (info.cuda_available) {
    std::printf("CUDA            available, %d device%s\n", info.cuda_device_count,
                info.cuda_device_count == 1 ? "" : "s");
    for (const auto& d : info.cuda_devices) std::printf("                %s\n", d.c_str());
  } else {
    std::printf("CUDA            not available%s%s\n",
                info.cuda_unavailable_reason.empty() ? "" : ": ",
                info.cuda_unavailable_reason.c_str());
  }
  std::printf("CPU             %s, %d logical core%s\n",
              info.cpu_name.empty() ? "unknown" : info.cpu_name.c_str(), info.cpu_cores,
              info.cpu_cores == 1 ? "" : "s");
  // training.num_threads "auto" (the default; core/train/probes/thread_choice.h): the limit is
  // defaultThreadCount(), OMP_NUM_THREADS when set, else the logical cores.
  const char* omp = std::getenv("OMP_NUM_THREADS");
  const bool from_omp = omp != nullptr && std::atoi(omp) > 0;
  std::printf(
      "threads         auto by default: at the start of each run a few training steps are "
      "timed with 1, 2, 4, ... up to %d thread%s (%s) and the fastest count is used; "
      "training.num_threads=N (or a preset) fixes the count\n",
      info.default_threads, info.default_threads == 1 ? "" : "s",
      from_omp ? "OMP_NUM_THREADS" : "this machine's logical cores");
  std::printf("BLAS            %s\n",
              info.blas_library.empty() ? "unknown" : info.blas_library.c_str());
  if (!kernel.core_type.empty()) {
    const std::string cpu = kernel.cpu_avx512 ? "AVX-512" : kernel.cpu_avx2 ? "AVX2" : "neither AVX2 nor AVX-512";
    std::printf("BLAS kernel     %s (OpenBLAS's kernel family%s; this CPU has %s)\n",
                kernel.core_type.c_str(),
                kernel.environment.empty() ? "" : (", chosen by OPENBLAS_CORETYPE=" + kernel.environment).c_str(),
                cpu.c_str());
    if (kernel.generic_fallback)
      std::printf(
          "                a generic kernel on a CPU with %s: %s selects its kernels, for faster "
          "matrix products (results then differ from this machine's other runs in the last "
          "bits: another summation order). TrainScope never sets it.\n",
          cpu.c_str(), kernel.suggestion.c_str());
  }
  std::printf("AMP             %s%s\n", info.amp_support.c_str(),
              info.onednn ? "" : " (no oneDNN in this libtorch)");
  return kExitOk;
}

}  // namespace trainscope::cli

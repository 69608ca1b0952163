// `trainscope-cli device [--json]`
#include <CLI/CLI.hpp>
#include <cstdio>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/system/device_info.h"
#include "core/system/device_info_json.h"

namespace trainscope::cli {

DeviceCommand::DeviceCommand(CLI::App& app)
    : sub_(app.add_subcommand("device", "Show the devices and libraries in use")) {
  sub_->add_flag("--json", json_, "Print the device information as JSON");
}

bool DeviceCommand::parsed() const { return sub_->parsed(); }

int DeviceCommand::run() const {
  const DeviceInfo info = probeDevices();
  if (json_) {
    std::printf("%s\n", toJson(info).dump(2).c_str());
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
  std::printf("threads         %d per run by default\n", info.default_threads);
  std::printf("BLAS            %s\n",
              info.blas_library.empty() ? "unknown" : info.blas_library.c_str());
  std::printf("AMP             %s%s\n", info.amp_support.c_str(),
              info.onednn ? "" : " (no oneDNN in this libtorch)");
  return kExitOk;
}

}  // namespace trainscope::cli

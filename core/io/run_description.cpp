#include "core/io/run_description.h"

#include <unistd.h>

#include "core/system/clock.h"
#include "core/system/device_info.h"

namespace trainscope {
namespace {

std::string hostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

}  // namespace

nlohmann::json describeRun(const RunDescription& r) {
  const DeviceInfo dev = probeDevices();
  nlohmann::json j = {
      {"trainscope_version", trainscopeVersion()},
      {"torch_version", dev.torch_version},
      {"device", r.device},
      {"cuda_available", dev.cuda_available},
      {"num_threads", r.num_threads},
      {"cpu", dev.cpu_name},
      {"blas_library", dev.blas_library},
      {"start_time", isoTimeNow()},
      {"host", hostName()},
      {"front_end", r.front_end},
      {"command_line", r.command_line},
      {"seed", r.seed},
      {"data",
       {{"source", r.data.source},
        {"task", r.data.task},
        {"n_train", r.data.n_train},
        {"n_val", r.data.n_val},
        {"n_test", r.data.n_test},
        {"n_features", r.data.n_features},
        {"n_classes", r.data.n_classes}}},
      {"model",
       {{"description", r.model.description}, {"parameter_count", r.model.parameter_count}}},
  };
  if (!r.resumed_from_file.empty())
    j["resumed_from"] = {{"file", r.resumed_from_file}, {"step", r.resumed_from_step}};
  return j;
}

}  // namespace trainscope

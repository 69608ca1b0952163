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
  nlohmann::json rates = nlohmann::json::array();
  for (const ThreadRate& t : r.thread_choice.rates)
    rates.push_back({{"threads", t.threads}, {"samples_per_second", t.samples_per_second}});
  nlohmann::json choice = {{"mode", r.thread_choice.automatic ? "auto" : "fixed"}};
  if (r.thread_choice.automatic) {
    choice["max_threads"] = r.thread_choice.max_threads;
    choice["limited_by_omp_num_threads"] = r.thread_choice.limited_by_omp;
    choice["rates"] = rates;  // empty when there was one candidate (nothing measured)
  }
  choice["description"] = describeThreads(r.thread_choice);
  nlohmann::json j = {
      {"trainscope_version", trainscopeVersion()},
      {"torch_version", dev.torch_version},
      {"device", r.device},
      {"cuda_available", dev.cuda_available},
      {"num_threads", r.num_threads},
      {"thread_choice", choice},
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
  if (r.world_size > 1)
    j["distributed"] = {{"world_size", r.world_size}, {"backend", r.backend}, {"hosts", r.hosts}};
  if (!r.init_weights_file.empty())
    j["init_weights"] = {{"file", r.init_weights_file},
                         {"form", r.init_weights_form},
                         {"tensors", r.init_weights_tensors}};
  return j;
}

}  // namespace trainscope

#pragma once
/// run.json: what a run ran on and how it was started (ARCHITECTURE §4). Torch-free.
#include <nlohmann/json.hpp>
#include <string>

#include "core/train/records.h"

namespace trainscope {

/// The facts of a run that run.json records besides the machine (probed here).
struct RunDescription {
  std::string device;          ///< "cpu", "cuda:0"
  int num_threads = 1;         ///< intra-op threads of the training thread
  ThreadChoice thread_choice;  ///< how num_threads was chosen ("auto": the measured rates)
  std::string front_end;       ///< "cli" | "gui" | "test"
  std::string command_line;
  int64_t seed = 0;
  DataSummary data;
  ModelSummary model;
  std::string resumed_from_file;  ///< resumed runs: the checkpoint (run.json `resumed_from`)
  int64_t resumed_from_step = 0;  ///< resumed runs: the checkpoint's global step
  /// Runs started from imported weights: the file (absolute), the form it held
  /// ("state_dict" | "model_state_dict" | "trainscope_checkpoint") and its tensor count
  /// (run.json `init_weights`: {"file", "form", "tensors"}).
  std::string init_weights_file;
  std::string init_weights_form;
  int64_t init_weights_tensors = 0;
  /// Data parallel runs (run.json `distributed`: {"world_size", "backend", "hosts"}, hosts in
  /// rank order); world_size 1: not written.
  int world_size = 1;
  std::string backend;
  std::vector<std::string> hosts;
};

/// The run.json object: versions, device, CUDA availability, threads, CPU, BLAS library, start
/// time (local, ISO 8601, now), host name, front end, command line, seed, data and model.
/// Probes the devices (probeDevices()); never throws for a missing host name.
nlohmann::json describeRun(const RunDescription& run);

}  // namespace trainscope

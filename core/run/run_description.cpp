#include "core/run/run_description.h"

#include <unistd.h>

#include "core/data/data_fingerprint.h"  // DataFile to/from JSON
#include "core/system/clock.h"
#include "core/system/device_info.h"

namespace trainscope {
namespace {

std::string hostName() {
  char buf[256] = {0};
  if (gethostname(buf, sizeof buf - 1) != 0) return "";
  return buf;
}

template <class T>
void readIfPresent(const nlohmann::json& j, const char* key, T& out) {
  if (j.is_object() && j.contains(key) && !j.at(key).is_null()) out = j.at(key).get<T>();
}

}  // namespace

void describeMachine(RunInfo& info) {
  const DeviceInfo dev = probeDevices();
  info.trainscope_version = trainscopeVersion();
  info.torch_version = dev.torch_version;
  info.cuda_available = dev.cuda_available;
  info.cpu = dev.cpu_name;
  info.blas_library = dev.blas_library;
  info.start_time = isoTimeNow();
  info.host = hostName();
}

nlohmann::json toJson(const RunInfo& r) {
  nlohmann::json rates = nlohmann::json::array();
  for (const ThreadRate& t : r.thread_choice.rates)
    rates.push_back({{"threads", t.threads},
                     {"samples_per_second", t.samples_per_second},
                     {"rounds", t.rounds}});
  nlohmann::json choice = {{"mode", r.thread_choice.automatic ? "auto" : "fixed"}};
  if (r.thread_choice.automatic) {
    choice["max_threads"] = r.thread_choice.max_threads;
    choice["limited_by_omp_num_threads"] = r.thread_choice.limited_by_omp;
    choice["rates"] = rates;  // empty when there was one candidate (nothing measured)
  }
  choice["description"] = describeThreads(r.thread_choice);
  nlohmann::json j = {
      {"trainscope_version", r.trainscope_version},
      {"torch_version", r.torch_version},
      {"device", r.device},
      {"cuda_available", r.cuda_available},
      {"num_threads", r.num_threads},
      {"thread_choice", choice},
      {"cpu", r.cpu},
      {"blas_library", r.blas_library},
      {"start_time", r.start_time},
      {"host", r.host},
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
        {"n_classes", r.data.n_classes},
        {"input_shape", r.data.input_shape},
        {"image_shape", r.data.image_shape},
        {"x_dtype", r.data.x_dtype},
        {"outputs", r.data.outputs},
        {"class_names", r.data.class_names},
        {"feature_names", r.data.feature_names},
        {"preprocessing", r.data.preprocessing},
        {"files", r.data.files}}},
      {"model",
       {{"description", r.model.description}, {"parameter_count", r.model.parameter_count}}},
  };
  if (!r.resumed_from.empty())
    j["resumed_from"] = {{"file", r.resumed_from}, {"step", r.start_step}};
  if (r.world_size > 1)
    j["distributed"] = {{"world_size", r.world_size}, {"backend", r.backend}, {"hosts", r.hosts}};
  if (!r.mistakes.empty()) j["teaching_mistakes"] = r.mistakes;
  if (!r.init_weights.empty())
    j["init_weights"] = {{"file", r.init_weights},
                         {"form", r.init_weights_form},
                         {"tensors", r.init_weights_tensors}};
  return j;
}

RunInfo runInfoFromJson(const nlohmann::json& run, const nlohmann::json& config) {
  RunInfo r;
  readIfPresent(run, "trainscope_version", r.trainscope_version);
  readIfPresent(run, "torch_version", r.torch_version);
  readIfPresent(run, "device", r.device);
  readIfPresent(run, "cuda_available", r.cuda_available);
  readIfPresent(run, "num_threads", r.num_threads);
  if (run.contains("thread_choice")) {
    const nlohmann::json& c = run.at("thread_choice");
    r.thread_choice.threads = r.num_threads;
    r.thread_choice.automatic = c.value("mode", "fixed") == "auto";
    readIfPresent(c, "max_threads", r.thread_choice.max_threads);
    readIfPresent(c, "limited_by_omp_num_threads", r.thread_choice.limited_by_omp);
    if (c.contains("rates"))
      for (const nlohmann::json& t : c.at("rates"))
        r.thread_choice.rates.push_back(
            {t.at("threads").get<int>(), t.at("samples_per_second").get<double>(),
             t.value("rounds", std::vector<double>{})});
  }
  readIfPresent(run, "cpu", r.cpu);
  readIfPresent(run, "blas_library", r.blas_library);
  readIfPresent(run, "start_time", r.start_time);
  readIfPresent(run, "host", r.host);
  readIfPresent(run, "front_end", r.front_end);
  readIfPresent(run, "command_line", r.command_line);
  readIfPresent(run, "seed", r.seed);
  if (run.contains("data")) {
    const nlohmann::json& d = run.at("data");
    readIfPresent(d, "source", r.data.source);
    readIfPresent(d, "task", r.data.task);
    readIfPresent(d, "n_train", r.data.n_train);
    readIfPresent(d, "n_val", r.data.n_val);
    readIfPresent(d, "n_test", r.data.n_test);
    readIfPresent(d, "n_features", r.data.n_features);
    readIfPresent(d, "n_classes", r.data.n_classes);
    readIfPresent(d, "input_shape", r.data.input_shape);
    readIfPresent(d, "image_shape", r.data.image_shape);
    readIfPresent(d, "x_dtype", r.data.x_dtype);
    readIfPresent(d, "outputs", r.data.outputs);
    readIfPresent(d, "class_names", r.data.class_names);
    readIfPresent(d, "feature_names", r.data.feature_names);
    readIfPresent(d, "preprocessing", r.data.preprocessing);
    readIfPresent(d, "files", r.data.files);
  }
  if (run.contains("model")) {
    readIfPresent(run.at("model"), "description", r.model.description);
    readIfPresent(run.at("model"), "parameter_count", r.model.parameter_count);
  }
  if (run.contains("resumed_from")) {
    readIfPresent(run.at("resumed_from"), "file", r.resumed_from);
    readIfPresent(run.at("resumed_from"), "step", r.start_step);
  }
  if (run.contains("distributed")) {
    const nlohmann::json& d = run.at("distributed");
    readIfPresent(d, "world_size", r.world_size);
    readIfPresent(d, "backend", r.backend);
    readIfPresent(d, "hosts", r.hosts);
  }
  if (run.contains("init_weights")) {
    const nlohmann::json& w = run.at("init_weights");
    readIfPresent(w, "file", r.init_weights);
    readIfPresent(w, "form", r.init_weights_form);
    readIfPresent(w, "tensors", r.init_weights_tensors);
  }
  readIfPresent(run, "teaching_mistakes", r.mistakes);
  if (config.is_object()) {
    r.config_json = config.dump();
    if (config.contains("training")) {
      const nlohmann::json& t = config.at("training");
      readIfPresent(t, "epochs", r.epochs);
      readIfPresent(t, "batch_size", r.batch_size);
      readIfPresent(t, "grad_accum_steps", r.grad_accum_steps);
      readIfPresent(t, "amp", r.amp);
      readIfPresent(t, "deterministic", r.deterministic);
    }
  }
  r.effective_batch_size = r.batch_size * r.grad_accum_steps * r.world_size;
  return r;
}

}  // namespace trainscope

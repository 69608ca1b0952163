#include "core/run/run_description.h"

#include "core/system/number_format.h"

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

namespace {

/// run.json `thread_choice`: {"mode": "auto" | "fixed", "description"}, with "max_threads",
/// "limited_by_omp_num_threads" and "rates" [{"threads", "samples_per_second", "rounds"}]
/// (empty when there was one candidate, nothing measured) for "auto".
JsonField<RunInfo> threadChoiceField() {
  JsonField<RunInfo> f;
  f.key = "thread_choice";
  f.write = [](const RunInfo& r, nlohmann::json& choice) {
    nlohmann::json rates = nlohmann::json::array();
    for (const ThreadRate& t : r.thread_choice.rates)
      rates.push_back({{"threads", t.threads},
                       {"samples_per_second", t.samples_per_second},
                       {"rounds", t.rounds}});
    choice = {{"mode", r.thread_choice.automatic ? "auto" : "fixed"}};
    if (r.thread_choice.automatic) {
      choice["max_threads"] = r.thread_choice.max_threads;
      choice["limited_by_omp_num_threads"] = r.thread_choice.limited_by_omp;
      choice["rates"] = rates;
    }
    choice["description"] = describeThreads(r.thread_choice);
    return true;
  };
  f.read = [](const nlohmann::json& c, RunInfo& r) {
    r.thread_choice.threads = r.num_threads;  // num_threads is read first (field order)
    r.thread_choice.automatic = c.value("mode", "fixed") == "auto";
    if (c.is_object() && c.contains("max_threads"))
      fieldFromJson(c.at("max_threads"), r.thread_choice.max_threads);
    if (c.is_object() && c.contains("limited_by_omp_num_threads"))
      fieldFromJson(c.at("limited_by_omp_num_threads"), r.thread_choice.limited_by_omp);
    if (c.contains("rates"))
      for (const nlohmann::json& t : c.at("rates"))
        r.thread_choice.rates.push_back(
            {t.at("threads").get<int>(), t.at("samples_per_second").get<double>(),
             t.value("rounds", std::vector<double>{})});
  };
  return f;
}

bool resumed(const RunInfo& r) { return !r.resumed_from.empty(); }
bool distributed(const RunInfo& r) { return r.world_size > 1; }
bool importedWeights(const RunInfo& r) { return !r.init_weights.empty(); }

}  // namespace

void to_json(nlohmann::json& j, const Preprocessing& p) {
  j = nlohmann::json{{"pixel_scale", p.pixel_scale}, {"standardize", p.standardize},
                     {"mean", p.mean},               {"std", p.std},
                     {"target_scale", p.target_scale}};
  if (!p.resize.empty()) j["resize"] = p.resize;
}

void from_json(const nlohmann::json& j, Preprocessing& p) {
  const Preprocessing d;
  p.pixel_scale = j.value("pixel_scale", d.pixel_scale);
  p.standardize = j.value("standardize", d.standardize);
  p.mean = j.value("mean", d.mean);
  p.std = j.value("std", d.std);
  p.target_scale = j.value("target_scale", d.target_scale);
  p.resize = j.value("resize", d.resize);
}

std::string classBalanceLine(const std::vector<double>& class_weights, const std::string& sampler) {
  std::string out = "classes:";
  if (!class_weights.empty()) {
    std::string list;
    for (double w : class_weights) list += (list.empty() ? "" : ", ") + formatSignificant(w, 4);
    out += " weights [" + list + "] in the training loss (training.class_weights)";
  }
  if (sampler == "weighted")
    out += std::string(class_weights.empty() ? "" : ";") +
           " data.sampler weighted: each class drawn equally often, with replacement";
  return out;
}

std::string augmentationSummary(const DataSummary& data) {
  if (data.augmentation.empty()) return "none";
  std::string out = data.augmented_splits == std::vector<std::string>{"train"}
                        ? "training only"
                        : "training and validation (teaching mistake augment_validation)";
  std::string list;
  for (const std::string& t : data.augmentation) list += (list.empty() ? "" : ", ") + t;
  return out + ": " + list;
}

const std::vector<JsonField<DataSummary>>& dataSummaryFields() {
  using D = DataSummary;
  static const std::vector<JsonField<D>> fields = {
      jsonField("source", &D::source),
      jsonField("task", &D::task),
      jsonField("n_train", &D::n_train),
      jsonField("n_val", &D::n_val),
      jsonField("n_test", &D::n_test),
      jsonField("n_features", &D::n_features),
      jsonField("n_classes", &D::n_classes),
      jsonField("input_shape", &D::input_shape),
      jsonField("image_shape", &D::image_shape),
      jsonField("x_dtype", &D::x_dtype),
      jsonField("outputs", &D::outputs),
      jsonField("class_names", &D::class_names),
      jsonField("feature_names", &D::feature_names),
      jsonField("preprocessing", &D::preprocessing),
      jsonField("files", &D::files),
      inGroup("augmentation", jsonField("transforms", &D::augmentation)),
      inGroup("augmentation", jsonField("applied_to", &D::augmented_splits)),
  };
  return fields;
}

const std::vector<JsonField<ModelSummary>>& modelSummaryFields() {
  using M = ModelSummary;
  static const std::vector<JsonField<M>> fields = {
      jsonField("description", &M::description),
      jsonField("parameter_count", &M::parameter_count),
  };
  return fields;
}

const std::vector<JsonField<RunInfo>>& runJsonFields() {
  using R = RunInfo;
  static const std::vector<JsonField<R>> fields = {
      jsonField("trainscope_version", &R::trainscope_version),
      jsonField("torch_version", &R::torch_version),
      jsonField("device", &R::device),
      jsonField("cuda_available", &R::cuda_available),
      jsonField("num_threads", &R::num_threads),
      threadChoiceField(),
      jsonField("cpu", &R::cpu),
      jsonField("blas_library", &R::blas_library),
      jsonField("start_time", &R::start_time),
      jsonField("host", &R::host),
      jsonField("front_end", &R::front_end),
      jsonField("command_line", &R::command_line),
      jsonField("seed", &R::seed),
      jsonField("class_weights", &R::class_weights,
                [](const RunInfo& r) { return !r.class_weights.empty(); }),
      inGroup("loader", jsonField("sampler", &R::sampler)),
      inGroup("loader", jsonField("workers", &R::data_workers)),
      inGroup("loader", jsonField("prefetch", &R::prefetch)),
      jsonObjectField("data", &R::data, &dataSummaryFields),
      jsonObjectField("model", &R::model, &modelSummaryFields),
      inGroup("resumed_from", jsonField("file", &R::resumed_from, resumed)),
      inGroup("resumed_from", jsonField("step", &R::start_step, resumed)),
      inGroup("distributed", jsonField("world_size", &R::world_size, distributed)),
      inGroup("distributed", jsonField("backend", &R::backend, distributed)),
      inGroup("distributed", jsonField("hosts", &R::hosts, distributed)),
      inGroup("init_weights", jsonField("file", &R::init_weights, importedWeights)),
      inGroup("init_weights", jsonField("form", &R::init_weights_form, importedWeights)),
      inGroup("init_weights", jsonField("tensors", &R::init_weights_tensors, importedWeights)),
      jsonField("teaching_mistakes", &R::mistakes,
                [](const R& r) { return !r.mistakes.empty(); }),
  };
  return fields;
}

const std::vector<JsonField<RunInfo>>& runConfigFields() {
  using R = RunInfo;
  static const std::vector<JsonField<R>> fields = {
      inGroup("training", jsonField("epochs", &R::epochs)),
      inGroup("training", jsonField("batch_size", &R::batch_size)),
      inGroup("training", jsonField("grad_accum_steps", &R::grad_accum_steps)),
      inGroup("training", jsonField("drop_last", &R::drop_last)),
      inGroup("training", jsonField("amp", &R::amp)),
      inGroup("training", jsonField("deterministic", &R::deterministic)),
  };
  return fields;
}

nlohmann::json toJson(const RunInfo& r) {
  nlohmann::json j = nlohmann::json::object();
  writeJsonFields(runJsonFields(), r, j);
  return j;
}

RunInfo runInfoFromJson(const nlohmann::json& run, const nlohmann::json& config) {
  RunInfo r;
  readJsonFields(runJsonFields(), run, r);
  if (config.is_object()) {
    r.config_json = config.dump();
    readJsonFields(runConfigFields(), config, r);
  }
  r.effective_batch_size = r.batch_size * r.grad_accum_steps * r.world_size;
  return r;
}

}  // namespace trainscope

#pragma once
/// run.json: what a run ran on and how it was started (ARCHITECTURE §4), written from and read
/// back into the run's RunInfo (core/run/records.h). Torch-free.
#include <nlohmann/json.hpp>

#include "core/run/json_fields.h"
#include "core/run/records.h"

namespace trainscope {

/// Fills the machine facts of `info`: TrainScope's and libtorch's versions, CUDA availability,
/// the CPU and BLAS library (probeDevices()), the start time (local, ISO 8601, now) and the
/// host name (empty when it cannot be read). Never throws.
void describeMachine(RunInfo& info);

/// The run.json object of `info`: versions, device, CUDA availability, threads (with how they
/// were chosen), CPU, BLAS library, start time, host, front end, command line, seed, data and
/// model; `resumed_from` {"file", "step"} for resumed runs, `distributed` for world_size > 1,
/// `init_weights` {"file", "form", "tensors"} for imported weights.
nlohmann::json toJson(const RunInfo& info);

/// run.json `data.preprocessing`: {"pixel_scale", "standardize", "mean", "std",
/// "target_scale", "resize"} (Preprocessing's fields, same names), by nlohmann_json's to_json/from_json;
/// missing keys keep their defaults, a key of the wrong type throws nlohmann::json::exception.
/// "resize" is written only when images were resized (and so equals the checkpoint's
/// preprocessing dict otherwise).
void to_json(nlohmann::json& j, const Preprocessing& p);
void from_json(const nlohmann::json& j, Preprocessing& p);

/// The augmentation of a run's data in one English line: "training only: T.RandomCrop(...),
/// T.RandomHorizontalFlip(p=0.5)" (the CLI's run header, the report); "none" without one.
std::string augmentationSummary(const DataSummary& data);

/// Imbalanced classes in one English line (the run header, the dry run): "classes: weights
/// [0.5567, 4.907] in the training loss (training.class_weights); data.sampler weighted: each
/// class drawn equally often".
std::string classBalanceLine(const std::vector<double>& class_weights, const std::string& sampler);

/// run.json's fields, one declaration each (core/run/json_fields.h), in file order.
const std::vector<JsonField<RunInfo>>& runJsonFields();
/// run.json `data` (DataSummary) and `model` (ModelSummary).
const std::vector<JsonField<DataSummary>>& dataSummaryFields();
const std::vector<JsonField<ModelSummary>>& modelSummaryFields();
/// What RunInfo takes from config.json: training.epochs, batch_size, grad_accum_steps, amp,
/// deterministic.
const std::vector<JsonField<RunInfo>>& runConfigFields();

/// The RunInfo that run.json `run` (toJson's form) and config.json `config` (the resolved
/// config, configToJson) describe: every run.json fact, plus the config's epochs, batch size,
/// gradient accumulation, AMP and determinism (the global batch follows from them and the world
/// size). Left default: run_dir, batches_per_epoch, amp_kind, memory_estimate_bytes, history
/// (not recorded). Keys a run of an older TrainScope did not write keep their defaults; a key
/// of the wrong type throws nlohmann::json::exception (readRun turns it into Error(Io, file)).
RunInfo runInfoFromJson(const nlohmann::json& run, const nlohmann::json& config);

}  // namespace trainscope

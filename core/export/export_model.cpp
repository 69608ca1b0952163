// A run's checkpoint exported as ONNX or TorchScript, with its model card.
#include "core/export/export_model.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/jit/serialization/import.h>
#include <torch/utils.h>
#include <torch/version.h>

#include <cctype>
#include <cstring>
#include <fstream>
#include <functional>
#include <sstream>
#include <unistd.h>

#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/export/export_plan.h"
#include "core/export/model_card.h"
#include "core/export/onnx_export.h"
#include "core/export/torchscript_export.h"
#include "core/io/atomic_file.h"
#include "core/io/json_parse.h"
#include "core/io/output_file.h"
#include "core/model/model.h"
#include "core/run/records.h"
#include "core/run/run_description.h"
#include "core/run/run_lock.h"
#include "core/run/run_reader.h"
#include "core/system/device_info.h"
#include "core/train/state/checkpoint.h"
#include "core/train/state/weights_import.h"

namespace trainscope {

namespace fs = std::filesystem;

namespace {

/// Dotted keys whose values differ between `a` and `b` (objects compared key by key, anything
/// else as a whole): {key, a's value, b's value} as compact JSON.
void differences(const nlohmann::json& a, const nlohmann::json& b, const std::string& prefix,
                 std::vector<std::vector<std::string>>& out) {
  if (a.is_object() && b.is_object()) {
    for (const auto& [k, v] : a.items()) {
      const std::string key = prefix.empty() ? k : prefix + "." + k;
      differences(v, b.contains(k) ? b[k] : nlohmann::json(), key, out);
    }
    return;
  }
  // What TrainScope fills in when a run starts is not a change of the user's: an "auto"
  // thread count or worker count, a drawn seed, the front end's non-finite policy.
  const bool filled_in = b == "auto" || (b.is_null() && (prefix == "training.seed" ||
                                                         prefix == "training.non_finite"));
  if (a != b && !filled_in) out.push_back({prefix, a.dump(), b.dump()});
}

nlohmann::json readJsonFile(const fs::path& file) {
  std::ifstream in(file);
  if (!in) throw Error(ErrorCode::Io, file.string(), "cannot read " + file.string());
  return parseJson(in);
}

/// Whether `path` lies in the folder `dir` (both absolute; symbolic links resolved where they
/// exist).
bool inside(const fs::path& path, const fs::path& dir) {
  std::error_code ec;
  const fs::path p = fs::weakly_canonical(path, ec), d = fs::weakly_canonical(dir, ec);
  const auto mismatch = std::mismatch(d.begin(), d.end(), p.begin(), p.end());
  return mismatch.first == d.end();
}

std::function<bool(const std::string&)> containing(const std::string& marker, std::size_t within) {
  return [marker, within](const std::string& bytes) {
    const std::size_t at = bytes.find(marker);
    return at != std::string::npos && at < within;
  };
}

/// The metrics the run recorded for the weights of `epoch`.
std::vector<std::pair<std::string, double>> metricsOf(const fs::path& run, int64_t epoch) {
  std::vector<std::pair<std::string, double>> out;
  std::error_code ec;
  if (fs::exists(run / "metrics.csv", ec))
    for (const EpochRecord& e : readMetricsCsv(run / "metrics.csv"))
      if (e.epoch == epoch) {
        out = {{"val_loss", e.val_loss}};
        if (e.val_accuracy) out.emplace_back("val_accuracy", *e.val_accuracy);
        if (e.val_r2) out.emplace_back("val_r2", *e.val_r2);
        if (e.val_mae) out.emplace_back("val_mae", *e.val_mae);
        if (e.val_rmse) out.emplace_back("val_rmse", *e.val_rmse);
      }
  if (fs::exists(run / "summary.json", ec)) {
    // Test metrics of the same weights: best.pt's where the run tested them, the final
    // weights' where this checkpoint holds the last epoch.
    const RunSummary s = readSummaryJson(run / "summary.json");
    const bool final_weights = epoch == s.epochs_completed;
    std::optional<double> loss, accuracy;
    if ((s.test_weights == "best" && s.test_epoch == epoch) || (s.test_weights == "last" && final_weights)) {
      loss = s.test_loss;
      accuracy = s.test_accuracy;
    } else if (s.test_weights == "best" && final_weights) {
      loss = s.last_test_loss;
      accuracy = s.last_test_accuracy;
    }
    if (loss) out.emplace_back("test_loss", *loss);
    if (accuracy) out.emplace_back("test_accuracy", *accuracy);
  }
  return out;
}

/// The settings of `mine` (a run's config JSON without its name) that differ from a preset's
/// and take effect (configKeyApplies): the preset `name` when it is one, else the preset (or
/// the defaults) it differs least from, since config.json does not record which the run
/// started from. Returns how the card names that base.
std::string settingsBase(const std::string& name, const nlohmann::json& mine, const std::string& task,
                         std::vector<std::vector<std::string>>& out) {
  auto diff = [&](const nlohmann::json& base) {
    nlohmann::json b = base;
    b.erase("name");
    std::vector<std::vector<std::string>> all, kept;
    differences(mine, b, "", all);
    for (auto& d : all)
      if (configKeyApplies(d[0], mine, task)) kept.push_back(std::move(d));
    return kept;
  };
  for (const PresetInfo& p : presets())
    if (p.name == name) {
      out = diff(configToJson(presetConfig(name)));
      return "preset " + name;
    }
  out = diff(defaultConfigJson());
  std::string base = "the defaults";
  for (const PresetInfo& p : presets()) {
    auto d = diff(configToJson(presetConfig(p.name)));
    if (d.size() < out.size()) {
      out = std::move(d);
      base = "preset " + p.name + " (the closest: config.json does not record which preset the run started from)";
    }
  }
  return base;
}

/// TrainScope's model input for `x` as the export takes it: the plan's preprocessing.
at::Tensor modelInput(const ExportPlan& plan, const at::Tensor& x) {
  return plan.input_offset.defined() ? (x - plan.input_offset) / plan.input_scale : x;
}

/// Reads the TorchScript archive `bytes` back and compares it with `model` on 16 random
/// inputs in the range of the stored values. Returns the largest absolute difference.
double selfCheck(const std::string& bytes, Model& model, const ExportPlan& plan, bool images,
                 bool softmax) {
  std::istringstream in(bytes);
  torch::jit::Module m = torch::jit::load(in, c10::Device(c10::kCPU));
  std::vector<int64_t> shape{16};
  shape.insert(shape.end(), plan.input_shape.begin(), plan.input_shape.end());
  at::Tensor x = images && plan.input_offset.defined() ? at::floor(at::rand(shape) * 256) : at::randn(shape);
  torch::NoGradGuard no_grad;
  at::Tensor mine = model.forward(modelInput(plan, x));
  if (softmax) mine = at::softmax(mine, 1);
  const at::Tensor theirs = m.forward({x}).toTensor();
  return (theirs - mine).abs().max().item<double>();
}

/// Why the run folder `run` has no checkpoints/<which>.pt, from what its files say.
std::string whyNoCheckpoint(const fs::path& run, const std::string& which) {
  std::error_code ec;
  const fs::path file = run / "checkpoints" / (which + ".pt");
  std::string why = "the run " + run.string() + " has no checkpoints/" + which + ".pt";
  if (fs::exists(file, ec)) return why + " file (it is not a regular file)";
  TrainConfig config;
  int64_t n_val = -1;
  try {
    const nlohmann::json cj = readJsonFile(run / "config.json");
    config = configFromJson(cj);
    n_val = runInfoFromJson(readJsonFile(run / "run.json"), cj).data.n_val;
  } catch (const std::exception&) {
    return why;
  }
  const bool last = fs::is_regular_file(run / "checkpoints" / "last.pt", ec);
  const std::string hint = which == "best" && last ? "; export the last with --checkpoint last" : "";
  if (which == "best" && !config.checkpoint.save_best) return why + ": checkpoint.save_best was off" + hint;
  if (which == "last" && !config.checkpoint.save_last) return why + ": checkpoint.save_last was off";
  if (which == "best" && n_val == 0) return why + ": it had no validation split to judge the best by" + hint;
  if (which == "best" && !readRunChanges(run).resumed_from.empty())
    return why + ": after its resume the validation loss never went below the earlier run's best" + hint;
  return why + ": it was removed, or the run stopped before its first " +
         (which == "best" ? "validation" : "epoch end") + hint;
}

}  // namespace

fs::path defaultExportPath(const fs::path& run, const std::string& format, const std::string& checkpoint) {
  const fs::path dir = run.filename().empty() ? run.parent_path() : run;
  return fs::current_path() / (dir.filename().string() + "-" + checkpoint + (format == "onnx" ? ".onnx" : ".pt"));
}

ExportResult exportModel(const ExportRequest& request) {
  if (request.format != "onnx" && request.format != "torchscript")
    throw Error(ErrorCode::Config, "--format",
                "--format must be onnx or torchscript, got \"" + request.format + "\"");
  if (request.checkpoint != "best" && request.checkpoint != "last")
    throw Error(ErrorCode::Config, "--checkpoint",
                "--checkpoint must be best or last, got \"" + request.checkpoint + "\"");
  const fs::path run = checkRunFolder(request.run.string(), "; export takes a run folder");
  std::error_code ec;
  const fs::path checkpoint = run / "checkpoints" / (request.checkpoint + ".pt");
  if (!fs::is_regular_file(checkpoint, ec)) throw Error(ErrorCode::Checkpoint, checkpoint.string(), whyNoCheckpoint(run, request.checkpoint));
  // Where the export goes, checked before anything is computed: not into the run folder, not
  // over a model card, with its format's extension, not over a file TrainScope did not write.
  const std::string option = request.output.empty() ? "the default output (no -o)" : "-o";
  const fs::path wanted = fs::absolute(request.output.empty()
                                           ? defaultExportPath(run, request.format, request.checkpoint)
                                           : request.output,
                                       ec)
                              .lexically_normal();
  {
    const auto [cj, cm] = modelCardPaths(wanted);
    for (const fs::path& p : {wanted, cj, cm})
      if (inside(p, run))
        throw Error(ErrorCode::Config, option,
                    option + " " + p.string() + " is inside the run folder " + run.string() +
                        "; an export never changes a run folder: write it elsewhere");
    const std::string name = wanted.filename().string();
    for (const char* card : {".model-card.json", ".model-card.md"})
      if (name.size() > std::strlen(card) && name.compare(name.size() - std::strlen(card), std::string::npos, card) == 0)
        throw Error(ErrorCode::Config, option,
                    option + " " + wanted.string() + " is the name of a model card; give the "
                    "export's own name (" + name.substr(0, name.size() - std::strlen(card)) +
                        (request.format == "onnx" ? ".onnx" : ".pt") + ": its cards are named after it)");
    std::string ext = wanted.extension().string();
    for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    const bool other = request.format == "onnx" ? ext == ".pt" || ext == ".pth" : ext == ".onnx";
    if (other)
      throw Error(ErrorCode::Config, option,
                  option + " " + wanted.string() + " has the extension of the other format; --format " +
                      request.format + " writes " + (request.format == "onnx" ? ".onnx" : ".pt") + " files");
  }
  const auto ours = request.format == "onnx" ? containing(kOnnxProducer, 64)
                                             : containing(kExportExtraFile, std::string::npos);
  const fs::path file = checkOutputFile(wanted.string(), option, ours);
  const auto [card_json_path, card_md_path] = modelCardPaths(file);
  (void)checkOutputFile(card_json_path.string(), option + " (its model card)", containing("\"trainscope_model_card\"", 64));
  (void)checkOutputFile(card_md_path.string(), option + " (its model card)", startsWith("# Model card: "));
  if (fs::exists(card_json_path, ec)) {  // ours (checked above): whose card is it?
    std::string described;
    try {
      described = readJsonFile(card_json_path).value("file", std::string());
    } catch (const std::exception&) {
    }
    if (!described.empty() && described != file.filename().string())
      throw Error(ErrorCode::Config, option,
                  option + " " + file.string() + ": its model card " + card_json_path.filename().string() +
                      " describes " + described + ", whose card would be replaced (a card is named "
                      "after the file without its extension); choose another name");
  }

  // The run: its config, data and the checkpoint's weights in the model it builds.
  const nlohmann::json config_json = readJsonFile(run / "config.json");
  TrainConfig config = configFromJson(config_json);
  const RunInfo info = runInfoFromJson(readJsonFile(run / "run.json"), config_json);
  const CheckpointInfo ckpt = inspectCheckpoint(checkpoint);
  std::vector<std::vector<std::string>> model_diff;
  differences(configToJson(checkpointConfig(ckpt))["model"], configToJson(config)["model"], "model", model_diff);
  if (!model_diff.empty()) {
    std::string what;
    for (const auto& d : model_diff) what += (what.empty() ? "" : ", ") + d[0] + " " + d[1] + " (run: " + d[2] + ")";
    throw Error(ErrorCode::Checkpoint, checkpoint.string(),
                "the checkpoint " + checkpoint.string() + " holds another model than the run's config.json: " + what);
  }
  const bool script_kind = config.model.kind == "torchscript";
  if (script_kind && fs::is_regular_file(run / "model.pt", ec))
    config.model.torchscript.path = (run / "model.pt").string();  // the run's own copy
  if (script_kind && request.format == "onnx")
    throw Error(ErrorCode::Config, "model.kind",
                "a torchscript model is the user's own module, which TrainScope's ONNX writer does "
                "not read: export it with --format torchscript, or to ONNX from Python "
                "(torch.onnx.export)");
  ModelPtr model = buildModel(config.model, info.data);
  importWeights(*model, checkpoint);
  model->eval();
  const ExportPlan plan = planExport(*model, config.model, info.data, !request.raw_input);

  // The card.
  ModelCardFacts facts;
  facts.format = request.format;
  facts.file_name = file.filename().string();
  facts.run_dir = run.string();
  facts.checkpoint = checkpoint.string();
  facts.which = request.checkpoint;
  facts.epoch = ckpt.epoch;
  facts.step = ckpt.global_step;
  facts.model_kind = config.model.kind;
  facts.model_description = info.model.description;
  facts.data = info.data;
  facts.val_fraction = config.data.val_fraction;
  facts.data_seed = config.data.seed;
  facts.preprocessing_included = !request.raw_input;
  facts.softmax = request.softmax;
  facts.metrics = metricsOf(run, ckpt.epoch);
  nlohmann::json mine = configToJson(config);
  mine.erase("name");
  if (script_kind) mine["model"]["torchscript"]["path"] = config_json["model"]["torchscript"]["path"];
  facts.settings_base = settingsBase(config.name, mine, info.data.task, facts.changed_settings);
  // What config.json does not say: a resume, settings changed while it trained, a run that
  // had not finished.
  const RunChanges changes = readRunChanges(run);
  if (!changes.resumed_from.empty())
    facts.caveats.push_back("The run resumed from " + changes.resumed_from + " at step " +
                            std::to_string(changes.resumed_step) +
                            ": the weights before that step were trained by the earlier run, with its settings.");
  for (const std::string& c : changes.changes)
    facts.caveats.push_back("Changed after the start, " + c + " (the settings above do not show it).");
  if (!fs::exists(run / "summary.json", ec)) {
    const bool live = RunDirLock::holder(run).has_value();
    facts.caveats.push_back(std::string(live ? "The run was still training when this was exported"
                                             : "The run has no summary.json: it was stopped abruptly") +
                            " (epoch " + std::to_string(ckpt.epoch) + " of " +
                            std::to_string(config.training.epochs) + " planned).");
  } else {
    const RunSummary summary = readSummaryJson(run / "summary.json");
    if (summary.stop_reason != StopReason::Completed)
      facts.caveats.push_back("The run ended before its planned " + std::to_string(config.training.epochs) +
                              " epochs, at epoch " + std::to_string(summary.epochs_completed) + " (" +
                              toString(summary.stop_reason) + ").");
  }
  facts.trainscope_version = trainscopeVersion();
  facts.torch_version = TORCH_VERSION;
  const nlohmann::ordered_json card = modelCardJson(facts);
  const std::string card_text = card.dump(2) + "\n";

  // The file, then its card.
  std::string bytes;
  ExportResult result;
  try {
  if (request.format == "onnx") {
    bytes = onnxModel(plan, request.softmax, card.dump(), trainscopeVersion());
  } else if (script_kind) {
    const fs::path tmp = fs::temp_directory_path() /
                         ("trainscope-export-" + std::to_string(::getpid()) + ".pt");
    struct Remove {
      fs::path p;
      ~Remove() {
        std::error_code e;
        fs::remove(p, e);
      }
    } remove{tmp};
    model->saveTorchScript(tmp);
    bytes = wrapTorchScript(tmp, plan, info.data.image_shape, request.softmax, card.dump());
  } else {
    bytes = torchScriptArchive(plan, request.softmax, card.dump());
  }
  } catch (const Error&) {
    throw;
  } catch (const std::exception& e) {  // c10::Error, torch::jit::ErrorReport: a bug of ours
    throw Error(ErrorCode::Internal, file.string(),
                "cannot write " + file.string() + ": " + std::string(e.what()).substr(0, 600));
  }
  if (request.format == "torchscript") {
    result.self_check = selfCheck(bytes, *model, plan, info.data.image_shape.size() == 3, request.softmax);
    if (!(*result.self_check <= 1e-4))
      throw Error(ErrorCode::Internal, file.string(),
                  "the TorchScript module read back differs from the run's model by " +
                      std::to_string(*result.self_check) + "; nothing was written");
  }
  writeFileAtomic(file, bytes);
  writeFileAtomic(card_json_path, card_text);
  writeFileAtomic(card_md_path, modelCardMarkdown(card));
  result.file = file;
  result.notes = facts.caveats;
  result.card_json = card_json_path;
  result.card_markdown = card_md_path;
  result.checkpoint = checkpoint;
  result.epoch = ckpt.epoch;
  result.step = ckpt.global_step;
  return result;
}

}  // namespace trainscope

// `trainscope-cli inspect-model FILE [--input-shape S | --preset/--config/--set] [--json]`: the
// import report of a TorchScript file (core/model/torchscript.h), with one batch of zeros or
// of the configured data through it; and the shape report `train --dry-run` prints
// (core/train/probes/shapes.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_app.h"
#include "cli/model_time_limit.h"
#include "cli/signal_watcher.h"
#include "cli/commands/commands.h"
#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/run/run_description.h"
#include "core/system/cancel.h"
#include "core/system/number_format.h"
#include "core/model/model.h"
#include "core/model/torchscript.h"
#include "core/train/probes/shapes.h"

namespace trainscope::cli {
namespace {

/// "[64, 1, 28, 28]", or "?" for a shape the model does not reveal (a child of a scripted
/// module that is not an nn.Sequential).
std::string layerShapeText(const std::vector<int64_t>& shape, bool known) {
  return known ? shapeText(shape) : std::string("?");
}

/// "1,28,28", "1x28x28" or "[1, 28, 28]" -> {1, 28, 28}; throws Error(Config) otherwise.
std::vector<int64_t> parseShape(const std::string& text) {
  std::vector<int64_t> shape;
  std::string digits;
  auto flush = [&] {
    if (digits.empty()) return;
    const long long v = std::stoll(digits);
    if (v < 1 || v > (1LL << 31))
      throw Error(ErrorCode::Config, "--input-shape",
                  "--input-shape: every size must be between 1 and 2^31, got " + digits);
    shape.push_back(v);
    digits.clear();
  };
  for (char c : text) {
    if (c >= '0' && c <= '9') {
      digits += c;
    } else if (c == ',' || c == 'x' || c == ' ' || c == '[' || c == ']') {
      flush();
    } else {
      throw Error(ErrorCode::Config, "--input-shape",
                  "--input-shape \"" + text +
                      "\" is not a shape: give one sample's sizes without the batch, e.g. "
                      "1,28,28 for grey 28x28 images or 100,1 for sequences of 100 steps");
    }
  }
  flush();
  if (shape.empty() || shape.size() > 8)
    throw Error(ErrorCode::Config, "--input-shape",
                "--input-shape \"" + text + "\" must name 1 to 8 sizes, e.g. 1,28,28");
  return shape;
}

nlohmann::ordered_json tensorsJson(const std::vector<ScriptTensorInfo>& tensors) {
  nlohmann::ordered_json a = nlohmann::ordered_json::array();
  for (const auto& t : tensors)
    a.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", t.dtype},
                 {"requires_grad", t.requires_grad}});
  return a;
}

nlohmann::ordered_json infoJson(const ScriptModuleInfo& info) {
  nlohmann::ordered_json j;
  j["file"] = info.file;
  j["format"] = "TorchScript";
  j["made_by"] = info.traced ? "torch.jit.trace" : "torch.jit.script";
  j["type"] = info.type_name;
  j["saved_in_training_mode"] = info.training;
  j["forward"] = info.forward_schema;
  j["trainable_parameters"] = info.trainable_parameters;
  j["frozen_parameters"] = info.frozen_parameters;
  j["parameters"] = tensorsJson(info.parameters);
  j["buffers"] = tensorsJson(info.buffers);
  nlohmann::ordered_json subs = nlohmann::ordered_json::array();
  for (const auto& [name, type] : info.submodules) subs.push_back({{"name", name}, {"type", type}});
  j["submodules"] = subs;
  j["warnings"] = info.warnings;
  j["file_operations"] = info.file_operations;
  return j;
}

void printInfo(const ScriptModuleInfo& info) {
  std::printf("file            %s\n", info.file.c_str());
  std::printf("format          TorchScript, made by %s (class %s)\n",
              info.traced ? "torch.jit.trace" : "torch.jit.script", info.type_name.c_str());
  std::printf("saved in        %s mode (TrainScope sets train() and eval() itself)\n",
              info.training ? "training" : "eval");
  std::printf("forward         %s\n", info.forward_schema.c_str());
  std::printf("parameters      %lld trainable, %lld frozen (requires_grad=False)\n",
              static_cast<long long>(info.trainable_parameters),
              static_cast<long long>(info.frozen_parameters));
  for (const auto& t : info.parameters)
    std::printf("  %-32s %-16s %-8s %s\n", t.name.c_str(), shapeText(t.shape).c_str(),
                t.dtype.c_str(), t.requires_grad ? "trainable" : "frozen");
  std::printf("buffers         %zu\n", info.buffers.size());
  for (const auto& t : info.buffers)
    std::printf("  %-32s %-16s %s\n", t.name.c_str(), shapeText(t.shape).c_str(), t.dtype.c_str());
  std::printf("submodules      %zu\n", info.submodules.size());
  for (const auto& [name, type] : info.submodules)
    std::printf("  %-32s %s\n", name.c_str(), type.c_str());
  for (const auto& w : info.warnings) std::printf("warning: %s\n", w.c_str());
}

nlohmann::json shapeJson(const ShapeReport& r) {
  auto facts = [](const TensorFacts& f) {
    return nlohmann::json{{"shape", f.shape}, {"dtype", f.dtype}, {"device", f.device},
                          {"min", f.min}, {"max", f.max}};
  };
  nlohmann::json layers = nlohmann::json::array();
  for (const LayerShape& l : r.layers)
    layers.push_back({{"name", l.name}, {"description", l.description},
                        {"output_shape", l.shape_known ? nlohmann::json(l.output_shape)
                                                       : nlohmann::json(nullptr)},
                        {"trainable_parameters", l.trainable_parameters},
                        {"frozen_parameters", l.frozen_parameters}});
  const nlohmann::json j{{"model_kind", r.model_kind}, {"task", r.task},
                         {"outputs", r.outputs}, {"n_train", r.n_train}, {"n_val", r.n_val},
                         {"n_test", r.n_test}, {"image_shape", r.image_shape},
                         {"x", facts(r.x)}, {"y", facts(r.y)}, {"layers", layers},
                         {"output", facts(r.output)},
                         {"trainable_parameters", r.trainable_parameters},
                         {"augmentation", r.augmentation}, {"class_weights", r.class_weights},
                         {"sampler", r.sampler}};
  return j;
}

}  // namespace

int printShapeReport(const TrainConfig& config, bool json) {
  const ShapeReport r = shapeReport(config);
  if (json) {
    std::printf("%s\n", shapeJson(r).dump(2).c_str());
    return kExitOk;
  }
  auto line = [](const char* what, const TensorFacts& f) {
    std::printf("%s %s %s on %s, values %s .. %s\n", what, f.dtype.c_str(),
                shapeText(f.shape).c_str(), f.device.c_str(), formatSignificant(f.min, 4).c_str(),
                formatSignificant(f.max, 4).c_str());
  };
  std::printf("dry run of %s: nothing is trained or written\n", config.name.c_str());
  std::printf("data: %s, %lld train / %lld val / %lld test samples, %s, %lld %s%s\n",
              config.data.source.c_str(), static_cast<long long>(r.n_train),
              static_cast<long long>(r.n_val), static_cast<long long>(r.n_test), r.task.c_str(),
              static_cast<long long>(r.outputs),
              r.task == "classification" ? "classes" : "targets",
              r.image_shape.empty() ? "" : (", images " + shapeText(r.image_shape) + " (C, H, W)").c_str());
  if (!r.augmentation.empty()) {
    std::string list;
    for (const std::string& t : r.augmentation) list += (list.empty() ? "" : ", ") + t;
    std::printf("augmentation: training only: %s\n", list.c_str());
  }
  if (!r.class_weights.empty() || r.sampler != "random")
    std::printf("%s\n", classBalanceLine(r.class_weights, r.sampler).c_str());
  line(r.augmentation.empty() ? "batch x:" : "batch x (augmented):", r.x);
  line("batch y:", r.y);
  std::printf("model: %s, %lld trainable parameters\n", r.model_kind.c_str(),
              static_cast<long long>(r.trainable_parameters));
  std::printf("  %-6s %-28s %-22s %s\n", "layer", "", "output", "parameters");
  for (const LayerShape& l : r.layers)
    std::printf("  %-6s %-28s %-22s %lld%s\n", l.name.c_str(), l.description.c_str(),
                layerShapeText(l.output_shape, l.shape_known).c_str(),
                static_cast<long long>(l.trainable_parameters),
                l.frozen_parameters > 0
                    ? (" (+" + std::to_string(l.frozen_parameters) + " frozen)").c_str()
                    : "");
  line("output:", r.output);
  std::printf("ok: the model takes the data's batches and gives [batch, %lld]\n",
              static_cast<long long>(r.outputs));
  return kExitOk;
}

InspectModelCommand::InspectModelCommand(CLI::App& app)
    : sub_(app.add_subcommand(
          "inspect-model",
          "Import report of a TorchScript model (torch.jit.script(model).save(FILE)): "
          "parameters trainable and frozen, buffers, submodules, scripted or traced; with "
          "--input-shape one batch of zeros through it, with --preset/--config/--set one batch "
          "of that data (the output checked against its classes or targets)")) {
  nonEmptyPath(sub_->add_option("file", file_, "The TorchScript file (.pt)")->required());
  sub_->add_option("--input-shape", input_shape_,
                   "One sample's shape without the batch, e.g. 1,28,28 (images) or 100,1 "
                   "(sequences): runs a batch of 2 zero samples through the module")
      ->type_name("SHAPE");
  sub_->add_option("--preset", preset_, "Run a batch of this preset's data through the module");
  nonEmptyPath(sub_->add_option("--config", config_file_,
                                "Run a batch of this config's data through the module"));
  sub_->add_option("--set", sets_, "KEY=VALUE override of the data's config, repeatable")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  sub_->add_flag("--json", json_, "Print one JSON object");
  sub_->add_flag("--allow-file-access", allow_file_access_,
                 "Load a module whose code reads or writes files (torch.from_file, torch.save): "
                 "refused otherwise, before loading (a TorchScript file is a program); as "
                 "model.torchscript.allow_file_access");
}

bool InspectModelCommand::parsed() const { return sub_->parsed(); }

int InspectModelCommand::run() const {
  // An interrupt reads as in train (files being read stop within a chunk); the model's own code,
  // which cannot stop, ends the process (signal_watcher.h) or its time limit does.
  SignalWatcher::blockSignals();
  const SignalWatcher watcher([](int) { requestCancel(); });
  const ModelTimeLimit limit;
  const bool with_data = !preset_.empty() || !config_file_.empty() || !sets_.empty();
  if (with_data && !input_shape_.empty())
    throw Error(ErrorCode::Config, "--input-shape",
                "--input-shape runs zeros through the module, --preset/--config/--set the "
                "data: give one or the other");
  const ScriptModuleInfo info = inspectTorchScript(file_, allow_file_access_);
  nlohmann::ordered_json j = infoJson(info);
  if (!json_) printInfo(info);
  if (!input_shape_.empty()) {
    const std::vector<int64_t> sample = parseShape(input_shape_);
    ModelConfig mc;
    mc.kind = "torchscript";
    mc.torchscript.path = info.file;
    mc.torchscript.allow_file_access = allow_file_access_;
    const ModelPtr model = buildModel(mc, sample, 0);
    const std::vector<LayerInfo> layers = model->layers(sample);  // Error(Config) on a mismatch
    std::vector<int64_t> out = layers.empty() ? std::vector<int64_t>{} : layers.back().output_shape;
    out.insert(out.begin(), 2);
    std::vector<int64_t> in = sample;
    in.insert(in.begin(), 2);
    if (json_) {
      j["input_shape"] = in;
      j["output_shape"] = out;
    } else {
      std::printf("batch of zeros %s -> output %s (eval mode)\n", shapeText(in).c_str(),
                  shapeText(out).c_str());
    }
  }
  if (json_ && !with_data) std::printf("%s\n", j.dump(2).c_str());
  if (!with_data) return kExitOk;
  TrainConfig config = resolveConfig(preset_, config_file_, sets_);
  if (preset_.empty() && config_file_.empty()) noteDefaultPreset(config);
  config.model.kind = "torchscript";
  config.model.torchscript.path = info.file;
  config.model.torchscript.allow_file_access = allow_file_access_;
  if (json_) {
    j["batch"] = shapeJson(shapeReport(config));
    std::printf("%s\n", j.dump(2).c_str());
    return kExitOk;
  }
  std::printf("\n");
  return printShapeReport(config, false);
}

}  // namespace trainscope::cli

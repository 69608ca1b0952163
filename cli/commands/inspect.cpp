// `trainscope-cli inspect FILE [--json]`: what a checkpoint file holds, or the state_dict of
// any other torch.save file that --init-weights takes (core/io/python_weights.h).
#include <CLI/CLI.hpp>
#include <cstdio>
#include <cstring>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/train/state/checkpoint.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/io/python_weights.h"
#include "core/run/records_json.h"

namespace trainscope::cli {
namespace {

std::string inspectShapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

nlohmann::ordered_json inspectJson(const CheckpointInfo& info) {
  nlohmann::ordered_json j;
  j["file"] = info.file.string();
  j["format_version"] = info.format_version;
  j["keys"] = info.keys;
  j["epoch"] = info.epoch;
  j["global_step"] = info.global_step;
  j["batch_in_epoch"] = info.batch_in_epoch;
  j["best_loss"] = info.best_loss ? jsonNumber(*info.best_loss) : nlohmann::json(nullptr);
  j["best_epoch"] = info.best_epoch ? nlohmann::json(info.best_epoch) : nlohmann::json(nullptr);
  j["optimizer"] = info.optimizer;
  j["config"] = parseJson<nlohmann::ordered_json>(info.config_json);
  j["source_run_dir"] = info.source_run_dir;
  j["torch_version"] = info.torch_version;
  j["trainscope_version"] = info.trainscope_version;
  j["saved_at"] = info.saved_at;
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const auto& t : info.tensors)
    tensors.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", t.dtype}});
  j["tensors"] = tensors;
  nlohmann::ordered_json history = nlohmann::ordered_json::array();
  for (const auto& r : info.history) history.push_back(epochToJson(r));
  j["history"] = history;
  return j;
}

/// True when `file` starts with a zip header (as every torch.save file does).
bool isZipFile(const std::string& file) {
  const std::optional<std::vector<char>> head = readFileHead(file, 4);  // never opens a FIFO
  return head && head->size() == 4 && std::memcmp(head->data(), "PK\x03\x04", 4) == 0;
}

nlohmann::ordered_json inspectJson(const WeightsFileInfo& info) {
  nlohmann::ordered_json j;
  j["file"] = info.file.string();
  j["format"] = "torch.save";
  j["form"] = toString(info.form);
  j["keys"] = info.keys;
  nlohmann::ordered_json tensors = nlohmann::ordered_json::array();
  for (const auto& t : info.tensors)
    tensors.push_back({{"name", t.name}, {"shape", t.shape}, {"dtype", t.dtype}});
  j["tensors"] = tensors;
  return j;
}

void printTensors(const std::vector<CheckpointTensor>& tensors) {
  std::printf("tensors         %zu\n", tensors.size());
  for (const auto& t : tensors)
    std::printf("  %-28s %-14s %s\n", t.name.c_str(), inspectShapeText(t.shape).c_str(), t.dtype.c_str());
}

int printWeights(const WeightsFileInfo& info, bool json) {
  if (json) {
    std::printf("%s\n", inspectJson(info).dump(2).c_str());
    return kExitOk;
  }
  int64_t values = 0;
  for (const auto& t : info.tensors) {
    int64_t n = 1;
    for (int64_t d : t.shape) n *= d;
    values += n;
  }
  std::printf("file            %s\n", info.file.c_str());
  std::printf("format          torch.save file, not a TrainScope checkpoint: %s\n",
              info.form == WeightsForm::StateDict
                  ? "a state_dict"
                  : "a dict whose 'model_state_dict' is the state_dict");
  if (!info.keys.empty()) {
    std::string keys;
    for (const auto& k : info.keys) keys += (keys.empty() ? "" : ", ") + k;
    std::printf("keys            %s\n", keys.c_str());
  }
  std::printf(
      "values          %lld in the state_dict (train --init-weights takes it when the "
      "names and shapes match the model)\n",
      static_cast<long long>(values));
  printTensors(info.tensors);
  return kExitOk;
}

}  // namespace

InspectCommand::InspectCommand(CLI::App& app)
    : sub_(app.add_subcommand("inspect",
                              "Describe a TrainScope checkpoint (.pt), or the state_dict of any "
                              "torch.save file that train --init-weights takes")) {
  nonEmptyPath(sub_->add_option("checkpoint", file_, "The checkpoint or torch.save file"))
      ->required();
  sub_->add_flag("--json", json_, "Print the description as one JSON object");
}

bool InspectCommand::parsed() const { return sub_->parsed(); }

int InspectCommand::run() const {
  CheckpointInfo info;
  try {
    info = inspectCheckpoint(file_);  // Error(Checkpoint): exit 2
  } catch (const Error& not_checkpoint) {
    // Not (readable as) a TrainScope checkpoint: any other torch.save file --init-weights
    // takes (a Python state_dict, a dict with 'model_state_dict') is described by the reader
    // --init-weights uses. A damaged TrainScope checkpoint keeps the checkpoint's message; so
    // does a file that is no zip at all (it says what the file is not).
    std::optional<WeightsFileInfo> weights;
    try {
      weights = inspectWeightsFile(file_);
    } catch (const Error& not_weights) {
      // Both readers share the zip and pickle layers (readTorchSaveFile): a damaged file has
      // the same problem in both, said as a checkpoint's; a file that is no zip at all too (it
      // says what the file is not). Another torch.save file keeps what the weights reader says
      // it holds ("a torch.nn...Sequential object, not a state_dict").
      auto problem = [&](const Error& e) {
        const std::string s = e.what(), at = file_ + ": ";
        const size_t i = s.find(at);
        return i == std::string::npos ? s : s.substr(i + at.size());
      };
      if (isZipFile(file_) && problem(not_weights) != problem(not_checkpoint)) throw;
      throw not_checkpoint;
    }
    if (weights->form == WeightsForm::TrainScopeCheckpoint) throw not_checkpoint;
    return printWeights(*weights, json_);
  }
  if (json_) {
    std::printf("%s\n", inspectJson(info).dump(2).c_str());
    return kExitOk;
  }
  std::string keys;
  for (const auto& k : info.keys) keys += (keys.empty() ? "" : ", ") + k;
  std::printf("file            %s\n", info.file.c_str());
  std::printf("format          %s version %lld\n", kCheckpointFormat,
              static_cast<long long>(info.format_version));
  std::printf("keys            %s\n", keys.c_str());
  std::printf("epoch           %lld completed\n", static_cast<long long>(info.epoch));
  std::printf("global step     %lld", static_cast<long long>(info.global_step));
  if (info.batch_in_epoch > 0)
    std::printf(" (mid-epoch: %lld batches of epoch %lld done)",
                static_cast<long long>(info.batch_in_epoch),
                static_cast<long long>(info.epoch + 1));
  std::printf("\n");
  if (info.best_loss) {
    std::printf("best val_loss   %s at epoch %lld\n", formatNumber(*info.best_loss).c_str(),
                static_cast<long long>(info.best_epoch));
  } else {
    std::printf("best val_loss   none\n");
  }
  std::printf("config          %s\n", info.config_summary.c_str());
  std::printf("source run      %s\n",
              info.source_run_dir.empty() ? "(none)" : info.source_run_dir.c_str());
  std::printf("saved at        %s\n", info.saved_at.c_str());
  std::printf("versions        trainscope %s, libtorch %s\n", info.trainscope_version.c_str(),
              info.torch_version.c_str());
  printTensors(info.tensors);
  return kExitOk;
}

}  // namespace trainscope::cli

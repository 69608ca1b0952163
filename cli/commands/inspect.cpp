// `trainscope-cli inspect CHECKPOINT [--json]`: what a checkpoint file holds.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "cli/cli_app.h"
#include "cli/commands/commands.h"
#include "core/io/checkpoint.h"
#include "core/train/records_json.h"

namespace trainscope::cli {
namespace {

std::string shapeText(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

nlohmann::ordered_json toJson(const CheckpointInfo& info) {
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
  j["config"] = nlohmann::ordered_json::parse(info.config_json);
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

}  // namespace

InspectCommand::InspectCommand(CLI::App& app)
    : sub_(app.add_subcommand("inspect", "Describe a TrainScope checkpoint file (.pt)")) {
  sub_->add_option("checkpoint", file_, "The checkpoint file")->required();
  sub_->add_flag("--json", json_, "Print the description as one JSON object");
}

bool InspectCommand::parsed() const { return sub_->parsed(); }

int InspectCommand::run() const {
  const CheckpointInfo info = inspectCheckpoint(file_);  // Error(Checkpoint): exit 2
  if (json_) {
    std::printf("%s\n", toJson(info).dump(2).c_str());
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
  std::printf("tensors         %zu\n", info.tensors.size());
  for (const auto& t : info.tensors)
    std::printf("  %-28s %-14s %s\n", t.name.c_str(), shapeText(t.shape).c_str(), t.dtype.c_str());
  return kExitOk;
}

}  // namespace trainscope::cli

// Describing a checkpoint file without touching any training state (ARCHITECTURE §5): the
// torch-free view front ends show. Reading the dict: core/io/checkpoint_file.h; what goes
// into it: core/train/state/train_state_io.cpp.
#include "core/train/state/checkpoint.h"

#include <nlohmann/json.hpp>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/io/file_kind.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/system/number_format.h"
#include "core/train/state/train_state_io.h"

namespace trainscope {
namespace {

std::string configSummary(const std::string& config_json) {
  try {
    auto c = parseJson(config_json);
    std::string hidden;
    for (const auto& h : c["model"]["hidden"]) hidden += (hidden.empty() ? "" : ",") + h.dump();
    std::string s = c["name"].get<std::string>() + ": " + c["data"]["source"].get<std::string>() +
                    ", " + c["model"]["kind"].get<std::string>() + " [" + hidden + "] " +
                    c["model"]["activation"].get<std::string>() + ", " +
                    c["optimizer"]["name"].get<std::string>() + " lr " +
                    formatNumber(c["optimizer"]["lr"].get<double>()) + ", batch " +
                    c["training"]["batch_size"].dump() + ", " + c["training"]["epochs"].dump() +
                    " epochs, seed " + c["training"]["seed"].dump();
    return s;
  } catch (const std::exception&) {
    return "";
  }
}


}  // namespace










CheckpointInfo inspectCheckpoint(const std::filesystem::path& file) {
  c10::impl::GenericDict d = readCheckpointDict(file);
  CheckpointInfo info;
  info.file = file;
  for (const auto& e : d) info.keys.push_back(e.key().toStringRef());
  auto intAt = [&](const char* key) -> int64_t {
    const c10::IValue& v = requireKey(d, key, file);
    if (!v.isInt()) badCheckpoint(file, std::string("'") + key + "' is not an integer");
    return v.toInt();
  };
  auto strAt = [&](const char* key) -> std::string {
    const c10::IValue& v = requireKey(d, key, file);
    if (!v.isString()) badCheckpoint(file, std::string("'") + key + "' is not a string");
    return v.toStringRef();
  };
  info.format_version = intAt("format_version");
  info.epoch = intAt("epoch");
  info.global_step = intAt("global_step");
  info.batch_in_epoch = intAt("batch_in_epoch");
  info.best_epoch = intAt("best_epoch");
  checkCheckpointCounters(file, info.epoch, info.global_step, info.batch_in_epoch, info.best_epoch);
  const c10::IValue& best = requireKey(d, "best_loss", file);
  if (!best.isNone()) info.best_loss = numberOrNan(best);
  info.config_json = strAt("config");
  info.config_summary = configSummary(info.config_json);
  try {
    info.optimizer = parseJson(info.config_json).at("optimizer").at("name");
  } catch (const std::exception&) {
    badCheckpoint(file, "'config' is not a valid TrainScope config");
  }
  info.source_run_dir = strAt("source_run_dir");
  info.torch_version = strAt("torch_version");
  info.trainscope_version = strAt("trainscope_version");
  info.saved_at = strAt("saved_at");
  // The data files the run read (absent in checkpoints of older builds).
  const auto data = d.find("data");
  if (data != d.end() && data->value().isGenericDict()) {
    const auto& dd = data->value().toGenericDict();
    const auto files = dd.find("files");
    if (files != dd.end() && files->value().isList()) {
      for (const c10::IValue& e : files->value().toListRef()) {
        if (!e.isGenericDict()) badCheckpoint(file, "'data.files' holds an entry that is not a dict");
        const auto& fd = e.toGenericDict();
        auto text = [&](const char* key) -> std::string {
          const c10::IValue& v = requireKey(fd, key, file, "data.files");
          if (!v.isString()) badCheckpoint(file, std::string("'data.files.") + key + "' is not a string");
          return v.toStringRef();
        };
        auto integer = [&](const char* key) -> int64_t {
          const c10::IValue& v = requireKey(fd, key, file, "data.files");
          if (!v.isInt()) badCheckpoint(file, std::string("'data.files.") + key + "' is not an integer");
          return v.toInt();
        };
        DataFile f;
        f.key = text("key");
        f.path = text("path");
        f.size = integer("size");
        f.mtime_ns = integer("mtime_ns");
        f.sha256 = text("sha256");
        info.data_files.push_back(std::move(f));
      }
    }
  }

  auto addTensor = [&](const std::string& name, const c10::IValue& v) {
    if (!v.isTensor()) return;
    const at::Tensor& t = v.toTensor();
    info.tensors.push_back({name, t.sizes().vec(), dtypeName(t.scalar_type())});
  };
  const c10::IValue& model = requireKey(d, "model_state_dict", file);
  if (!model.isGenericDict()) badCheckpoint(file, "'model_state_dict' is not a dict");
  for (const auto& e : model.toGenericDict()) addTensor(e.key().toStringRef(), e.value());
  const c10::IValue& opt = requireKey(d, "optimizer_state_dict", file);
  if (!opt.isGenericDict()) badCheckpoint(file, "'optimizer_state_dict' is not a dict");
  const c10::IValue& state = requireKey(opt.toGenericDict(), "state", file, "optimizer_state_dict");
  if (!state.isGenericDict()) badCheckpoint(file, "'optimizer_state_dict.state' is not a dict");
  for (const auto& p : state.toGenericDict()) {
    if (!p.value().isGenericDict()) continue;
    for (const auto& b : p.value().toGenericDict())
      addTensor("state." + std::to_string(p.key().toInt()) + "." + b.key().toStringRef(),
                b.value());
  }

  info.history = readHistory(d, file);
  return info;
}

TrainConfig checkpointConfig(const CheckpointInfo& info) {
  try {
    return configFromJson(parseJson(info.config_json));
  } catch (const std::exception& e) {
    badCheckpoint(info.file, std::string("its config is not valid here: ") + e.what());
  }
}

}  // namespace trainscope

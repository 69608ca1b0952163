// Checkpoint files: reading, validating and describing the dict of ARCHITECTURE §5, and the
// atomic write. What goes into the dict is train/train_state_io.cpp's.
#include "core/io/checkpoint.h"

#include <torch/serialize.h>

#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/checkpoint_file.h"
#include "core/io/file_kind.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/io/number_format.h"
#include "core/io/python_weights_file.h"
#include "core/run/run_dir.h"

namespace trainscope {
namespace {

[[noreturn]] void badCheckpoint(const std::filesystem::path& file, const std::string& problem) {
  throw Error(ErrorCode::Checkpoint, file.string(),
              "cannot load checkpoint " + file.string() + ": " + problem);
}

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

double numberOf(const c10::IValue& v) {
  if (v.isDouble()) return v.toDouble();
  if (v.isInt()) return static_cast<double>(v.toInt());
  return std::nan("");
}

}  // namespace

c10::impl::GenericDict makeStringDict() {
  return c10::impl::GenericDict(c10::StringType::get(), c10::AnyType::get());
}

std::string dtypeName(c10::ScalarType t) {
  switch (t) {
    case c10::kFloat:
      return "float32";
    case c10::kDouble:
      return "float64";
    case c10::kHalf:
      return "float16";
    case c10::kBFloat16:
      return "bfloat16";
    case c10::kLong:
      return "int64";
    case c10::kInt:
      return "int32";
    case c10::kByte:
      return "uint8";
    case c10::kBool:
      return "bool";
    default:
      return c10::toString(t);
  }
}

const c10::IValue& requireKey(const c10::impl::GenericDict& dict, const std::string& key,
                              const std::filesystem::path& file, const std::string& where) {
  auto it = dict.find(key);
  if (it == dict.end())
    badCheckpoint(file, "missing key '" + (where.empty() ? key : where + "." + key) + "'");
  return it->value();
}

c10::impl::GenericDict readCheckpointDict(const std::filesystem::path& file) {
  // TrainScope's own zip reader and unpickler (python_weights_file.h), not torch::pickle_load:
  // libtorch 1.13's unpickler crashes on malformed pickles, reads tensor records without
  // checking their length, checks no CRC-32, and cannot read what Python's torch.save writes
  // when it re-saves a checkpoint (APPEND, 0x61).
  const c10::IValue root = readTorchSaveFile(file, "cannot load checkpoint ", "not a PyTorch zip file");
  if (!root.isGenericDict()) badCheckpoint(file, "not a TrainScope checkpoint (the file holds no dict)");
  c10::impl::GenericDict dict = root.toGenericDict();
  for (const auto& e : dict)
    if (!e.key().isString()) badCheckpoint(file, "not a TrainScope checkpoint (its dict keys are not strings)");
  auto f = dict.find("format");
  if (f == dict.end() || !f->value().isString() || f->value().toStringRef() != kCheckpointFormat)
    badCheckpoint(file,
        std::string("not a TrainScope checkpoint (no 'format': '") + kCheckpointFormat + "' key)");
  const c10::IValue& v = requireKey(dict, "format_version", file);
  if (!v.isInt()) badCheckpoint(file, "format_version is not an integer");
  if (v.toInt() > kCheckpointFormatVersion)
    badCheckpoint(file, "format_version " + std::to_string(v.toInt()) +
                  " is newer than this TrainScope reads (" +
                  std::to_string(kCheckpointFormatVersion) + "); update TrainScope");
  if (v.toInt() < 1) badCheckpoint(file, "format_version " + std::to_string(v.toInt()) + " is invalid");
  return dict;
}

void writeCheckpointDict(const std::filesystem::path& file, const c10::impl::GenericDict& dict) {
  const std::filesystem::path dir = file.parent_path().empty() ? "." : file.parent_path();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw Error(ErrorCode::Io, dir.string(), "cannot create " + dir.string() + ": " + ec.message());
  removeStaleCheckpointTemps(dir);  // what a crash (or a failed write) left in this folder
  std::vector<char> bytes = torch::pickle_save(c10::IValue(dict));
  writeFileAtomic(file, bytes.data(), bytes.size());
}

const std::vector<std::pair<const char*, std::optional<double> EpochRecord::*>>&
historyOptionalFields() {
  static const std::vector<std::pair<const char*, std::optional<double> EpochRecord::*>> fields = {
      {"val_accuracy", &EpochRecord::val_accuracy}, {"train_accuracy", &EpochRecord::train_accuracy},
      {"val_r2", &EpochRecord::val_r2},             {"val_mae", &EpochRecord::val_mae},
      {"val_rmse", &EpochRecord::val_rmse}};
  return fields;
}

namespace {

/// format_version 2's history: a dict of 1-D tensors of one length (historyColumns).
std::vector<EpochRecord> readHistoryColumns(const c10::impl::GenericDict& h,
                                            const std::filesystem::path& file) {
  int64_t n = -1;
  auto column = [&](const c10::impl::GenericDict& dict, const std::string& key,
                    const std::string& where, c10::ScalarType dtype) -> at::Tensor {
    const c10::IValue& v = requireKey(dict, key, file, where);
    if (!v.isTensor()) badCheckpoint(file, "'" + where + key + "' is not a tensor");
    at::Tensor t = v.toTensor();
    if (t.dim() != 1 || t.scalar_type() != dtype)
      badCheckpoint(file, "'" + where + key + "' is not a 1-D " + dtypeName(dtype) + " tensor");
    if (n < 0) n = t.size(0);
    if (t.size(0) != n)
      badCheckpoint(file, "'" + where + key + "' has " + std::to_string(t.size(0)) +
                              " entries, the other columns " + std::to_string(n));
    return t.to(at::kCPU).contiguous();
  };
  const at::Tensor epoch = column(h, "epoch", "history.", at::kLong);
  const at::Tensor step = column(h, "step", "history.", at::kLong);
  const char* numbers[] = {"train_loss", "val_loss", "lr", "epoch_seconds", "samples_per_second"};
  std::vector<at::Tensor> values;
  for (const char* k : numbers) values.push_back(column(h, k, "history.", at::kDouble));
  const c10::IValue& present_v = requireKey(h, "present", file, "history");
  if (!present_v.isGenericDict()) badCheckpoint(file, "'history.present' is not a dict");
  const c10::impl::GenericDict present = present_v.toGenericDict();
  std::vector<std::pair<at::Tensor, at::Tensor>> optional;  // values, mask; undefined: absent
  for (const auto& [name, field] : historyOptionalFields()) {
    if (h.find(name) == h.end()) {  // a column a later build may leave out: none
      optional.emplace_back();
      continue;
    }
    optional.emplace_back(column(h, name, "history.", at::kDouble),
                          column(present, name, "history.present.", at::kBool));
  }
  std::vector<EpochRecord> history(static_cast<size_t>(std::max<int64_t>(n, 0)));
  const int64_t* e = epoch.data_ptr<int64_t>();
  const int64_t* s = step.data_ptr<int64_t>();
  for (int64_t i = 0; i < n; ++i) {
    EpochRecord& r = history[static_cast<size_t>(i)];
    r.epoch = e[i];
    r.step = s[i];
    double* fields[] = {&r.train_loss, &r.val_loss, &r.lr, &r.epoch_seconds, &r.samples_per_second};
    for (size_t k = 0; k < values.size(); ++k) *fields[k] = values[k].data_ptr<double>()[i];
    for (size_t k = 0; k < optional.size(); ++k)
      if (optional[k].first.defined() && optional[k].second.data_ptr<bool>()[i])
        r.*(historyOptionalFields()[k].second) = optional[k].first.data_ptr<double>()[i];
  }
  return history;
}

}  // namespace

std::vector<EpochRecord> readHistory(const c10::impl::GenericDict& d,
                                     const std::filesystem::path& file) {
  std::vector<EpochRecord> history;
  const c10::IValue& hist = requireKey(d, "history", file);
  if (hist.isGenericDict()) return readHistoryColumns(hist.toGenericDict(), file);
  // format_version 1: a list of one dict per epoch
  if (!hist.isList()) badCheckpoint(file, "'history' is neither columns (a dict) nor a list");
  for (const c10::IValue& item : hist.toListRef()) {
    if (!item.isGenericDict()) badCheckpoint(file, "a 'history' entry is not a dict");
    c10::impl::GenericDict h = item.toGenericDict();
    auto num = [&](const char* key) { return numberOf(requireKey(h, key, file, "history")); };
    EpochRecord r;
    r.epoch = static_cast<int64_t>(num("epoch"));
    r.step = static_cast<int64_t>(num("step"));
    r.train_loss = num("train_loss");
    r.val_loss = num("val_loss");
    const c10::IValue& acc = requireKey(h, "val_accuracy", file, "history");
    if (!acc.isNone()) r.val_accuracy = numberOf(acc);
    r.lr = num("lr");
    r.epoch_seconds = num("epoch_seconds");
    r.samples_per_second = num("samples_per_second");
    auto train_acc = h.find("train_accuracy");  // absent in checkpoints of older builds
    if (train_acc != h.end() && !train_acc->value().isNone())
      r.train_accuracy = numberOf(train_acc->value());
    for (auto [key, field] : {std::pair{"val_r2", &r.val_r2}, std::pair{"val_mae", &r.val_mae},
                              std::pair{"val_rmse", &r.val_rmse}}) {
      auto v = h.find(key);  // absent in checkpoints of older builds
      if (v != h.end() && !v->value().isNone()) *field = numberOf(v->value());
    }
    history.push_back(r);
  }
  return history;
}

void checkCheckpointCounters(const std::filesystem::path& file, int64_t epoch, int64_t global_step,
                             int64_t batch_in_epoch, int64_t best_epoch) {
  auto range = [&](const char* key, int64_t v, int64_t max, const char* why) {
    if (v < 0 || v > max)
      badCheckpoint(file, std::string("'") + key + "' " + std::to_string(v) + " is outside 0.." +
                    std::to_string(max) + " (" + why + ")");
  };
  range("epoch", epoch, kMaxCheckpointEpoch, "training.epochs' range");
  range("best_epoch", best_epoch, kMaxCheckpointEpoch, "training.epochs' range");
  range("global_step", global_step, kMaxCheckpointStep, "2^53: exact step numbers");
  range("batch_in_epoch", batch_in_epoch, kMaxCheckpointStep, "2^53: exact step numbers");
  if (batch_in_epoch > global_step)
    badCheckpoint(file, "'batch_in_epoch' " + std::to_string(batch_in_epoch) + " exceeds 'global_step' " +
                  std::to_string(global_step));
}

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
  if (!best.isNone()) info.best_loss = numberOf(best);
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
  // The data files the run read (issue 43; absent in checkpoints of older builds).
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

// The checkpoint dict on disk: reading and validating it, the atomic write, typed helpers.
// What goes into the dict is core/train/state's.
#include "core/io/checkpoint_file.h"

#include <torch/serialize.h>

#include <cmath>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/checkpoint_format.h"
#include "core/io/python_weights_file.h"

namespace trainscope {

[[noreturn]] void badCheckpoint(const std::filesystem::path& file, const std::string& problem) {
  throw Error(ErrorCode::Checkpoint, file.string(),
              "cannot load checkpoint " + file.string() + ": " + problem);
}

double numberOrNan(const c10::IValue& v) {
  if (v.isDouble()) return v.toDouble();
  if (v.isInt()) return static_cast<double>(v.toInt());
  return std::nan("");
}

std::string shapeText(const at::Tensor& t) {
  std::string s = "[";
  for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
  return s + "]";
}

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

}  // namespace trainscope

// TrainState <-> checkpoint dict: a loop over the checkpoint's parts (state_parts.h), each of
// which writes and reads its own keys in PyTorch 1.13's layouts.
#include "core/train/state/train_state_io.h"

#include <algorithm>

#include "core/errors.h"
#include "core/io/checkpoint_file.h"
#include "core/io/checkpoint_reader.h"
#include "core/train/state/state_parts.h"

namespace trainscope {
namespace {

using c10::IValue;
using c10::impl::GenericDict;
using Path = std::filesystem::path;

[[noreturn]] void badTrainState(const Path& file, const std::string& problem) {
  CheckpointReader{file}.bad(problem);
}

}  // namespace

GenericDict captureState(const TrainState& s, const CheckpointContext& ctx, bool with_history) {
  GenericDict d = makeStringDict();
  const PartSave save{ctx, with_history};
  for (const StatePart& part : stateParts()) part.save(s, save, d);
  return d;
}

void saveCheckpoint(const TrainState& state, const CheckpointContext& context, const Path& file) {
  writeCheckpointDict(file, captureState(state, context));
}

void restoreState(TrainState& s, const GenericDict& d, const std::string& optimizer_name,
                  const Path& file) {
  const CheckpointReader reader{file};
  const PartLoad load{reader, optimizer_name};
  std::vector<StateCommit> commits;  // every part read and checked before any applies
  for (const StatePart& part : stateParts())
    if (part.load) commits.push_back(part.load(s, d, load));
  for (const StateCommit& commit : commits) commit(s);
}

void loadCheckpoint(TrainState& state, const std::string& optimizer_name, const Path& file) {
  restoreState(state, readCheckpointDict(file), optimizer_name, file);
}

std::string resumeState(TrainState& s, const std::string& optimizer_name, const Path& file,
                        int64_t batches_per_epoch, int64_t total_epochs) {
  GenericDict d = readCheckpointDict(file);
  const IValue& source = requireKey(d, "source_run_dir", file);
  if (!source.isString()) badTrainState(file, "'source_run_dir' is not a string");
  // Checked on the file's values first, so a mismatch leaves `s` untouched.
  const CheckpointReader r{file};
  const int64_t batch = r.integer(d, "batch_in_epoch", ""), epoch = r.integer(d, "epoch", "");
  checkCheckpointCounters(file, epoch, r.integer(d, "global_step", ""), batch,
                          r.integer(d, "best_epoch", ""));
  if (batch >= batches_per_epoch)
    badTrainState(file, "batch_in_epoch " + std::to_string(batch) + " does not fit this data (" +
                  std::to_string(batches_per_epoch) + " batches per epoch)");
  if (epoch >= total_epochs)
    throw Error(ErrorCode::Config, "training.epochs",
                "training.epochs is " + std::to_string(total_epochs) + " but " + file.string() +
                    " has already completed " + std::to_string(epoch) +
                    " epochs; ask for more epochs (--epochs N sets the new total)");
  // best.pt, early stopping's best and the test's weights were picked by the checkpoint's
  // monitor (val_loss before the key existed): a resumed run keeps it.
  std::string monitor = "val_loss";
  if (d.contains("monitor")) {
    if (!d.at("monitor").isString()) badTrainState(file, "'monitor' is not a string");
    monitor = d.at("monitor").toStringRef();
  }
  if (monitor != s.monitor)
    throw Error(ErrorCode::Config, "training.monitor",
                "training.monitor is " + s.monitor + " but " + file.string() +
                    " picked its best epoch by " + monitor +
                    "; a resumed run keeps its monitor (set training.monitor=" + monitor +
                    ", or start a new run with --init-weights)");
  restoreState(s, d, optimizer_name, file);
  return source.toStringRef();
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
    auto num = [&](const char* key) { return numberOrNan(requireKey(h, key, file, "history")); };
    EpochRecord r;
    r.epoch = static_cast<int64_t>(num("epoch"));
    r.step = static_cast<int64_t>(num("step"));
    r.train_loss = num("train_loss");
    r.val_loss = num("val_loss");
    const c10::IValue& acc = requireKey(h, "val_accuracy", file, "history");
    if (!acc.isNone()) r.val_accuracy = numberOrNan(acc);
    r.lr = num("lr");
    r.epoch_seconds = num("epoch_seconds");
    r.samples_per_second = num("samples_per_second");
    auto train_acc = h.find("train_accuracy");  // absent in checkpoints of older builds
    if (train_acc != h.end() && !train_acc->value().isNone())
      r.train_accuracy = numberOrNan(train_acc->value());
    for (auto [key, field] : {std::pair{"val_r2", &r.val_r2}, std::pair{"val_mae", &r.val_mae},
                              std::pair{"val_rmse", &r.val_rmse}}) {
      auto v = h.find(key);  // absent in checkpoints of older builds
      if (v != h.end() && !v->value().isNone()) *field = numberOrNan(v->value());
    }
    history.push_back(r);
  }
  return history;
}

}  // namespace trainscope

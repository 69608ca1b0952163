// TrainState <-> checkpoint dict: a loop over the checkpoint's parts (state_parts.h), each of
// which writes and reads its own keys in PyTorch 1.13's layouts.
#include "core/train/state/train_state_io.h"

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

}  // namespace trainscope

#include "core/train/loop/trainer_parts.h"

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/dataset.h"
#include "core/model/model.h"
#include "core/train/loop/epoch_end.h"
#include "core/train/monitors/model_view_impl.h"
#include "core/train/state/checkpointing.h"
#include "core/train/state/train_state.h"
#include "core/train/state/train_state_io.h"
#include "core/train/trainer.h"

namespace trainscope {

// ---- checkpoints ----

CheckpointPart::CheckpointPart(PartHost& host, const CheckpointConfig& config,
                               std::filesystem::path folder)
    : host_(host),
      checkpointer_(folder.empty() ? nullptr
                                   : std::make_unique<Checkpointer>(config, std::move(folder))) {}

CheckpointPart::~CheckpointPart() = default;

template <class Save>
void CheckpointPart::autoSave(int64_t epoch, Save&& save) {
  if (!checkpointer_) return;
  try {
    reportSaved(save(), epoch, /*automatic=*/true);
    last_autosave_failed_ = false;
  } catch (const std::exception& ex) {
    last_autosave_failed_ = true;
    ++failed_;
    error_ = ex.what();
    host_.emit(EventKind::CheckpointFailed, std::string("checkpoint not saved: ") + ex.what(),
               epoch);
  }
}

void CheckpointPart::saveTo(const std::filesystem::path& file, int64_t epoch) {
  try {
    saveCheckpoint(host_.runState(), host_.checkpointContext(), file);
    reportSaved({file}, epoch, /*automatic=*/false);
  } catch (const std::exception& ex) {
    ++failed_;
    error_ = ex.what();
    host_.emit(EventKind::CheckpointFailed, std::string("checkpoint not saved: ") + ex.what(),
               epoch, file.string());
  }
}

void CheckpointPart::reportSaved(const std::vector<std::filesystem::path>& files, int64_t epoch,
                                 bool automatic) {
  const TrainState& state = host_.runState();
  for (const auto& f : files) {
    Event e = checkpointSavedEvent(state.global_step, epoch, f, automatic);
    // best.pt is written with the next save after the improvement (checkpoint.interval_seconds)
    if (f.filename() == "best.pt" && state.best_epoch > 0 && state.best_epoch != epoch)
      e.message += " (holds epoch " + std::to_string(state.best_epoch) + ", the best)";
    if (automatic)
      host_.record(e);
    else
      host_.emit(e);
  }
}

void CheckpointPart::onEpochEnd(const EpochEnd& end) {
  // The run's end writes everything pending; otherwise last.pt goes by interval_seconds.
  const bool final = end.early_stop || host_.stopping() || end.last;
  autoSave(end.record.epoch, [&] {
    return checkpointer_->atEpochEnd(host_.runState(), host_.checkpointContext(), end.improved,
                                     host_.runData().val.size() > 0, final);
  });
}

void CheckpointPart::onPause(int64_t epoch) {
  autoSave(epoch,
           [&] { return checkpointer_->atPause(host_.runState(), host_.checkpointContext()); });
}

void CheckpointPart::onInterrupt(int64_t epoch) {
  autoSave(epoch,
           [&] { return checkpointer_->atStop(host_.runState(), host_.checkpointContext()); });
}

void CheckpointPart::addToSummary(RunSummary& s) {
  s.checkpoints_failed = failed_;
  s.checkpoint_error = error_;
  s.final_state_saved = !last_autosave_failed_;
}

// ---- the slowdown watch, best weights ----

void ThroughputPart::onEpochEnd(const EpochEnd& end) {
  const EpochRecord& r = end.record;
  if (auto m = monitor_.onEpoch(r.epoch, r.samples_per_second))
    host_.emit({host_.runState().global_step, r.epoch, EventKind::Slowdown, *m,
                r.samples_per_second, "samples_per_second", ""});
}

void RestoreBestPart::onEpochEnd(const EpochEnd& end) {
  if (end.early_stop) restoreBestWeights(host_.runState());
}

// ---- the model view ----

void ModelViewPart::onEpochEnd(const EpochEnd& end) {
  send(end.record.epoch, end.early_stop || end.last);
}

void ModelViewPart::send(int64_t epoch, bool force) {
  if (host_.runObservers().empty()) return;
  if (!force && secondsSince(last_) < interval_s_) return;
  last_ = SteadyClock::now();
  const TrainConfig& config = host_.runConfig();
  const TrainState& state = host_.runState();
  auto view = computeModelView(
      *state.model, host_.runData(),
      dataSource(config.data.source).sine_truth ? config.data.target_scale : 0.0);
  if (!view) return;
  view->epoch = epoch;
  view->step = state.global_step;
  for (auto* o : host_.runObservers()) o->onModelView(*view);
}

// ---- the validation detail ----

bool ValidationDetailPart::onValidationStart(int64_t epoch) {
  const PreparedData& data = host_.runData();
  if (data.val.size() == 0) return false;
  collector_.emplace(data, epoch);
  return true;
}

void ValidationDetailPart::onValidationBatch(int64_t first, const at::Tensor& outputs,
                                             const at::Tensor& targets) {
  if (collector_) collector_->add(first, outputs, targets);
}

void ValidationDetailPart::onValidationEnd() {
  if (!collector_) return;
  const ValidationDetail detail = collector_->finish();
  collector_.reset();
  for (auto* o : host_.runObservers()) o->onValidationDetail(detail);
}

}  // namespace trainscope

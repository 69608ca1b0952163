#include "core/train/loop/trainer_parts.h"

#include <ATen/ATen.h>

#include "core/model/grad_cam.h"
#include "core/train/probes/embedding.h"

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

void ValidationDetailPart::addGradCams(ValidationDetail& detail) {
  const PreparedData& data = host_.runData();
  const std::vector<int64_t>& shape = data.summary.image_shape;
  Model* model = host_.runState().model.get();
  if (!model || shape.size() != 3 || model->camLayer().empty() || detail.worst.empty()) return;
  std::vector<int64_t> positions;
  for (const WorstSample& w : detail.worst) positions.push_back(w.position);
  const std::vector<at::Tensor> params = model->parameters();
  const c10::Device device = params.empty() ? c10::Device(c10::kCPU) : params.front().device();
  const at::Tensor x = data.val.select(at::tensor(positions, at::kLong)).x.to(device);
  const auto n = static_cast<int64_t>(positions.size());
  const int64_t k = detail.n_classes;
  // Every class of every sample in one batch (row c * n + i: sample i, class c): one forward
  // and one backward instead of one of each per class.
  std::vector<int64_t> reps(static_cast<std::size_t>(x.dim()), 1);
  reps[0] = k;
  const at::Tensor classes = at::arange(k, at::kLong).repeat_interleave(n);
  const at::Tensor cams = gradCam(*model, x.repeat(reps), classes, shape[1], shape[2]);
  const int64_t pixels = shape[1] * shape[2];
  for (int64_t c = 0; c < k; ++c)
    for (int64_t i = 0; i < n; ++i) {
      const float* p = cams[c * n + i].data_ptr<float>();
      detail.worst[static_cast<std::size_t>(i)].cams.emplace_back(p, p + pixels);
    }
}

bool ValidationDetailPart::onValidationStart(int64_t epoch) {
  const PreparedData& data = host_.runData();
  if (data.val.size() == 0) return false;
  collector_.emplace(data, epoch, to_observers_);
  return true;
}

void ValidationDetailPart::onValidationBatch(int64_t first, const at::Tensor& outputs,
                                             const at::Tensor& targets) {
  if (collector_) collector_->add(first, outputs, targets);
}

void ValidationDetailPart::onValidationEnd() {
  if (!collector_) return;
  ValidationDetail detail = collector_->finish();
  collector_.reset();
  detail.step = host_.runState().global_step;
  // The pictures for the dashboard (the embedding: a second forward pass of up to 5,000
  // samples; Grad-CAM: a backward pass per class of the worst samples), at most
  // kPictureShare of the engine's time: every epoch while they are cheap.
  const PreparedData& data = host_.runData();
  last_.reset();
  if (to_observers_ && data.classification && host_.runState().model) {
    if (!embedded_ || secondsSince(*embedded_) >= embedding_cost_ / ValidationDetail::kPictureShare ||
        detail.epoch >= host_.runConfig().training.epochs)  // and the planned last epoch
      addPictures(detail);
    else
      last_ = detail;  // a pause before the next pass adds them
  }
  if (files_) files_->writeValidationDetail(detail);
  if (to_observers_)
    for (auto* o : host_.runObservers()) o->onValidationDetail(detail);
}

void ValidationDetailPart::addPictures(ValidationDetail& detail) {
  const PreparedData& data = host_.runData();
  const auto start = SteadyClock::now();
  if (embedding_positions_.empty())
    embedding_positions_ = stratifiedPositions(data.val.y, EmbeddingRecord::kMaxPoints,
                                               static_cast<uint64_t>(host_.runConfig().data.seed) ^ 0x656d626564ULL);
  detail.embedding = embedValidation(*host_.runState().model, data, embedding_positions_, detail.epoch);
  addGradCams(detail);
  embedding_cost_ = secondsSince(start);
  embedded_ = SteadyClock::now();
}

void ValidationDetailPart::onPause(int64_t) {
  // Only with the weights of that pass (a pause at its epoch's end, as --quit-after-epochs
  // and "pause after epoch" make): later ones would be drawn under its epoch.
  if (!last_ || host_.runState().global_step != last_->step) return;
  ValidationDetail detail = std::move(*last_);
  last_.reset();
  addPictures(detail);
  for (auto* o : host_.runObservers()) o->onValidationDetail(detail);
}

}  // namespace trainscope

#pragma once
/// The one mapping from a run's records to the GUI's named series (series::*, run_history.h):
/// the live run's records as they arrive, a resumed run's restored rows and a finished run read
/// back from its folder all go through these. Plain C++ (no Qt).
#include "core/config/train_config.h"
#include "core/run/records.h"
#include "core/run/run_reader.h"
#include "gui/model/run_history.h"

namespace trainscope {

/// step/loss, step/grad_norm, step/grad_norm_clipped, step/lr at x = the global step; also
/// step/max_norm (clipping on), step/clipped (clipping scaled the step), step/loss_scale (AMP)
/// and step/scaler_skipped (a GradScaler skip at a finite loss). A step read back from
/// steps.csv has no max_norm and no clipped flag (the file does not record them).
void feedStep(RunHistory& history, const StepRecord& step);

/// epoch/train_loss, epoch/val_loss, epoch/lr, epoch/epoch, epoch/epoch_seconds,
/// epoch/samples_per_second and, for classification, epoch/val_accuracy and
/// epoch/train_accuracy, at x = the step the epoch ended at.
void feedEpoch(RunHistory& history, const EpochRecord& epoch);

/// layer/<name>/grad_norm and layer/<name>/update_ratio of each parameter tensor.
void feedLayerStats(RunHistory& history, const LayerStatsRecord& stats);

/// A whole run read back (readRun: superseded rows already dropped): its epochs, steps and
/// layer rows, in that order.
void feedRun(RunHistory& history, const RunRecord& run);

/// The live settings in force after the config_changed event `event` (what the Trainer reports
/// for a live change, core/train/trainer.h): optimizer.lr, training.amp (value 1 or 0) and
/// training.clip.* (what "training.clip.max_norm": clipping on at `value`; "training.clip.
/// enabled": off, max_norm `value`). Other events leave `live` as it was.
void feedLiveChange(TrainConfig& live, const Event& event);

}  // namespace trainscope

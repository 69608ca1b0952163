#pragma once
/// The settings that may change while a run goes on: the live ones (what the dashboard changes
/// during a run, through the Trainer's command queue) and, at a resume, also the ones that only
/// matter from the resume on (epochs, early stopping, checkpoints). Used by `train --resume
/// --set` and by the replay (core/train/loop/replay.h). Torch-free.
#include <optional>
#include <string>
#include <vector>

#include "core/config/config_diff.h"
#include "core/config/train_config.h"

namespace trainscope {

/// True for the keys the engine changes live (Trainer::setLearningRate, setClipping, setAmp),
/// those the key table marks `.live()` (ConfigKeyInfo::live): optimizer.lr,
/// training.clip.enabled, training.clip.max_norm, training.amp.
bool isLiveSetting(const std::string& key);

/// True for the keys a resumed run may change: the live settings, training.epochs,
/// training.early_stopping.* and checkpoint.*.
bool changeableOnResume(const std::string& key);

/// What `train --resume CHECKPOINT --set KEY=VALUE...` continues with.
struct ResumeSettings {
  /// The checkpoint's config with the changed training.epochs, training.early_stopping.* and
  /// checkpoint.* values (the live settings keep the checkpoint's values: they change through
  /// the command queue at the resume step, below).
  TrainConfig config;
  /// The non-live keys whose value changed, reported as config_changed events at the resume
  /// step (TrainerOptions::resume_changes).
  std::vector<ConfigChange> changes;
  std::optional<double> lr;        ///< optimizer.lr named by a --set: Trainer::setLearningRate
  std::optional<ClipConfig> clip;  ///< training.clip.* named: Trainer::setClipping
  std::optional<bool> amp;         ///< training.amp named: Trainer::setAmp
};

/// Applies `sets` (KEY=VALUE, as applySet) to `saved`, the checkpoint's config. Throws
/// Error(Config, key) for an unknown key or an invalid value (as resolveConfig), and
/// Error(Config, key) naming the key for a change that !changeableOnResume(key) ("--resume
/// cannot change training.batch_size: ...").
ResumeSettings resumeSettings(const TrainConfig& saved, const std::vector<std::string>& sets);

/// The number an event records for a config value given as JSON text (ConfigChange::after):
/// the number itself, 1/0 for true/false, nullopt for anything else.
std::optional<double> configEventValue(const std::string& json_text);

}  // namespace trainscope

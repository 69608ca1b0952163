#include "core/train/state/checkpointing.h"

#include <algorithm>
#include <cstdio>

#include "core/io/checkpoint_file.h"

namespace trainscope {

Checkpointer::Checkpointer(CheckpointConfig config, std::filesystem::path folder)
    : config_(config), folder_(std::move(folder)) {}

bool Checkpointer::due() const {
  return config_.interval_seconds <= 0 || secondsSince(last_write_) >= config_.interval_seconds;
}

std::vector<std::filesystem::path> Checkpointer::writeDue(
    const TrainState& state, const CheckpointContext& context,
    std::optional<c10::impl::GenericDict> dict) {
  std::vector<std::filesystem::path> written;
  if (config_.save_last) {
    if (!dict) dict = captureState(state, context);
    writeCheckpointDict(folder_ / "last.pt", *dict);
    written.push_back(folder_ / "last.pt");
  }
  if (pending_best_) {
    writeCheckpointDict(folder_ / "best.pt", *pending_best_);
    pending_best_.reset();
    written.push_back(folder_ / "best.pt");
  }
  if (state.model->saveTorchScript(folder_.parent_path() / "model.pt"))
    written.push_back(folder_.parent_path() / "model.pt");
  last_write_ = SteadyClock::now();
  last_written_step_ = state.global_step;
  return written;
}

std::vector<std::filesystem::path> Checkpointer::atEpochEnd(const TrainState& state,
                                                            const CheckpointContext& context,
                                                            bool improved, bool has_validation,
                                                            bool final) {
  std::vector<std::filesystem::path> written;
  if (folder_.empty()) return written;
  const bool is_due = final || due();
  const bool epoch_file =
      config_.every_epochs > 0 && state.epochs_completed % config_.every_epochs == 0;
  // One capture serves every file of this epoch end.
  std::optional<c10::impl::GenericDict> dict;
  if ((config_.save_best && improved && has_validation) || epoch_file ||
      (is_due && config_.save_last))
    dict = captureState(state, context);
  if (config_.save_best && improved && has_validation) {
    pending_best_ = dict;
    // A TorchScript model goes back to Python as TorchScript beside its checkpoint: written
    // now, since the module itself is not copied (it may be the folder's first file).
    std::error_code ec;  // a failure to create the folder shows in the write
    std::filesystem::create_directories(folder_, ec);
    if (state.model->saveTorchScript(folder_ / "best-model.pt")) {
      writeCheckpointDict(folder_ / "best.pt", *dict);
      pending_best_.reset();
      written.push_back(folder_ / "best.pt");
      written.push_back(folder_ / "best-model.pt");
    }
  }
  if (is_due) {
    const auto files = writeDue(state, context, dict);
    written.insert(written.end(), files.begin(), files.end());
  }
  if (epoch_file) {
    char name[32];
    std::snprintf(name, sizeof name, "epoch-%04lld.pt",
                  static_cast<long long>(state.epochs_completed));
    writeCheckpointDict(folder_ / name, *dict);
    written.push_back(folder_ / name);
    pruneEpochFiles();
  }
  return written;
}

std::vector<std::filesystem::path> Checkpointer::atStop(const TrainState& state,
                                                        const CheckpointContext& context) {
  if (folder_.empty()) return {};
  return writeDue(state, context, std::nullopt);
}

std::vector<std::filesystem::path> Checkpointer::atPause(const TrainState& state,
                                                         const CheckpointContext& context) {
  if (folder_.empty() || (state.global_step == last_written_step_ && !pending_best_) ||
      state.global_step == 0)
    return {};
  return writeDue(state, context, std::nullopt);
}

void Checkpointer::pruneEpochFiles() {
  if (config_.keep_last <= 0) return;
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(folder_, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("epoch-", 0) == 0 && name.size() > 9 &&
        name.compare(name.size() - 3, 3, ".pt") == 0)
      files.push_back(entry.path());
  }
  // epoch-NNNN.pt: zero-padded, so name order is epoch order (up to 9999; wider numbers are
  // longer names, which sort after shorter ones by length first).
  std::sort(files.begin(), files.end(), [](const auto& a, const auto& b) {
    const std::string x = a.filename().string(), y = b.filename().string();
    return x.size() != y.size() ? x.size() < y.size() : x < y;
  });
  for (size_t i = 0; i + static_cast<size_t>(config_.keep_last) < files.size(); ++i)
    std::filesystem::remove(files[i], ec);
}

Event checkpointSavedEvent(int64_t step, int64_t epoch, const std::filesystem::path& file,
                           bool automatic) {
  return Event{step,
               epoch,
               EventKind::CheckpointSaved,
               "checkpoint saved at step " + std::to_string(step) + ": " + file.string(),
               std::nullopt,
               automatic ? "automatic" : "requested",
               file.string()};
}

}  // namespace trainscope

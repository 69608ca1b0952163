#include "core/train/state/checkpointing.h"

#include <algorithm>
#include <cstdio>

#include "core/io/checkpoint_file.h"

namespace trainscope {

Checkpointer::Checkpointer(CheckpointConfig config, std::filesystem::path folder)
    : config_(config), folder_(std::move(folder)) {}

std::vector<std::filesystem::path> Checkpointer::atEpochEnd(const TrainState& state,
                                                            const CheckpointContext& context,
                                                            bool improved, bool has_validation) {
  std::vector<std::filesystem::path> written;
  if (folder_.empty()) return written;
  // One capture serves every file of this epoch end.
  c10::impl::GenericDict dict = captureState(state, context);
  auto save = [&](const std::string& name) {
    writeCheckpointDict(folder_ / name, dict);
    written.push_back(folder_ / name);
  };
  if (config_.save_last) save("last.pt");
  if (config_.save_best && improved && has_validation) {
    save("best.pt");
    // A TorchScript model also goes back to Python as TorchScript, beside its checkpoint.
    if (state.model->saveTorchScript(folder_ / "best-model.pt"))
      written.push_back(folder_ / "best-model.pt");
  }
  if (state.model->saveTorchScript(folder_.parent_path() / "model.pt"))
    written.push_back(folder_.parent_path() / "model.pt");
  if (config_.every_epochs > 0 && state.epochs_completed % config_.every_epochs == 0) {
    char name[32];
    std::snprintf(name, sizeof name, "epoch-%04lld.pt",
                  static_cast<long long>(state.epochs_completed));
    save(name);
    pruneEpochFiles();
  }
  return written;
}

std::vector<std::filesystem::path> Checkpointer::atStop(const TrainState& state,
                                                        const CheckpointContext& context) {
  if (folder_.empty()) return {};
  std::vector<std::filesystem::path> written;
  if (config_.save_last) {
    saveCheckpoint(state, context, folder_ / "last.pt");
    written.push_back(folder_ / "last.pt");
  }
  if (state.model->saveTorchScript(folder_.parent_path() / "model.pt"))
    written.push_back(folder_.parent_path() / "model.pt");
  return written;
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

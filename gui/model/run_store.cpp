#include "gui/model/run_store.h"

#include "gui/model/run_feed.h"

namespace trainscope {

RunStore::RunStore(QObject* parent)
    : QObject(parent), history_(runs_[runs::kShown]), previous_(runs_[runs::kPrevious]) {}

const RunHistory& RunStore::run(const std::string& key) const {
  static const RunHistory kNone;
  const auto it = runs_.find(key);
  return it == runs_.end() ? kNone : it->second;
}

void RunStore::holdRun(const std::string& key, const RunRecord& run) {
  if (key == runs::kShown) return;  // the session's
  RunHistory& history = runs_[key];
  history.clear();
  feedRun(history, run);
}

std::vector<std::string> RunStore::runKeys() const {
  std::vector<std::string> keys;
  for (const auto& [key, history] : runs_) keys.push_back(key);
  return keys;
}

quint64 RunStore::appendCount() const {
  quint64 count = 0;
  for (const auto& [key, history] : runs_) count += history.appendCount();
  return count;
}

void RunStore::setConfig(const TrainConfig& config) {
  config_ = config;
  live_ = config;
}

void RunStore::addEvent(const Event& event) {
  feedLiveChange(live_, event);
  emit eventOccurred(event);
}

}  // namespace trainscope

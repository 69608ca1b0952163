#include "gui/model/run_store.h"

#include "gui/model/run_feed.h"

namespace trainscope {

RunStore::RunStore(QObject* parent) : QObject(parent) {}

void RunStore::setConfig(const TrainConfig& config) {
  config_ = config;
  live_ = config;
}

void RunStore::addEvent(const Event& event) {
  feedLiveChange(live_, event);
  emit eventOccurred(event);
}

}  // namespace trainscope

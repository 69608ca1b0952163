#include "gui/model/run_store.h"

namespace trainscope {

RunStore::RunStore(QObject* parent) : QObject(parent) {}

}  // namespace trainscope

#include "gui/engine/record_types.h"

namespace trainscope {

void registerRecordMetaTypes() {
  qRegisterMetaType<RunInfo>();
  qRegisterMetaType<StepRecord>();
  qRegisterMetaType<EpochRecord>();
  qRegisterMetaType<Event>();
  qRegisterMetaType<RunSummary>();
  qRegisterMetaType<RunFailure>();
  qRegisterMetaType<LayerStatsRecord>();
  qRegisterMetaType<Diagnosis>();
  qRegisterMetaType<ModelViewRecord>();
  qRegisterMetaType<ValidationDetail>();
  qRegisterMetaType<DistributionRecord>();
}

}  // namespace trainscope

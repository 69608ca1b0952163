#pragma once
/// Core's value records as Qt meta types, so they can travel in signals (and QSignalSpy).
#include <QMetaType>

#include "core/errors.h"
#include "core/run/distribution_records.h"
#include "core/run/records.h"
#include "core/train/monitors/model_view.h"

namespace trainscope {

/// Why a run could not start or ended abnormally, as caught by the worker thread.
struct RunFailure {
  bool typed = false;                    ///< true when it was a trainscope::Error
  ErrorCode code = ErrorCode::Internal;  ///< meaningful when typed
  std::string subject;                   ///< config key or file path (typed errors)
  std::string message;                   ///< English detail for people
};

/// Registers the records with Qt's meta-type system. Idempotent; call before connecting.
void registerRecordMetaTypes();

}  // namespace trainscope

Q_DECLARE_METATYPE(trainscope::RunInfo)
Q_DECLARE_METATYPE(trainscope::StepRecord)
Q_DECLARE_METATYPE(trainscope::EpochRecord)
Q_DECLARE_METATYPE(trainscope::Event)
Q_DECLARE_METATYPE(trainscope::RunSummary)
Q_DECLARE_METATYPE(trainscope::RunFailure)
Q_DECLARE_METATYPE(trainscope::LayerStatsRecord)
Q_DECLARE_METATYPE(trainscope::Diagnosis)
Q_DECLARE_METATYPE(trainscope::ModelViewRecord)
Q_DECLARE_METATYPE(trainscope::ValidationDetail)
Q_DECLARE_METATYPE(trainscope::DistributionRecord)

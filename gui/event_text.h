#pragma once
/// Translated, human-readable text for the engine's records (core speaks English; STYLE #8).
#include <QString>

#include "core/run/records.h"
#include "gui/engine/record_types.h"

namespace trainscope {

/// Builds the events panel's lines from Event::kind and the numeric fields, never from the
/// English message (which is only a fallback for kinds this version does not know).
class EventText {
 public:
  enum class Severity { Info, Success, Warning, Error };

  /// Text for an engine event; empty when the event is shown another way (run_started and
  /// finished come from RunInfo and RunSummary).
  static QString forEvent(const Event& event, Severity* severity);
  /// "Run started: ..." from the run's RunInfo.
  static QString forRunStarted(const RunInfo& info);
  /// "Run finished: ..." with the stop reason, the number of optimizer updates skipped because
  /// of non-finite values (`skippedSteps`) and the test result when there is a test set.
  static QString forSummary(const RunSummary& summary, qint64 skippedSteps, Severity* severity);
  /// Events with the same key in a row are folded into one line of the events panel: the kind
  /// and the quantity ("non_finite/loss"); empty for kinds never folded (run start and end,
  /// errors, live setting changes).
  static QString foldKey(const Event& event);
  /// Why a run could not start or failed, naming the key or file.
  static QString forFailure(const RunFailure& failure);
  /// The line of a run read back that ended without finishing (RunStore::endedUnfinished):
  /// killed or crashed, the epochs and steps its files recorded; no time (none was recorded).
  static QString forUnfinished(const RunSummary& summary);
  /// Translated stop reason ("completed", "stopped by you", ...).
  static QString stopReason(StopReason reason);
  /// Translated name of a quantity ("loss", "gradient norm").
  static QString quantity(const std::string& what);
  /// Translated words for a loss-doctor kind ("diverging", "flat", "plateau", "overfitting",
  /// "healthy", "too_early").
  static QString diagnosisKind(const std::string& kind);
  /// A teaching.mistakes switch ("no_zero_grad") as the settings and the plots name it
  /// ("Forget optimizer.zero_grad()"); an unknown name as it is.
  static QString mistake(const std::string& name);
  /// "TEACHING – mistakes on purpose: ..." for the run's teaching.mistakes; empty without.
  static QString mistakesBanner(const std::vector<std::string>& names);
  /// A data report warning (ReportWarning, core/data/data_report.h: `kind` few_samples |
  /// no_val_samples | imbalance | duplicates | leakage | constant_features, `name` the class or
  /// features, `count`, `ratio`) in the dashboard's language: the Data dialog's list and a
  /// run's data_warning events.
  static QString dataWarning(const std::string& kind, const std::string& name, qint64 count,
                             double ratio);
  /// A number for people: 4 significant digits, nan/inf as such.
  static QString number(double value);
};

}  // namespace trainscope

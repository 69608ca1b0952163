#pragma once
/// Translated text for the engine's Findings: the likely causes of a non-finite or diverged
/// event and the loss doctor's evidence and checks (codes listed at Finding in
/// core/run/watch_records.h). Core words them in English; the GUI words them here, from the
/// code and the numbers, never from the English text (which is only the fallback for a code
/// this version does not know).
#include <QString>
#include <QStringList>

#include "core/run/watch_records.h"

namespace trainscope {

class FindingText {
 public:
  /// One finding as a translated sentence, numbers to 4 significant digits.
  static QString text(const Finding& finding);
  /// Sentences joined into one paragraph: a space after a Latin full stop, nothing after a
  /// Chinese one ("。"), as each language writes them.
  static QString joinSentences(const QStringList& sentences);
  /// The loss doctor's one-sentence reading for a Diagnosis::kind, translated.
  static QString diagnosisSummary(const std::string& kind);
  /// The summary of `d`: diverging by a loss that stays above chance (no explosion) says so.
  static QString diagnosisSummary(const Diagnosis& d);
};

}  // namespace trainscope

#pragma once
/// A reproducibility check or an AMP A/B comparison running off the GUI thread.
#include <QObject>
#include <QString>
#include <atomic>
#include <thread>

#include "core/train/probes/repro.h"

namespace trainscope {

/// Runs verifyRepro or compareAmp (core/train/probes/repro.h: two short in-process trainings) on its
/// own std::thread and reports back on the thread that created it (the GUI thread) through
/// queued calls: progressed while it runs, then exactly one of reproFinished, ampFinished,
/// failed or cancelled. cancel() ends both runs at their next step; the destructor cancels and
/// joins, so a window can close while a job runs (it waits for one training step at most).
class CompareJob : public QObject {
  Q_OBJECT
 public:
  enum class Kind { VerifyRepro, AmpCompare };

  /// Starts the job at once. `request.progress` and `request.cancel` are set by the job.
  CompareJob(Kind kind, CompareRequest request, QObject* parent = nullptr);
  ~CompareJob() override;

  Kind kind() const { return kind_; }
  qint64 steps() const { return steps_; }
  /// Trainings the job runs: 2, or 2 per timing round for an AMP comparison.
  int runs() const { return runs_; }
  /// True until one of the end signals has been emitted.
  bool isRunning() const { return running_; }
  /// Asks both runs to end at their next step; `cancelled` follows.
  void cancel() { cancel_ = true; }

 signals:
  /// Run `run` (0 = first, 1 = second, ... below runs()) has done `step` of steps() steps. Throttled to about
  /// 200 calls per run.
  void progressed(int run, qint64 step);
  void reproFinished(const trainscope::ReproReport& report);
  void ampFinished(const trainscope::AmpCompareReport& report);
  /// Bad input or a failed run: `message` is core's English detail (naming the key or file).
  void failed(const QString& message);
  void cancelled();

 private:
  void finish();

  Kind kind_;
  qint64 steps_;
  int runs_;
  std::atomic<bool> cancel_{false};
  bool running_ = true;
  std::thread thread_;
};

}  // namespace trainscope

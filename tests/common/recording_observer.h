#pragma once
// One recording observer for the suites that run a Trainer (core, CLI and verdict suites): every
// record the trainer reports, kept in order under a mutex (the trainer calls from its own
// thread), and the counters tests wait on. Suites that act on a record (change the learning rate
// at a step, stop at an epoch) derive from it and call the base first.
#include <atomic>
#include <cstddef>
#include <filesystem>
#include <mutex>
#include <vector>

#include "core/train/trainer.h"

namespace testrun {

struct RecordingObserver : trainscope::TrainerObserver {
  std::mutex mutex;  ///< guards the vectors, info and summary
  trainscope::RunInfo info;
  std::vector<trainscope::StepRecord> steps;
  std::vector<trainscope::EpochRecord> epochs;
  std::vector<trainscope::Event> events;
  std::vector<trainscope::LayerStatsRecord> layers;
  std::vector<trainscope::Diagnosis> diagnoses;
  trainscope::RunSummary summary;
  std::atomic<int64_t> step_count{0};       ///< the step of the last StepRecord, 0 before
  std::atomic<int64_t> non_finite_step{0};  ///< the step of the first NonFinite event, 0 before
  std::atomic<int> paused_events{0};        ///< Paused events so far
  /// True between a Paused event and the next Resumed (how front ends learn the run state).
  std::atomic<bool> paused{false};
  std::atomic<bool> finished{false};  ///< onRunFinished was called

  void onRunStarted(const trainscope::RunInfo& i) override {
    std::lock_guard<std::mutex> l(mutex);
    info = i;
  }
  void onStep(const trainscope::StepRecord& r) override {
    std::lock_guard<std::mutex> l(mutex);
    steps.push_back(r);
    step_count = r.step;
  }
  void onEpoch(const trainscope::EpochRecord& r) override {
    std::lock_guard<std::mutex> l(mutex);
    epochs.push_back(r);
  }
  void onEvent(const trainscope::Event& e) override {
    std::lock_guard<std::mutex> l(mutex);
    events.push_back(e);
    using trainscope::EventKind;
    if (e.kind == EventKind::NonFinite && non_finite_step == 0) non_finite_step = e.step;
    if (e.kind == EventKind::Paused) {
      ++paused_events;
      paused = true;
    }
    if (e.kind == EventKind::Resumed) paused = false;
  }
  void onLayerStats(const trainscope::LayerStatsRecord& r) override {
    std::lock_guard<std::mutex> l(mutex);
    layers.push_back(r);
  }
  void onDiagnosis(const trainscope::Diagnosis& d) override {
    std::lock_guard<std::mutex> l(mutex);
    diagnoses.push_back(d);
  }
  void onRunFinished(const trainscope::RunSummary& s) override {
    {
      std::lock_guard<std::mutex> l(mutex);
      summary = s;
    }
    finished = true;
  }

  /// The events of `kind` so far, in order.
  std::vector<trainscope::Event> eventsOf(trainscope::EventKind kind) {
    std::lock_guard<std::mutex> l(mutex);
    std::vector<trainscope::Event> out;
    for (const auto& e : events)
      if (e.kind == kind) out.push_back(e);
    return out;
  }
  /// How many events of `kind` so far.
  std::size_t count(trainscope::EventKind kind) {
    std::lock_guard<std::mutex> l(mutex);
    std::size_t n = 0;
    for (const auto& e : events) n += e.kind == kind;
    return n;
  }
};

/// Stops the run from inside (synchronously, on the training thread) after step `at`.
struct StopAt : trainscope::TrainerObserver {
  trainscope::Trainer* trainer = nullptr;
  int64_t at = 0;
  void onStep(const trainscope::StepRecord& r) override {
    if (r.step == at) trainer->stop();
  }
};

/// Trains `c` into `dir` (resumed from `resume` when given), stopped after step `stop_at` when
/// it is above 0.
inline trainscope::RunSummary runTo(const trainscope::TrainConfig& c, const std::filesystem::path& dir,
                                    const std::filesystem::path& resume = {}, int64_t stop_at = 0) {
  trainscope::TrainerOptions o;
  o.run_dir = dir;
  o.front_end = "test";
  o.resume_from = resume;
  trainscope::Trainer t(c, o);
  StopAt stopper;
  stopper.trainer = &t;
  stopper.at = stop_at;
  if (stop_at > 0) t.addObserver(&stopper);
  return t.run();
}

}  // namespace testrun

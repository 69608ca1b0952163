#pragma once
/// The reproducibility check (`trainscope-cli verify-repro`, the GUI's verifyReproButton) and
/// the AMP A/B comparison (`trainscope-cli amp-compare`, the GUI's A/B report): both train the
/// same config twice in this process for K steps and compare. Torch-free, so front ends call
/// them directly (on a worker thread: they block for the length of two short runs).
#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "core/config/train_config.h"
#include "core/system/noise.h"

namespace trainscope {

/// What to run twice.
struct CompareRequest {
  TrainConfig config;                ///< used when `checkpoint` is empty
  std::filesystem::path checkpoint;  ///< resume both runs from here (its config is used)
  int64_t steps = 100;               ///< optimizer steps per run (>= 1)
  /// compareAmp only: timing rounds (1..kMaxRounds), each one float32 run and one AMP run,
  /// the first of a round alternating (float32 first in round 1, AMP first in round 2, ...) so
  /// that a burst of other load or a slow drift hits both alike. verifyRepro does one pair.
  int rounds = 3;
  static constexpr int kMaxRounds = 20;
  /// Progress: which run (0, 1, ... in the order they train: compareAmpRunIsAmp says which
  /// of compareAmp's runs is the AMP one) and the steps it has done. Called on the calling
  /// thread.
  std::function<void(int run, int64_t step)> progress;
  /// Set from any thread to end both runs early (the report then covers the steps done).
  const std::atomic<bool>* cancel = nullptr;
};

/// The result of verifyRepro.
struct ReproReport {
  int64_t steps_requested = 0;
  int64_t steps_compared = 0;      ///< steps both runs did (fewer when a run ended early)
  bool identical = false;          ///< every loss and every final weight equal, bit for bit
  double max_loss_diff = 0;        ///< max |loss_a - loss_b| over the compared steps
  double max_weight_diff = 0;      ///< max |w_a - w_b| over every final parameter element
  bool seeded = true;              ///< training.seed was set (else each run drew its own)
  int64_t seed_a = 0, seed_b = 0;  ///< the seeds the two runs used
  int threads = 1;                 ///< intra-op threads of both runs (run B uses run A's)
  bool amp = false, deterministic = false;
  std::string device;
  std::vector<double> losses_a, losses_b;  ///< per step
  /// When the runs differ, the likely causes as stable codes: "unseeded" |
  /// "nondeterministic_kernels" (CUDA devices only) | "amp" | "threads"; `causes` says each in
  /// English.
  std::vector<std::string> cause_codes, causes;
  /// "bitwise identical" or "differs by X" (X: the larger of the two maxima).
  std::string verdict;
};

/// Runs the request twice from the same config and seed (or the same checkpoint) and compares
/// the per-step losses and the final weights. training.epochs is raised to at least `steps`
/// so a run has K steps; the second run uses the thread count the first chose. Without a
/// seed each run draws its own, so they differ ("unseeded"). Throws Error (Config, Data,
/// Checkpoint) for bad input, Error(Internal) when a run fails.
ReproReport verifyRepro(const CompareRequest& request);

/// The result of compareAmp.
struct AmpCompareReport {
  static constexpr int64_t kMinTimedSteps = 5;      ///< fewer timed steps: too small to time
  static constexpr double kMinTimedSeconds = 1e-3;  ///< less timed training: too small to time
  /// Steps timed in each run (the smaller count); 0: the run was too small to time, and the
  /// rates and speed-up are 0 (front ends say so instead of printing them).
  int64_t timed_steps = 0;
  int64_t steps = 0;                                               ///< steps compared
  std::vector<double> loss_fp32, loss_amp;                         ///< per step
  double max_loss_diff = 0, mean_loss_diff = 0;                    ///< over the compared steps
  double samples_per_second_fp32 = 0, samples_per_second_amp = 0;  ///< training steps only
  /// The median over the rounds of (AMP samples/s / float32 samples/s) of a round; 0 when not
  /// timed. Quote it only when !speedup_spread.busy: a busy machine (rounds spread over 20%)
  /// gets the range instead.
  double speedup = 0;
  std::vector<double> speedups;  ///< per timed round, in order
  RateSpread speedup_spread;     ///< median, range and spread of `speedups`
  int rounds = 0;                ///< rounds done (fewer than requested after a cancel)
  std::string device;    ///< "cpu", "cuda:0"
  std::string amp_kind;  ///< "bf16 autocast" | "fp16 autocast with loss scaling"
  int threads = 1;
  int64_t seed = 0;
  std::string explanation;  ///< English: why the speed-up is what it is here
};

/// Trains the request's config from one seed (drawn once when unset) for `steps` steps with
/// training.amp off and on, `request.rounds` times interleaved, same thread count; compares
/// the loss curves of the first round and the throughput of every round (samples/s timed
/// between steps, excluding steps after an epoch's validation, or, when that times fewer
/// steps, over whole epochs' training time after the first epoch; at least kMinTimedSteps
/// steps and kMinTimedSeconds, else timed_steps 0). The rates are the medians over the rounds;
/// the speed-up is the median of the rounds' speed-ups, with its spread. Throws as
/// verifyRepro, and Error(Config, "rounds") for rounds outside 1..kMaxRounds.
AmpCompareReport compareAmp(const CompareRequest& request);

/// Whether compareAmp's run number `run` (0-based, the order of CompareRequest::progress)
/// trains with AMP: round r = run / 2 trains float32 first when r is even, AMP first when odd.
inline bool compareAmpRunIsAmp(int run) { return (run / 2) % 2 == 0 ? run % 2 == 1 : run % 2 == 0; }

}  // namespace trainscope

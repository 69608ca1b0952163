#pragma once
/// training.num_threads "auto": the candidate counts and their timing on a throwaway copy of the
/// model. Internal to core (torch types).
#include <vector>

#include "core/config/config_fwd.h"
#include "core/data/dataset.h"
#include "core/run/records.h"
#include "core/train/state/train_state.h"

namespace trainscope {

/// The largest candidate of "auto": OMP_NUM_THREADS when set to a positive integer (then
/// `*from_omp` is set true), else `available_cores` (0 = the machine's logical cores) less
/// `reserved_cores`, at least 1.
int autoThreadLimit(int available_cores, int reserved_cores, bool* from_omp = nullptr);

/// 1, 2, 4, ... below `max_threads`, then `max_threads` itself (at least {1}).
std::vector<int> threadCandidates(int max_threads);

/// The candidate with the highest rate; the smaller count on a tie. 1 for an empty list.
int fastestThreads(const std::vector<ThreadRate>& rates);

/// Times a few training steps at each candidate count, on a deep copy of `state.model` with a
/// fresh optimizer of the same kind (`optimizer`), with the first batches of `train` in storage
/// order. Interleaves the candidates over two rounds (so a burst of other load hits all
/// alike), each round at most ~16 steps or ~60 ms per candidate after one warm-up step; a
/// candidate whose warm-up step alone exceeds 60 ms is rated by that step, and one 4x behind the
/// best after the first round is not timed again (under load a step can take 100x longer).
/// ThreadRate::rounds keeps each round's rate; describeThreads shows a candidate's range where
/// they spread over 20% (other programs, or a heavy model still warming up: short rounds cannot
/// tell which).
/// Leaves the run untouched: the real model, optimizer and gradients are not used, the global
/// CPU generator's state (dropout draws from it) is restored afterwards, the shuffle generator
/// is not used, and the calling thread's intra-op count is restored. CPU only.
std::vector<ThreadRate> measureThreadRates(const TrainState& state, const TensorPair& train,
                                           int64_t batch_size, bool classification,
                                           const ClipConfig& clip, const OptimizerConfig& optimizer,
                                           const std::vector<int>& candidates);

/// Resolves training.num_threads for a run: an explicit count is used as given; unset ("auto")
/// is measured on a throwaway copy of `state` among threadCandidates(autoThreadLimit(...)) (the
/// run's parameters, buffers and RNG streams untouched), or the largest candidate off the CPU.
/// The count is written back into config.training.num_threads (recorded like the seed: float
/// sums depend on the split across threads) and state.num_threads, and applied with
/// at::set_num_threads on the calling (training) thread. It never changes during the run. A
/// TorchScript model (model.kind "torchscript") on the CPU is also run for a few steps at an
/// explicit count (its JIT warm-up, kept out of the epochs' rates; `rates` then holds that count).
ThreadChoice chooseThreadCount(TrainState& state, const TensorPair& train, bool classification,
                               TrainConfig& config, int available_cores, int reserved_cores);

}  // namespace trainscope

#pragma once
/// The parts of a training run that make it data-parallel with DistributedDataParallel's
/// semantics (torch.nn.parallel.DistributedDataParallel + DistributedSampler): the same start on
/// every rank, one averaged gradient all-reduce per optimizer step, evaluation sums over all
/// ranks, and run-control decisions every rank takes alike. Internal to core (torch types).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/data/dataset.h"
#include "core/distributed/process_group.h"
#include "core/model/model.h"
#include "core/run/records.h"

namespace trainscope {

/// Fills run.json's `distributed` facts of `info` (world size, backend, hosts) from the group.
void describeGroup(const DistContext& dist, RunInfo& info);

/// The "group_formed" event: world size (value), backend, hosts, per-rank and global batch,
/// seconds the ranks took to join.
Event groupFormedEvent(const DistContext& dist, int64_t batch_size);

/// Rank 0's value of `seed` on every rank (an unseeded run's drawn seed; dist.broadcast).
int64_t broadcastSeed(DistContext& dist, int64_t seed);

/// Copies rank 0's parameters and buffers into every rank's model (dist.broadcast of each, as
/// DDP's constructor does with module states), so every rank starts from the same weights
/// whatever its own initialisation drew.
void broadcastModel(DistContext& dist, Model& model);

/// Checks that every rank has the same value of each named fact (sizes of the splits, the
/// parameter count, batch size, epochs, ...), so that the ranks run the same number of steps
/// and collectives. Throws Error(Config, "distributed") naming the first fact that differs
/// and its smallest and largest value ("ranks disagree on training samples: 47000 to 48000;
/// every rank needs the same config and data"). Two small all-reduces (MAX of v and of -v).
void checkRanksAgree(DistContext& dist, const std::vector<std::pair<std::string, int64_t>>& facts);

/// Config keys that may differ between ranks: where each rank finds its data and device, its
/// thread count, and what only rank 0 writes (name, checkpoint.*).
const std::vector<std::string>& perRankConfigKeys();

/// Checks that every rank runs the same config: rank 0 broadcasts its config (configToJson, as
/// JSON text) and every rank compares it key by key with its own, except perRankConfigKeys().
/// Collective: every rank throws Error(Config, key) when any rank differs; the rank that
/// differs names the key and both values ("optimizer.lr: rank 0 has 0.01, rank 1 has 0.1").
void checkConfigsAgree(DistContext& dist, const std::string& config_json);

/// A stop every rank takes at the same step boundary: `local` is this rank's request (a Stop
/// command or a signal, with its reason), nullopt when none. Returns the agreed reason (the
/// highest-ranked reason asked by any rank: Interrupted before Error before Stopped), or
/// nullopt when no rank asked. One small all-reduce (MAX).
std::optional<StopReason> agreeOnStop(DistContext& dist, std::optional<StopReason> local);

}  // namespace trainscope

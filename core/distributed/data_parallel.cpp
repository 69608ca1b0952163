// Data parallel glue (core/distributed/data_parallel.h): broadcasts at the start, agreed stops,
// the ranks' agreement on their config. The collectives of a step and of an evaluation are
// core/train/step/step.cpp's.
#include "core/distributed/data_parallel.h"

#include <ATen/ATen.h>
#include <torch/utils.h>

#include <cstdio>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "core/data/distributed_sampler.h"
#include "core/errors.h"
#include "core/io/json_parse.h"

namespace trainscope {

void describeGroup(const DistContext& dist, RunInfo& info) {
  info.world_size = dist.worldSize();
  info.backend = dist.backend();
  info.hosts = dist.hosts();
}

Event groupFormedEvent(const DistContext& dist, int64_t batch_size) {
  std::string hosts;
  for (const auto& h : dist.hosts()) hosts += (hosts.empty() ? "" : ", ") + h;
  char secs[32];
  std::snprintf(secs, sizeof secs, "%.2f", dist.joinSeconds());
  Event e;
  e.kind = EventKind::GroupFormed;
  e.message = "process group formed: " + std::to_string(dist.worldSize()) + " ranks (" +
              dist.backend() + ") on " + hosts + " in " + secs + " s; batch " +
              std::to_string(batch_size) + " per rank, global batch " +
              std::to_string(batch_size * dist.worldSize());
  e.value = dist.worldSize();
  e.what = "world_size";
  return e;
}

int64_t broadcastSeed(DistContext& dist, int64_t seed) {
  at::Tensor t = at::full({1}, seed, at::TensorOptions().dtype(at::kLong));
  dist.broadcast(t, 0, "broadcast of the seed");
  return t.item<int64_t>();
}

void broadcastModel(DistContext& dist, Model& model) {
  torch::NoGradGuard no_grad;
  for (auto& p : model.parameters()) {
    at::Tensor t = p.detach().contiguous();
    dist.broadcast(t, 0, "broadcast of rank 0's initial weights");
    if (t.data_ptr() != p.data_ptr()) p.detach().copy_(t);
  }
  for (auto& b : model.buffers()) {
    at::Tensor t = b.contiguous();
    dist.broadcast(t, 0, "broadcast of rank 0's buffers");
    if (t.data_ptr() != b.data_ptr()) b.copy_(t);
  }
}

void checkRanksAgree(DistContext& dist, const std::vector<std::pair<std::string, int64_t>>& facts) {
  std::vector<int64_t> v;
  for (const auto& f : facts) v.push_back(f.second);
  const auto n = static_cast<int64_t>(v.size());
  at::Tensor hi = at::tensor(v, at::TensorOptions().dtype(at::kLong));
  at::Tensor lo = hi.neg();
  dist.allReduceMax(hi, "check that the ranks agree");
  dist.allReduceMax(lo, "check that the ranks agree");
  for (int64_t i = 0; i < n; ++i) {
    const int64_t max = hi[i].item<int64_t>(), min = -lo[i].item<int64_t>();
    if (min != max)
      throw Error(ErrorCode::Config, "distributed",
                  "ranks disagree on " + facts[i].first + ": from " + std::to_string(min) + " to " +
                      std::to_string(max) + " (rank " + std::to_string(dist.rank()) + " has " +
                      std::to_string(facts[i].second) +
                      "); every rank needs the same config and the same data");
  }
}

namespace {
/// Leaf values of a JSON object by dotted key ("optimizer.lr"); lists are leaves.
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::map<std::string, std::string>& out) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
  } else {
    out[prefix] = j.dump();
  }
}

bool perRank(const std::string& key) {
  for (const std::string& k : perRankConfigKeys())
    if (key == k || (k.back() == '.' && key.rfind(k, 0) == 0)) return true;
  return false;
}
}  // namespace

const std::vector<std::string>& perRankConfigKeys() {
  static const std::vector<std::string> keys = {"name", "data.path", "training.device",
                                                "training.num_threads", "checkpoint."};
  return keys;
}

void checkConfigsAgree(DistContext& dist, const std::string& config_json) {
  // Rank 0's text: its length, then its bytes.
  at::Tensor size = at::tensor({static_cast<int64_t>(config_json.size())}, at::kLong);
  dist.broadcast(size, 0, "compare the ranks' configs");
  at::Tensor bytes = at::zeros({size.item<int64_t>()}, at::kByte);
  if (dist.rank() == 0) std::memcpy(bytes.data_ptr(), config_json.data(), config_json.size());
  dist.broadcast(bytes, 0, "compare the ranks' configs");
  const std::string root_json(static_cast<const char*>(bytes.data_ptr()),
                              static_cast<size_t>(bytes.numel()));
  std::map<std::string, std::string> mine, root;
  flatten(parseJson(config_json), "", mine);
  flatten(parseJson(root_json, false), "", root);
  std::string key, message;
  for (const auto& [k, v] : mine) {
    if (perRank(k)) continue;
    auto it = root.find(k);
    const std::string theirs = it == root.end() ? "nothing" : it->second;
    if (theirs != v) {
      key = k;
      message = "ranks run different configs: " + k + " is " + theirs + " on rank 0 and " + v +
                " on rank " + std::to_string(dist.rank()) +
                "; every rank needs the same config (only name, data.path, training.device, "
                "training.num_threads and checkpoint.* may differ)";
      break;
    }
  }
  if (key.empty())
    for (const auto& [k, v] : root)
      if (!perRank(k) && !mine.count(k)) {
        key = k;
        message = "ranks run different configs: rank 0 has " + k + " = " + v + ", rank " +
                  std::to_string(dist.rank()) + " has no such key";
        break;
      }
  at::Tensor differs = at::tensor({key.empty() ? int64_t{-1} : int64_t{dist.rank()}}, at::kLong);
  dist.allReduceMax(differs, "compare the ranks' configs");
  const int64_t rank = differs.item<int64_t>();
  if (!key.empty()) throw Error(ErrorCode::Config, key, message);
  if (rank >= 0)
    throw Error(ErrorCode::Config, "distributed",
                "ranks run different configs: rank " + std::to_string(rank) +
                    "'s differs from rank 0's (its message names the key)");
}

namespace {
int stopRank(StopReason reason) {
  switch (reason) {
    case StopReason::Interrupted:
      return 3;
    case StopReason::Error:
      return 2;
    default:
      return 1;
  }
}
}  // namespace

std::optional<StopReason> agreeOnStop(DistContext& dist, std::optional<StopReason> local) {
  at::Tensor t = at::full({1}, local ? stopRank(*local) : 0, at::TensorOptions().dtype(at::kInt));
  dist.allReduceMax(t, "stop agreement");
  switch (t.item<int>()) {
    case 0:
      return std::nullopt;
    case 3:
      return StopReason::Interrupted;
    case 2:
      return StopReason::Error;
    default:
      return local && stopRank(*local) == 1 ? *local : StopReason::Stopped;
  }
}

}  // namespace trainscope

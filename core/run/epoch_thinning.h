#pragma once
/// Per-epoch series of a run of any length in bounded memory: every epoch is
/// kept up to kEpochCapacity epochs; beyond, every s-th epoch (s a power of two, the smallest
/// that keeps at most kEpochCapacity of them: epochs 1, 1+s, 1+2s, ...) and always the latest.
/// The kept set is a function of the latest epoch alone, so a series restored from a checkpoint
/// goes on exactly as the uninterrupted one (the same rule as TensorBoard's bounded scalar
/// reservoirs, made deterministic). metrics.csv keeps every epoch on disk.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace trainscope {

/// Epoch records kept in memory and in a checkpoint's `history` (LossDoctor, TrainState).
inline constexpr std::size_t kEpochCapacity = 10000;

/// The stride at which epochs 1..`latest` are kept: the smallest power of two s with at most
/// `capacity` epochs e in [1, latest] having (e - 1) % s == 0. 1 for latest <= capacity.
inline int64_t epochStride(int64_t latest, std::size_t capacity = kEpochCapacity) {
  int64_t s = 1;
  const auto cap = static_cast<int64_t>(std::max<std::size_t>(capacity, 1));
  while (latest > 0 && (latest - 1) / s + 1 > cap) s *= 2;
  return s;
}

/// True when `epoch` stays in a series whose latest epoch is `latest` (the latest always does).
inline bool epochKept(int64_t epoch, int64_t latest, std::size_t capacity = kEpochCapacity) {
  return epoch == latest || (epoch - 1) % epochStride(latest, capacity) == 0;
}

/// Appends `item` (epoch `epoch_of(item)`, greater than every epoch in `series`) and drops what
/// the rule above no longer keeps: the previous latest when it is off the stride, everything off
/// a stride that doubled (and whatever a series read from elsewhere held beyond the rule).
/// O(1) amortised: the stride doubles at most once per doubling of the run. Returns true when
/// epochs other than the previous latest were dropped (a consumer that read positions starts
/// over).
template <class T, class EpochOf>
bool appendThinned(std::vector<T>& series, T item, EpochOf epoch_of,
                   std::size_t capacity = kEpochCapacity) {
  const int64_t latest = epoch_of(item);
  const int64_t s = epochStride(latest, capacity);
  if (!series.empty() && (epoch_of(series.back()) - 1) % s != 0) series.pop_back();
  bool dropped = false;
  if (!series.empty() && (s > epochStride(latest - 1, capacity) || series.size() > capacity)) {
    const auto off = [&](const T& x) { return (epoch_of(x) - 1) % s != 0; };
    const auto before = series.size();
    series.erase(std::remove_if(series.begin(), series.end(), off), series.end());
    dropped = series.size() != before;
  }
  series.push_back(std::move(item));
  return dropped;
}

/// Keeps of `series` (increasing epochs) what the rule keeps for its last epoch (a history read
/// from a checkpoint that an older TrainScope wrote in full).
template <class T, class EpochOf>
void thinToRule(std::vector<T>& series, EpochOf epoch_of, std::size_t capacity = kEpochCapacity) {
  if (series.empty()) return;
  const int64_t latest = epoch_of(series.back());
  series.erase(std::remove_if(series.begin(), series.end(),
                              [&](const T& x) { return !epochKept(epoch_of(x), latest, capacity); }),
               series.end());
}

}  // namespace trainscope

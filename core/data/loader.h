#pragma once
/// data.workers and data.prefetch (issue 48 §2): the training batches made ahead of the
/// training thread on worker threads, as torch.utils.data.DataLoader(num_workers,
/// prefetch_factor) makes them in worker processes. Internal to core (torch types).
#include <cstdint>
#include <memory>

#include "core/data/dataset.h"

namespace trainscope {

/// Makes the batches of `iter`'s current epoch: batch i by worker i % workers, at most
/// `prefetch` batches per worker ahead of the one the training thread takes, handed out in
/// order. A batch is BatchIterator::batch(i) whichever thread makes it (its augmentation draws
/// from its own generator), so a run's batches are the same for any number of workers. With 0
/// workers a batch is made on the training thread when it is asked for (DataLoader's
/// num_workers=0). The iterator must outlive the loader and keep its epoch while the workers
/// run (startEpoch after BatchIterator::startEpoch, stop before the next).
class BatchLoader {
 public:
  BatchLoader(const BatchIterator& iter, int64_t workers, int64_t prefetch);
  /// Stops the workers (each finishes at most the batch it is making).
  ~BatchLoader();
  BatchLoader(const BatchLoader&) = delete;
  BatchLoader& operator=(const BatchLoader&) = delete;

  /// Starts making the epoch's batches from batch `first` (0-based: a resumed epoch starts
  /// mid-way); stops the previous epoch's workers first.
  void startEpoch(int64_t first);
  /// Batch `i` (asked for in increasing order from `first`). `waited` gets the seconds the
  /// caller waited for it (0 workers: the seconds it took to make). Rethrows what a worker's
  /// batch threw (an augmentation error), when that batch is asked for.
  TensorPair next(int64_t i, double* waited);
  /// Stops this epoch's workers.
  void stop();

  int64_t workers() const { return workers_; }

 private:
  struct Shared;
  const BatchIterator& iter_;
  int64_t workers_, prefetch_;
  std::shared_ptr<Shared> shared_;
};

/// The loader threads of data.workers: as set, or for "auto" (null) 0 without augmentation
/// when the data is in memory (a batch is then a slice of memory) and min(4, max(1, cores /
/// 2)) with augmentation or rows read from disk (`rows_from_disk`: data.memory_map).
int64_t chooseWorkers(const DataConfig& config, bool rows_from_disk = false);

}  // namespace trainscope

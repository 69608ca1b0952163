#include "core/data/loader.h"

#include <ATen/ATen.h>

#include <condition_variable>
#include <exception>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

#include "core/config/train_config.h"
#include "core/system/clock.h"

namespace trainscope {

struct BatchLoader::Shared {
  std::mutex mutex;
  std::condition_variable changed;
  bool stopping = false;
  int64_t taken_up_to = 0;  ///< the next batch the training thread takes
  std::map<int64_t, TensorPair> ready;
  std::map<int64_t, std::exception_ptr> failed;
  std::vector<std::thread> threads;
};

int64_t chooseWorkers(const DataConfig& config, bool rows_from_disk) {
  if (config.workers) return *config.workers;
  if (!config.augment.any() && !rows_from_disk) return 0;
  const int64_t cores = std::max<int64_t>(1, std::thread::hardware_concurrency());
  return std::min<int64_t>(4, std::max<int64_t>(1, cores / 2));
}

BatchLoader::BatchLoader(const BatchIterator& iter, int64_t workers, int64_t prefetch)
    : iter_(iter), workers_(std::max<int64_t>(workers, 0)), prefetch_(std::max<int64_t>(prefetch, 1)) {}

BatchLoader::~BatchLoader() { stop(); }

void BatchLoader::stop() {
  if (!shared_) return;
  {
    std::lock_guard<std::mutex> lock(shared_->mutex);
    shared_->stopping = true;
  }
  shared_->changed.notify_all();
  for (std::thread& t : shared_->threads) t.join();
  shared_.reset();
}

void BatchLoader::startEpoch(int64_t first) {
  stop();
  if (workers_ == 0) return;
  shared_ = std::make_shared<Shared>();
  shared_->taken_up_to = first;
  const int64_t batches = iter_.batchesPerEpoch();
  const int64_t window = workers_ * prefetch_;
  for (int64_t w = 0; w < workers_; ++w) {
    shared_->threads.emplace_back([this, s = shared_.get(), first, batches, window, w] {
      for (int64_t i = first + w; i < batches; i += workers_) {
        {
          std::unique_lock<std::mutex> lock(s->mutex);
          s->changed.wait(lock, [&] { return s->stopping || i < s->taken_up_to + window; });
          if (s->stopping) return;
        }
        TensorPair batch;
        std::exception_ptr error;
        try {
          batch = iter_.batch(i);
        } catch (...) {
          error = std::current_exception();
        }
        {
          std::lock_guard<std::mutex> lock(s->mutex);
          if (error)
            s->failed.emplace(i, error);
          else
            s->ready.emplace(i, std::move(batch));
        }
        s->changed.notify_all();
      }
    });
  }
}

TensorPair BatchLoader::next(int64_t i, double* waited) {
  const auto start = SteadyClock::now();
  if (!shared_) {
    TensorPair batch = iter_.batch(i);
    if (waited) *waited = secondsSince(start);
    return batch;
  }
  Shared& s = *shared_;
  std::unique_lock<std::mutex> lock(s.mutex);
  s.changed.wait(lock, [&] { return s.ready.count(i) > 0 || s.failed.count(i) > 0; });
  if (waited) *waited = secondsSince(start);
  if (auto f = s.failed.find(i); f != s.failed.end()) std::rethrow_exception(f->second);
  auto it = s.ready.find(i);
  TensorPair batch = std::move(it->second);
  s.ready.erase(it);
  s.taken_up_to = i + 1;
  lock.unlock();
  s.changed.notify_all();
  return batch;
}

}  // namespace trainscope

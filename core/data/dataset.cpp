// Datasets: generation / reading, limit, split, standardisation, batching.
#include "core/data/dataset.h"

#include "core/data/augment/transforms.h"

#include "core/data/batches.h"

#include <ATen/ATen.h>
#include <ATen/CPUGeneratorImpl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>

#include "core/config/config_json.h"
#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/data_fingerprint.h"
#include "core/data/distributed_sampler.h"
#include "core/data/file_rows.h"
#include "core/io/row_file.h"
#include "core/data/sources.h"
#include "core/errors.h"

namespace trainscope {
namespace {

/// The data.* key whose file or folder `file` is (or lies in: an image of an image folder),
/// found among the path keys of `c` (isConfigPathKey), the longest such path winning; "" when
/// none.
std::string dataKeyOfFile(const DataConfig& c, const std::string& file) {
  TrainConfig whole;
  whole.data = c;
  const std::filesystem::path target = std::filesystem::path(file).lexically_normal();
  std::string found;
  std::size_t found_depth = 0;
  std::function<void(const nlohmann::json&, const std::string&)> walk =
      [&](const nlohmann::json& j, const std::string& prefix) {
        for (auto it = j.begin(); j.is_object() && it != j.end(); ++it) {
          const std::string key = prefix + "." + it.key();
          if (it->is_object()) {
            walk(*it, key);
          } else if (isConfigPathKey(it.key()) && it->is_string() &&
                     !it->get<std::string>().empty()) {
            std::filesystem::path value =
                std::filesystem::path(it->get<std::string>()).lexically_normal();
            if (value.filename().empty()) value = value.parent_path();  // "flowers/"
            // the file itself or a file below the folder
            const auto depth =
                static_cast<std::size_t>(std::distance(value.begin(), value.end()));
            if (std::mismatch(value.begin(), value.end(), target.begin(), target.end()).first ==
                    value.end() &&
                depth > found_depth) {
              found = key;
              found_depth = depth;
            }
          }
        }
      };
  walk(configToJson(whole)["data"], "data");
  return found;
}

/// A data file's error with the config key that names the file put first ("data.npy.y_path:
/// NumPy file ...: no such file"), unless the message names a key already.
Error withDataKey(const Error& e, const DataConfig& c) {
  if (e.code() != ErrorCode::Data || e.subject().empty()) return e;
  const std::string key = dataKeyOfFile(c, e.subject());
  const std::string message = e.what();
  if (key.empty() || message.find(key) != std::string::npos) return e;
  return Error(e.code(), e.subject(), key + ": " + message);
}

/// Permutes the rows of the contiguous tensor `t` ([N, ...]) in place so that row k becomes old
/// row order[k]: cycle by cycle with one row buffer (no second copy of `t`).
void permuteRowsInPlace(at::Tensor& t, const std::function<int64_t(int64_t)>& order) {
  const int64_t n = t.size(0);
  if (n == 0) return;
  const std::size_t row = static_cast<std::size_t>(t.numel() / n) * t.element_size();
  auto* base = static_cast<unsigned char*>(t.data_ptr());
  std::vector<unsigned char> tmp(row);
  std::vector<bool> done(static_cast<std::size_t>(n), false);
  for (int64_t k = 0; k < n; ++k) {
    if (done[k] || order(k) == k) continue;
    std::memcpy(tmp.data(), base + k * row, row);
    int64_t j = k;
    for (;;) {
      done[j] = true;
      const int64_t src = order(j);
      if (src == k) {
        std::memcpy(base + j * row, tmp.data(), row);
        break;
      }
      std::memcpy(base + j * row, base + src * row, row);
      j = src;
    }
  }
}

/// {pool.take(first), pool.take(second)} without a copy of the pool when it can (its x and y
/// contiguous and `first` ++ `second` all of its rows): the rows are permuted in place into
/// that order and both parts are views of the pool's storage, so the split costs no second
/// pool in memory (values and orders are those of TensorPair::take()).
std::pair<TensorPair, TensorPair> splitRows(TensorPair pool, const at::Tensor& first,
                                            const at::Tensor& second) {
  const int64_t n = pool.size();
  if (pool.on_disk || !pool.x.is_contiguous() || !pool.y.is_contiguous() ||
      first.numel() + second.numel() != n ||
      pool.x.device().type() != at::kCPU)
    return {pool.take(first), pool.take(second)};
  // The order first ++ second, read from both index tensors (no concatenated copy).
  const at::Tensor a = first.to(at::kLong).contiguous(), b = second.to(at::kLong).contiguous();
  const int64_t* pa = a.data_ptr<int64_t>();
  const int64_t* pb = b.data_ptr<int64_t>();
  const int64_t na = a.numel();
  const auto order = [&](int64_t k) { return k < na ? pa[k] : pb[k - na]; };
  permuteRowsInPlace(pool.x, order);
  permuteRowsInPlace(pool.y, order);
  TensorPair ta = pool, tb = pool;
  ta.x = pool.x.narrow(0, 0, na);
  ta.y = pool.y.narrow(0, 0, na);
  tb.x = pool.x.narrow(0, na, second.numel());
  tb.y = pool.y.narrow(0, na, second.numel());
  return {ta, tb};
}

/// Mean and population std of all values of a uint8 tensor, from exact integer counts: the
/// same result whatever the thread count (a float reduction's order depends on it).
std::pair<double, double> byteMeanStd(const TensorPair& split) {
  std::array<int64_t, 256> counts{};
  int64_t n = 0;
  forEachChunk(split, [&](const at::Tensor&, const at::Tensor& rows) {
    const at::Tensor c = rows.contiguous();
    const uint8_t* p = c.data_ptr<uint8_t>();
    const int64_t k = c.numel();
    for (int64_t i = 0; i < k; ++i) ++counts[p[i]];
    n += k;
  });
  double sum = 0;
  for (int v = 0; v < 256; ++v) sum += static_cast<double>(counts[v]) * v;  // exact below 2^53
  const double mean = n > 0 ? sum / n : 0;
  double sq = 0;
  for (int v = 0; v < 256; ++v) sq += static_cast<double>(counts[v]) * (v - mean) * (v - mean);
  return {mean, n > 0 ? std::sqrt(sq / n) : 0};
}

}  // namespace

std::pair<at::Tensor, at::Tensor> splitIndices(int64_t n, double val_fraction, uint64_t seed) {
  at::Generator gen = dataGenerator(static_cast<int64_t>(seed), kSplitStream);
  at::Tensor perm = at::randperm(n, gen, at::TensorOptions().dtype(at::kLong));
  int64_t n_val = static_cast<int64_t>(std::llround(static_cast<double>(n) * val_fraction));
  if (n >= 2) n_val = std::clamp<int64_t>(n_val, 1, n - 1);
  return {perm.narrow(0, n_val, n - n_val), perm.narrow(0, 0, n_val)};
}

std::pair<at::Tensor, at::Tensor> stratifiedSplitIndices(const at::Tensor& y, double val_fraction,
                                                         uint64_t seed) {
  at::Generator gen = dataGenerator(static_cast<int64_t>(seed), kSplitStream);
  const at::Tensor labels = y.to(at::kLong).contiguous();
  const int64_t n = labels.numel();
  const int64_t* p = labels.data_ptr<int64_t>();
  std::map<int64_t, std::vector<int64_t>> by_class;  // class order, samples in pool order
  for (int64_t i = 0; i < n; ++i) by_class[p[i]].push_back(i);
  std::vector<int64_t> train, val;
  for (auto& [cls, members] : by_class) {
    const int64_t nc = static_cast<int64_t>(members.size());
    const at::Tensor perm = at::randperm(nc, gen, at::TensorOptions().dtype(at::kLong));
    const int64_t* pp = perm.data_ptr<int64_t>();
    int64_t n_val = static_cast<int64_t>(std::llround(static_cast<double>(nc) * val_fraction));
    if (nc >= 2) n_val = std::clamp<int64_t>(n_val, 1, nc - 1);
    else n_val = 0;
    for (int64_t j = 0; j < nc; ++j) (j < n_val ? val : train).push_back(members[pp[j]]);
  }
  auto shuffled = [&](const std::vector<int64_t>& v) {
    const at::Tensor t = at::tensor(v, at::TensorOptions().dtype(at::kLong));
    if (t.numel() == 0) return t;
    return t.index_select(0, at::randperm(t.numel(), gen, at::TensorOptions().dtype(at::kLong)));
  };
  at::Tensor tr = shuffled(train);
  at::Tensor va = shuffled(val);
  return {tr, va};
}

PreparedData loadData(const DataConfig& c) {
  PreparedData out;
  const DataSourceKind& source = dataSource(c.source);
  SourceData loaded;
  try {
    source.load(c, loaded);
  } catch (const Error& e) {
    throw withDataKey(e, c);
  }
  TensorPair pool = std::move(loaded.pool);
  out.test = std::move(loaded.test);
  out.classification = loaded.classification.value_or(source.classification);
  const bool images = source.image_data || !loaded.image_shape.empty();
  const std::vector<std::string>& class_names = loaded.class_names;

  if (!out.classification && c.target_scale != 1.0) {
    pool.y = pool.y * c.target_scale;
    for (TensorPair* p : {&loaded.val, &out.test})
      if (p->size() > 0) p->y = p->y * c.target_scale;
  }
  // The source's sample number of each pool row, followed through the limit and the split
  // (undefined: row i is sample i, and the split's own indices are the sample numbers).
  at::Tensor rows = loaded.pool_rows;
  const auto sampleNumbers = [&](const at::Tensor& idx) {
    return rows.defined() ? rows.index_select(0, idx) : idx;
  };
  if (c.limit && *c.limit < pool.size()) {
    at::Generator gen = dataGenerator(c.seed, kLimitStream);
    at::Tensor idx = at::randperm(pool.size(), gen, at::TensorOptions().dtype(at::kLong));
    idx = idx.narrow(0, 0, *c.limit);
    pool = pool.take(idx);
    rows = sampleNumbers(idx);
  }
  const bool fixed_val = loaded.val.size() > 0;
  if (pool.size() < (fixed_val ? 1 : 2))
    throw Error(ErrorCode::Config, "data.limit",
                "need at least 2 samples to split, got " + std::to_string(pool.size()));
  if (fixed_val) {  // a validation file of its own: the whole pool trains
    out.train = std::move(pool);
    out.val = std::move(loaded.val);
    out.split.train =
        rows.defined() ? rows : at::arange(out.train.size(), at::TensorOptions().dtype(at::kLong));
  } else {
    if (c.stratify && !out.classification)
      throw Error(ErrorCode::Config, "data.stratify",
                  "data.stratify splits per class, but this data is a regression task");
    auto [train_idx, val_idx] = c.stratify
                                    ? stratifiedSplitIndices(pool.y, c.val_fraction, c.seed)
                                    : splitIndices(pool.size(), c.val_fraction, c.seed);
    auto [train, val] = splitRows(std::move(pool), train_idx, val_idx);
    out.train = std::move(train);
    out.val = std::move(val);
    out.split.train = sampleNumbers(train_idx);
    out.split.val = sampleNumbers(val_idx);
  }
  out.split.pool_file = loaded.pool_file;
  out.split.val_file = loaded.val_file;
  out.split.test_file = loaded.test_file;
  out.split.pool_names = std::move(loaded.pool_names);
  // What the run read, so that a later evaluate / resume / replay notices a changed file.
  out.summary.files = dataFilesOf(c, std::move(loaded.folders));
  out.notes = std::move(loaded.notes);

  Preprocessing& pre = out.summary.preprocessing;
  if (!out.classification) pre.target_scale = c.target_scale;
  if (out.train.x.scalar_type() == at::kByte) pre.pixel_scale = out.train.x_scale;
  if (c.source == "image-folder" && !c.image_folder.size.empty()) pre.resize = c.image_folder.resize;
  if (c.standardize && images) {
    // One mean/std per channel (Fashion-MNIST has one channel), in pixel units (0..255): the
    // per-batch conversion (x - offset) / scale is then ((x / 255) - mean) / std.
    const auto [mean, sd] = byteMeanStd(out.train);
    for (TensorPair* p : {&out.train, &out.val, &out.test}) {
      p->x_offset = mean;
      p->x_scale = sd / 255.0 < 1e-8 ? 255.0 : sd;  // a constant image keeps std 1 (of x / 255)
    }
    // One channel: per channel. RGB: one mean and std over all channels ("global").
    pre.standardize = loaded.image_shape.size() == 3 && loaded.image_shape[0] > 1 ? "global"
                                                                                 : "per_channel";
    pre.mean = {mean / 255.0};
    pre.std = {out.train.x_scale / 255.0};
  } else if (c.standardize && out.train.on_disk) {
    // A table on disk: statistics in one pass over the file (float64 sums), applied as rows
    // are read (the file is never copied).
    const at::Tensor mean = at::zeros({out.train.x[0].numel()}, at::kDouble);
    const at::Tensor sq = at::zeros_like(mean);
    forEachChunk(out.train, [&](const at::Tensor&, const at::Tensor& rows) {
      const at::Tensor d = rows.reshape({rows.size(0), -1}).to(at::kDouble);
      mean.add_(d.sum(0));
      sq.add_((d * d).sum(0));
    });
    const double n = static_cast<double>(out.train.size());
    mean.div_(n);
    at::Tensor std = (sq / n - mean * mean).clamp_min(0).sqrt();
    std = at::where(std < 1e-8, at::ones_like(std), std);
    const at::Tensor mean_f = mean.to(at::kFloat).unsqueeze(0), std_f = std.to(at::kFloat).unsqueeze(0);
    for (int64_t f = 0; f < mean_f.size(1); ++f) {
      pre.mean.push_back(mean_f[0][f].item<double>());
      pre.std.push_back(std_f[0][f].item<double>());
    }
    pre.standardize = "per_feature";
    for (TensorPair* p : {&out.train, &out.val, &out.test}) {
      p->feature_mean = mean_f;
      p->feature_std = std_f;
    }
  } else if (c.standardize) {  // per feature, population std (as sklearn's StandardScaler)
    // Over the flattened sample ([N, T, F] sequences: one value per time step and feature).
    const at::Tensor flat = out.train.x.reshape({out.train.size(), -1});
    at::Tensor mean = flat.mean(0, /*keepdim=*/true);
    at::Tensor std = flat.std(0, /*unbiased=*/false, /*keepdim=*/true);
    std = at::where(std < 1e-8, at::ones_like(std), std);
    for (int64_t f = 0; f < mean.size(1); ++f) {
      pre.mean.push_back(mean[0][f].item<double>());
      pre.std.push_back(std[0][f].item<double>());
    }
    pre.standardize = "per_feature";
    // In place where x is float32 of its own (views of one pool after the split): a second
    // copy of a large table would double the import's peak memory.
    for (TensorPair* p : {&out.train, &out.val, &out.test})
      if (p->size() > 0 && p->x.scalar_type() == at::kFloat && p->x.is_contiguous())
        p->x.view({p->size(), -1}).sub_(mean).div_(std);
      else if (p->size() > 0)
        p->x = ((p->x.reshape({p->size(), -1}) - mean) / std).reshape(p->x.sizes());
  }

  DataSummary& s = out.summary;
  s.source = c.source;
  s.task = out.classification ? "classification" : "regression";
  s.n_train = out.train.size();
  s.n_val = out.val.size();
  s.n_test = out.test.size();
  const at::IntArrayRef sample = out.train.x.sizes().slice(1);
  s.input_shape.assign(sample.begin(), sample.end());
  s.n_features = out.train.x[0].numel();
  s.image_shape = loaded.image_shape;
  s.x_dtype = out.train.x.scalar_type() == at::kByte ? "uint8" : "float32";
  s.n_classes = static_cast<int64_t>(class_names.size());
  s.outputs = out.classification ? s.n_classes : out.train.y.size(1);
  s.class_names = class_names;
  s.feature_names = std::move(loaded.feature_names);
  return out;
}

void applyPreprocessing(PreparedData& data, const Preprocessing& pre) {
  const bool bytes = data.train.x.scalar_type() == at::kByte;
  const int64_t features = data.summary.n_features;
  if (pre.standardize == "per_feature") {
    if (bytes || static_cast<int64_t>(pre.mean.size()) != features ||
        pre.std.size() != pre.mean.size())
      throw Error(ErrorCode::Data, "preprocessing",
                  "the recorded per-feature statistics (" + std::to_string(pre.mean.size()) +
                      " means) do not fit data of " + std::to_string(features) + " " +
                      (bytes ? "pixels" : "features"));
    // The recorded values are the float32 statistics of the run, widened: back to float32 they
    // are the same numbers, so inputs equal the run's bit for bit.
    at::Tensor mean = at::tensor(pre.mean, at::kDouble).to(at::kFloat).unsqueeze(0);
    at::Tensor std = at::tensor(pre.std, at::kDouble).to(at::kFloat).unsqueeze(0);
    for (TensorPair* p : {&data.train, &data.val, &data.test})
      if (p->on_disk && pre.pixel_scale == 1) {  // applied as rows are read
        p->feature_mean = mean;
        p->feature_std = std;
      } else if (p->size() > 0) {
        p->x = (p->x.reshape({p->size(), -1}).div(pre.pixel_scale) - mean).div(std).reshape(
            p->x.sizes());
      }
  } else if (pre.standardize == "per_channel" || pre.standardize == "global" ||
             pre.standardize == "none") {
    const bool standardized = pre.standardize != "none";
    if (standardized && (pre.mean.size() != 1 || pre.std.size() != 1))
      throw Error(ErrorCode::Data, "preprocessing",
                  "recorded per-channel statistics of " + std::to_string(pre.mean.size()) +
                      " channels; this build applies one value to all pixels");
    for (TensorPair* p : {&data.train, &data.val, &data.test}) {
      if (bytes) {
        p->x_offset = standardized ? pre.mean[0] * pre.pixel_scale : 0.0;
        p->x_scale = (standardized ? pre.std[0] : 1.0) * pre.pixel_scale;
      } else if (p->size() > 0 && pre.pixel_scale != 1) {
        p->x = p->x / pre.pixel_scale;
      }
    }
  } else {
    throw Error(ErrorCode::Data, "preprocessing",
                "unknown recorded standardize \"" + pre.standardize + "\"");
  }
  data.summary.preprocessing = pre;
}

at::Tensor TensorPair::toInputs(const at::Tensor& raw) const {
  if (feature_mean.defined())  // a table on disk, standardised as read
    return ((raw.reshape({raw.size(0), -1}) - feature_mean) / feature_std).reshape(raw.sizes());
  if (raw.scalar_type() != at::kByte) return raw;
  return raw.to(at::kFloat).sub_(x_offset).div_(x_scale);
}

at::Tensor TensorPair::raw(int64_t start, int64_t len) const {
  if (!on_disk) return x.narrow(0, start, len);
  return readFileRows(*on_disk, index.narrow(0, start, len), x.sizes().slice(1));
}

at::Tensor TensorPair::raw(const at::Tensor& idx) const {
  if (!on_disk) return x.index_select(0, idx);
  return readFileRows(*on_disk, index.index_select(0, idx.to(at::kCPU)), x.sizes().slice(1));
}

TensorPair TensorPair::take(const at::Tensor& idx) const {
  TensorPair out = *this;
  if (on_disk)
    out.index = index.index_select(0, idx);
  else
    out.x = x.index_select(0, idx);
  out.y = y.index_select(0, idx);
  return out;
}

int64_t TensorPair::residentBytes() const {
  if (size() == 0) return 0;
  return static_cast<int64_t>((on_disk ? index.nbytes() : x.nbytes()) + y.nbytes());
}

at::Tensor TensorPair::inputs(int64_t start, int64_t len) const {
  return toInputs(raw(start, len));
}

TensorPair TensorPair::rows(int64_t start, int64_t len) const {
  return {inputs(start, len), y.narrow(0, start, len)};
}

TensorPair TensorPair::select(const at::Tensor& idx) const {
  return {toInputs(raw(idx)), y.index_select(0, idx)};
}

BatchIterator::BatchIterator(const TensorPair& data, int64_t batch_size, bool shuffle,
                             bool drop_last)
    : data_(data), batch_size_(batch_size), shuffle_(shuffle), drop_last_(drop_last) {}

void BatchIterator::setShard(int64_t rank, int64_t world_size) {
  rank_ = rank;
  world_size_ = world_size;
}

void BatchIterator::setAugmentation(std::shared_ptr<const augment::Augmentation> aug,
                                    uint64_t seed) {
  if (aug && !aug->empty()) augment::requirePixels(data_.x);
  aug_ = aug && !aug->empty() ? std::move(aug) : nullptr;
  aug_seed_ = seed;
}

void BatchIterator::startEpoch(at::Generator& generator, int64_t epoch) {
  epoch_ = epoch;
  if (sample_weights_.defined() && data_.size() > 0)  // WeightedRandomSampler(replacement=True)
    order_ = at::multinomial(sample_weights_, data_.size(), /*replacement=*/true, generator);
  else if (shuffle_)
    order_ = at::randperm(data_.size(), generator, at::TensorOptions().dtype(at::kLong));
  if (world_size_ > 1 && data_.size() > 0)
    order_ = distributedSamplerIndices(
        shuffle_ ? order_ : at::arange(data_.size(), at::TensorOptions().dtype(at::kLong)), rank_,
        world_size_);
}

void BatchIterator::startEpoch(int64_t epoch) {
  if (shuffle_ || sample_weights_.defined())
    throw Error(ErrorCode::Internal, "",
                "BatchIterator::startEpoch(epoch): this iterator draws its order; give the "
                "shuffle generator");
  at::Generator none = at::detail::createCPUGenerator(0);  // not drawn from
  startEpoch(none, epoch);
}

int64_t BatchIterator::size() const {
  return world_size_ > 1 ? (data_.size() + world_size_ - 1) / world_size_ : data_.size();
}

int64_t BatchIterator::batchesPerEpoch() const {
  return trainscope::batchesPerEpoch(data_.size(), batch_size_, world_size_, drop_last_);
}

TensorPair BatchIterator::batch(int64_t i) const {
  int64_t start = i * batch_size_;
  int64_t len = std::min(batch_size_, size() - start);
  const bool ordered = !shuffle_ && world_size_ == 1 && !sample_weights_.defined();
  if (!aug_) return ordered ? data_.rows(start, len) : data_.select(order_.narrow(0, start, len));
  const at::Tensor idx = ordered ? at::Tensor() : order_.narrow(0, start, len);
  const at::Tensor raw = ordered ? data_.raw(start, len) : data_.raw(idx);
  const auto& shape = aug_->imageShape();
  // ToTensor, the transforms, Normalize(mean, std) with the split's standardisation:
  // x_offset = mean * 255, x_scale = std * 255.
  at::Tensor images = raw.to(at::kFloat).div_(255).reshape({len, shape[0], shape[1], shape[2]});
  at::Generator gen = augment::batchGenerator(aug_seed_, epoch_, rank_, i);
  at::Tensor x = aug_->batch(images, gen).sub_(data_.x_offset / 255).div_(data_.x_scale / 255);
  return {x.reshape(raw.sizes()),
          ordered ? data_.y.narrow(0, start, len) : data_.y.index_select(0, idx)};
}

}  // namespace trainscope

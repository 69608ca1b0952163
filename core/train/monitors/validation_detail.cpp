// The evaluation view's data: confusion matrix, worst samples, predicted against true values.
#include "core/train/monitors/validation_detail.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>

namespace trainscope {

ValidationDetailCollector::ValidationDetailCollector(const PreparedData& data, int64_t epoch,
                                                     bool samples)
    : data_(data), samples_(samples) {
  detail_.epoch = epoch;
  detail_.n_classes = data.classification ? data.summary.n_classes : 0;
  const int64_t k = detail_.n_classes;
  if (k > 0) {
    detail_.confusion.assign(static_cast<std::size_t>(k * k), 0);
    detail_.cells.resize(static_cast<std::size_t>(k * k));
    int64_t values = 1;
    for (int64_t d : data.summary.input_shape) values *= std::max<int64_t>(1, d);
    cell_limit_ = samples ? ValidationDetail::cellSampleLimit(k, values) : 0;
  }
}

void ValidationDetailCollector::add(int64_t start, const at::Tensor& out_in,
                                    const at::Tensor& y_in) {
  const at::Tensor out = out_in.detach().to(at::kFloat).cpu().contiguous();
  const at::Tensor y = y_in.detach().cpu().contiguous();
  const int64_t b = out.size(0);
  if (b == 0) return;
  if (detail_.n_classes == 0) {  // regression: the first output of the first kMaxPoints samples
    const int64_t room = ValidationDetail::kMaxPoints - static_cast<int64_t>(detail_.target.size());
    const int64_t take = std::min(room, b);
    if (take <= 0) return;
    const at::Tensor t = y.to(at::kFloat).reshape({b, -1}).select(1, 0).narrow(0, 0, take).contiguous();
    const at::Tensor p = out.reshape({b, -1}).select(1, 0).narrow(0, 0, take).contiguous();
    const double ts = data_.summary.preprocessing.target_scale;
    for (int64_t i = 0; i < take; ++i) {  // the loss compares scaled targets; show target units
      detail_.target.push_back(static_cast<float>(t.data_ptr<float>()[i] / ts));
      detail_.predicted.push_back(static_cast<float>(p.data_ptr<float>()[i] / ts));
    }
    return;
  }
  const int64_t k = detail_.n_classes;
  const at::Tensor logp = at::log_softmax(out, 1);
  const at::Tensor pred = out.argmax(1).contiguous();
  const at::Tensor loss = (-logp.gather(1, y.reshape({b, 1}))).reshape({b}).to(at::kDouble).contiguous();
  const int64_t* pt = y.data_ptr<int64_t>();
  const int64_t* pp = pred.data_ptr<int64_t>();
  const double* pl = loss.data_ptr<double>();
  // float32 softmax, as evaluate computes it (core/train/probes/evaluation.cpp): same scores
  const at::Tensor prob = at::softmax(out, 1).to(at::kDouble).contiguous();
  const double* pr = prob.data_ptr<double>();
  scores_.insert(scores_.end(), pr, pr + b * k);
  labels_.insert(labels_.end(), pt, pt + b);
  predicted_.insert(predicted_.end(), pp, pp + b);
  for (int64_t i = 0; i < b; ++i) {
    if (pt[i] < 0 || pt[i] >= k || pp[i] < 0 || pp[i] >= k) continue;
    ++detail_.confusion[pt[i] * k + pp[i]];
    std::vector<WorstSample>& cell = detail_.cells[static_cast<std::size_t>(pt[i] * k + pp[i])];
    if (static_cast<int64_t>(cell.size()) < cell_limit_) {
      WorstSample c;
      c.position = start + i;
      c.target = pt[i];
      c.predicted = pp[i];
      c.loss = pl[i];
      c.probability = pr[i * k + pt[i]];
      cell.push_back(std::move(c));
    }
  }
  if (!samples_) return;
  // Candidates of this chunk: its highest losses (a NaN loss counts as the worst).
  const int64_t keep = ValidationDetail::kWorstSamples;
  std::vector<std::pair<double, int64_t>> cand;
  cand.reserve(static_cast<std::size_t>(b));
  for (int64_t i = 0; i < b; ++i) {
    const double l = std::isnan(pl[i]) ? INFINITY : pl[i];
    cand.emplace_back(l, start + i);
  }
  auto worse = [](const std::pair<double, int64_t>& a, const std::pair<double, int64_t>& c) {
    return a.first != c.first ? a.first > c.first : a.second < c.second;
  };
  const auto mid = cand.begin() + std::min<int64_t>(keep, b);
  std::partial_sort(cand.begin(), mid, cand.end(), worse);
  for (auto it = cand.begin(); it != mid; ++it) {
    WorstSample w;
    const int64_t i = it->second - start;
    w.position = it->second;
    w.target = pt[i];
    w.predicted = pp[i];
    w.loss = pl[i];
    w.probability = pr[i * k + pt[i]];
    worst_.push_back(*it);
    worst_samples_.push_back(std::move(w));
  }
  // Keep the overall kWorstSamples.
  std::vector<std::size_t> order(worst_.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t c) { return worse(worst_[a], worst_[c]); });
  order.resize(std::min<std::size_t>(order.size(), static_cast<std::size_t>(keep)));
  std::vector<std::pair<double, int64_t>> w2;
  std::vector<WorstSample> s2;
  for (std::size_t i : order) {
    w2.push_back(worst_[i]);
    s2.push_back(std::move(worst_samples_[i]));
  }
  worst_ = std::move(w2);
  worst_samples_ = std::move(s2);
}

ValidationDetail ValidationDetailCollector::finish() {
  const at::Tensor& val_rows = data_.split.val;
  const auto fill = [&](WorstSample& w) {
    w.raw = rawValidationSample(data_, w.position);
    if (val_rows.defined() && w.position < val_rows.numel())
      w.sample = val_rows[w.position].item<int64_t>();
  };
  for (WorstSample& w : worst_samples_) fill(w);
  for (auto& cell : detail_.cells)
    for (WorstSample& w : cell) fill(w);
  detail_.worst = std::move(worst_samples_);
  worst_samples_.clear();
  worst_.clear();
  const int64_t k = detail_.n_classes;
  if (k > 0) {
    detail_.samples = static_cast<int64_t>(labels_.size());
    detail_.classes = classReports(scores_, labels_, predicted_, k, /*curves=*/true);
    for (ClassReport& r : detail_.classes)
      detail_.curves_thinned = thinCurves(r, ValidationDetail::kMaxCurvePoints) || detail_.curves_thinned;
    ThresholdCounts counts = thresholdCounts(scores_, labels_, k, ValidationDetail::kThresholds);
    detail_.tp_at = std::move(counts.tp);
    detail_.fp_at = std::move(counts.fp);
  }
  scores_.clear();
  labels_.clear();
  predicted_.clear();
  return detail_;
}

std::vector<float> rawValidationSample(const PreparedData& data, int64_t position) {
  const at::Tensor row = data.val.raw(position, 1).reshape({-1}).contiguous();
  std::vector<float> raw(static_cast<std::size_t>(row.numel()));
  if (row.scalar_type() == at::kByte) {  // pixels as stored
    const uint8_t* p = row.data_ptr<uint8_t>();
    for (std::size_t i = 0; i < raw.size(); ++i) raw[i] = p[i];
    return raw;
  }
  const at::Tensor f = row.to(at::kFloat).contiguous();
  const float* p = f.data_ptr<float>();
  const Preprocessing& pre = data.summary.preprocessing;
  const std::size_t nm = pre.mean.size(), ns = pre.std.size();
  for (std::size_t i = 0; i < raw.size(); ++i) {
    double v = p[i];
    if (pre.standardize != "none" && nm > 0 && ns > 0 && !data.val.on_disk) {  // on disk: as stored
      // per_feature: one statistic per value; per_channel / global: one per channel or one.
      const std::size_t j = nm == raw.size() ? i : (nm == 1 ? 0 : i * nm / raw.size());
      v = v * pre.std[std::min(j, ns - 1)] + pre.mean[std::min(j, nm - 1)];
    }
    raw[i] = static_cast<float>(v * pre.pixel_scale);
  }
  return raw;
}

}  // namespace trainscope

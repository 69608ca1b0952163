// The import report of a data config.
#include "core/data/data_report.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "core/config/kinds.h"
#include "core/config/train_config.h"
#include "core/data/csv_source.h"
#include "core/data/dataset.h"
#include "core/data/sources.h"
#include "core/system/number_format.h"
#include "core/system/memory.h"
#include "core/data/file_rows.h"

namespace trainscope {
namespace {

int64_t bytesOf(const TensorPair& p) { return p.residentBytes(); }  // on disk: y and index

/// FNV-1a over a sample's bytes: x's row, then y's.
uint64_t sampleHash(const uint8_t* x, int64_t xw, const uint8_t* y, int64_t yw) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (int64_t i = 0; i < xw; ++i) h = (h ^ x[i]) * 0x100000001b3ULL;
  for (int64_t i = 0; i < yw; ++i) h = (h ^ y[i]) * 0x100000001b3ULL;
  return h;
}

/// The sample hashes of a split, in position order, read in one pass (data on disk: the
/// duplicates and leakage checks cannot hold the file's rows in memory to compare them).
std::vector<uint64_t> sampleHashes(const TensorPair& p) {
  std::vector<uint64_t> out(static_cast<std::size_t>(p.size()));
  const at::Tensor y = p.y.to(at::kCPU).contiguous().reshape({p.size(), -1});
  const int64_t yw = y.size(1) * static_cast<int64_t>(y.element_size());
  const auto* yb = static_cast<const uint8_t*>(y.data_ptr());
  forEachChunk(p, [&](const at::Tensor& positions, const at::Tensor& rows) {
    const at::Tensor x = rows.contiguous().reshape({rows.size(0), -1});
    const int64_t xw = x.size(1) * static_cast<int64_t>(x.element_size());
    const auto* xb = static_cast<const uint8_t*>(x.data_ptr());
    const int64_t* pos = positions.data_ptr<int64_t>();
    for (int64_t k = 0; k < x.size(0); ++k)
      out[pos[k]] = sampleHash(xb + k * xw, xw, yb + pos[k] * yw, yw);
  });
  return out;
}

/// duplicates() for data on disk: samples compared by 64-bit hashes (a false match between
/// different samples has odds of about n^2 / 2^65).
std::pair<int64_t, int64_t> hashedDuplicates(const PreparedData& d) {
  std::vector<uint64_t> train = sampleHashes(d.train);
  std::sort(train.begin(), train.end());
  int64_t dup = 0, leaked = 0;
  for (std::size_t i = 1; i < train.size(); ++i) dup += train[i] == train[i - 1];
  if (d.val.size() > 0 && d.val.x[0].numel() == d.train.x[0].numel())
    for (uint64_t h : sampleHashes(d.val)) leaked += std::binary_search(train.begin(), train.end(), h);
  return {dup, leaked};
}

/// A split's samples as rows of bytes (x's, then y's), compared exactly (byte for byte).
struct SampleRows {
  at::Tensor x, y;
  const uint8_t* xb = nullptr;
  const uint8_t* yb = nullptr;
  int64_t xw = 0, yw = 0;

  explicit SampleRows(const TensorPair& p) {
    if (p.size() == 0) return;
    x = p.x.contiguous().reshape({p.size(), -1});
    y = p.y.contiguous().reshape({p.size(), -1});
    xb = static_cast<const uint8_t*>(x.data_ptr());
    yb = static_cast<const uint8_t*>(y.data_ptr());
    xw = x.size(1) * static_cast<int64_t>(x.element_size());
    yw = y.size(1) * static_cast<int64_t>(y.element_size());
  }
  /// memcmp-style order of sample i of this and sample j of `o` (same widths).
  int compare(int64_t i, const SampleRows& o, int64_t j) const {
    if (const int c = std::memcmp(xb + i * xw, o.xb + j * o.xw, static_cast<std::size_t>(xw)))
      return c;
    return std::memcmp(yb + i * yw, o.yb + j * o.yw, static_cast<std::size_t>(yw));
  }
};

/// Adds a warning: its English sentence and its facts.
void warn(DataReport& r, std::string text, ReportWarning facts) {
  r.warnings.push_back(std::move(text));
  r.warning_facts.push_back(std::move(facts));
}

void classCounts(const PreparedData& d, DataReport& r) {
  const auto& names = d.summary.class_names;
  r.classes.resize(names.size());
  for (size_t c = 0; c < names.size(); ++c) r.classes[c].name = names[c];
  auto count = [&](const TensorPair& p, int64_t ClassCount::*field) {
    if (p.size() == 0) return;
    const at::Tensor counts = at::bincount(p.y.to(at::kCPU), {}, names.size());
    for (size_t c = 0; c < names.size(); ++c) r.classes[c].*field = counts[c].item<int64_t>();
  };
  count(d.train, &ClassCount::train);
  count(d.val, &ClassCount::val);
  count(d.test, &ClassCount::test);
  int64_t lo = INT64_MAX, hi = 0;
  for (const ClassCount& c : r.classes) {
    lo = std::min(lo, c.train);
    hi = std::max(hi, c.train);
    if (c.train < kFewSamples)
      warn(r,
           "class \"" + c.name + "\" has " +
               (c.train == 0 ? std::string("no training samples")
                             : "only " + std::to_string(c.train) + " training sample" +
                                   (c.train == 1 ? "" : "s")),
           {"few_samples", c.name, c.train, 0});
    if (d.val.size() > 0 && c.val == 0 && c.train > 0)
      warn(r, "class \"" + c.name + "\" has no validation samples", {"no_val_samples", c.name, 0, 0});
  }
  if (lo > 0 && static_cast<double>(hi) / static_cast<double>(lo) > kImbalanceRatio)
    warn(r,
         "the classes are imbalanced " + formatSignificant(double(hi) / lo, 3) +
             ":1 (largest / smallest training class); accuracy favours the largest",
         {"imbalance", "", 0, double(hi) / lo});
}

/// {training samples repeating an earlier one, validation samples also in training}, by exact
/// bytes: the training samples sorted by their bytes (4 bytes per sample, no copy of a sample),
/// equal samples neighbours, a validation sample found by binary search.
std::pair<int64_t, int64_t> exactDuplicates(const PreparedData& d) {
  const int64_t n = d.train.size();
  const SampleRows train(d.train);
  std::vector<uint32_t> order(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) order[i] = static_cast<uint32_t>(i);
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return train.compare(a, train, b) < 0; });
  int64_t dup = 0;
  for (int64_t i = 1; i < n; ++i) dup += train.compare(order[i - 1], train, order[i]) == 0;
  int64_t leaked = 0;
  const SampleRows val(d.val);
  if (val.xw == train.xw && val.yw == train.yw)
    for (int64_t j = 0; j < d.val.size(); ++j) {
      const auto it = std::lower_bound(order.begin(), order.end(), j, [&](uint32_t a, int64_t v) {
        return train.compare(a, val, v) < 0;
      });
      leaked += it != order.end() && train.compare(*it, val, j) == 0;
    }
  return {dup, leaked};
}

void duplicates(const PreparedData& d, DataReport& r) {
  const int64_t n = d.train.size();
  if (n == 0 || n > int64_t{UINT32_MAX}) return;
  // data on disk: 64-bit hashes (its rows cannot be held to compare them)
  const auto [dup, leaked] = d.train.on_disk ? hashedDuplicates(d) : exactDuplicates(d);
  if (dup > 0)
    warn(r,
         std::to_string(dup) + (dup == 1 ? " training sample repeats" : " training samples repeat") +
             " an earlier one (same inputs and target)",
         {"duplicates", "", dup, 0});
  if (leaked > 0)
    warn(r,
         std::to_string(leaked) +
             (leaked == 1 ? " validation sample also occurs" : " validation samples also occur") +
             " in the training split (validation loss is then too optimistic)",
         {"leakage", "", leaked, 0});
}

void constantFeatures(const PreparedData& d, DataReport& r) {
  if (d.train.size() == 0 || d.train.x.scalar_type() != at::kFloat) return;
  at::Tensor lo, hi;  // per feature, in one pass (a table on disk is read in chunks)
  forEachChunk(d.train, [&](const at::Tensor&, const at::Tensor& rows) {
    const at::Tensor x = rows.reshape({rows.size(0), -1});
    const at::Tensor l = std::get<0>(x.min(0)), h = std::get<0>(x.max(0));
    lo = lo.defined() ? at::minimum(lo, l) : l;
    hi = hi.defined() ? at::maximum(hi, h) : h;
  });
  const at::Tensor same = hi == lo;
  const auto& names = d.summary.feature_names;
  std::vector<std::string> constant;
  for (int64_t f = 0; f < same.size(0); ++f)
    if (same[f].item<bool>())
      constant.push_back(f < static_cast<int64_t>(names.size()) ? "\"" + names[f] + "\""
                                                                : "feature " + std::to_string(f));
  if (constant.empty()) return;
  std::string list;
  for (size_t i = 0; i < constant.size() && i < 8; ++i) list += (i ? ", " : "") + constant[i];
  if (constant.size() > 8) list += ", ...";
  warn(r,
       std::to_string(constant.size()) + (constant.size() == 1 ? " feature is" : " features are") +
           " constant in the training split (" + list +
           (constant.size() == 1 ? "): it carries nothing" : "): they carry nothing"),
       {"constant_features", list, static_cast<int64_t>(constant.size()), 0});
}

void firstRows(const PreparedData& d, DataReport& r) {
  if (d.train.x.scalar_type() != at::kFloat || d.train.x.dim() != 2 || d.train.x.size(1) > 64)
    return;
  const int64_t n = std::min<int64_t>(5, d.train.size());
  for (int64_t i = 0; i < n; ++i) {
    std::vector<std::string> row;
    const at::Tensor x = d.train.inputs(i, 1)[0];
    for (int64_t f = 0; f < x.size(0); ++f) row.push_back(formatHuman(x[f].item<double>()));
    if (d.classification) {
      const int64_t c = d.train.y[i].item<int64_t>();
      row.push_back(c < static_cast<int64_t>(d.summary.class_names.size())
                        ? d.summary.class_names[c]
                        : std::to_string(c));
    } else {
      const at::Tensor y = d.train.y[i].reshape({-1});
      for (int64_t j = 0; j < y.size(0); ++j) row.push_back(formatHuman(y[j].item<double>()));
    }
    r.first_rows.push_back(std::move(row));
  }
}

void firstImages(const PreparedData& d, DataReport& r) {
  if (d.train.x.scalar_type() != at::kByte || d.summary.image_shape.size() != 3) return;
  const int64_t n = d.train.size();
  const int64_t classes = d.classification ? d.summary.n_classes : 1;
  std::vector<int64_t> taken(static_cast<std::size_t>(std::max<int64_t>(classes, 1)), 0);
  const at::Tensor y = d.classification ? d.train.y.contiguous() : at::Tensor();
  for (int64_t i = 0; i < n; ++i) {
    const int64_t c = d.classification ? y.data_ptr<int64_t>()[i] : -1;
    const std::size_t slot = static_cast<std::size_t>(std::max<int64_t>(c, 0));
    if (slot >= taken.size() || taken[slot] >= kImagesPerClass) continue;
    ++taken[slot];
    const at::Tensor row = d.train.raw(i, 1)[0].contiguous();
    const uint8_t* p = row.data_ptr<uint8_t>();
    r.first_images.emplace_back(c, std::vector<uint8_t>(p, p + row.numel()));
    if (static_cast<int64_t>(r.first_images.size()) >= classes * kImagesPerClass) break;
  }
  std::stable_sort(r.first_images.begin(), r.first_images.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

std::string join(const std::vector<int64_t>& v, const char* sep) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? sep : "") + std::to_string(v[i]);
  return s;
}

}  // namespace

DataReport dataReport(const DataConfig& config) {
  DataConfig raw = withAbsolutePaths(config);
  raw.standardize = false;  // the report shows and checks the values as the files hold them
  const PreparedData d = loadData(raw);
  DataReport r = dataWarnings(d);  // class counts, duplicates and leakage, constant features
  r.summary = d.summary;
  r.summary.preprocessing = {};
  const DataSourceKind& kind = dataSource(config.source);
  const auto& image = d.summary.image_shape;
  r.standardize = !config.standardize                       ? "none"
                  : image.size() == 3 && image[0] > 1       ? "global"
                  : kind.image_data || !image.empty()       ? "per_channel"
                                                            : "per_feature";
  r.files = d.split.pool_file;
  firstRows(d, r);
  firstImages(d, r);
  r.bytes = bytesOf(d.train) + bytesOf(d.val) + bytesOf(d.test);
  r.notes = d.notes;
  return r;
}

DataReport dataWarnings(const PreparedData& d) {
  DataReport r;
  if (d.classification) classCounts(d, r);
  duplicates(d, r);
  constantFeatures(d, r);
  return r;
}

nlohmann::json toJson(const DataReport& r) {
  const DataSummary& s = r.summary;
  nlohmann::json classes = nlohmann::json::array();
  for (const ClassCount& c : r.classes)
    classes.push_back({{"name", c.name}, {"train", c.train}, {"val", c.val}, {"test", c.test}});
  return {{"source", s.source},
          {"files", r.files.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.files)},
          {"task", s.task},
          {"n_train", s.n_train},
          {"n_val", s.n_val},
          {"n_test", s.n_test},
          {"input_shape", s.input_shape},
          {"image_shape", s.image_shape},
          {"x_dtype", s.x_dtype},
          {"outputs", s.outputs},
          {"n_classes", s.n_classes},
          {"classes", classes},
          {"feature_names", s.feature_names},
          {"standardize", r.standardize},
          {"first_rows", r.first_rows},
          {"bytes", r.bytes},
          {"warnings", r.warnings},
          {"notes", r.notes}};
}

std::string describe(const DataReport& r) {
  const DataSummary& s = r.summary;
  std::string out = "data: " + s.source + (r.files.empty() ? "" : " " + r.files) + "\n";
  out += "task: " + s.task +
         (s.task == "classification" ? ", " + std::to_string(s.n_classes) + " classes"
                                     : ", " + std::to_string(s.outputs) + " target" +
                                           (s.outputs == 1 ? "" : "s")) +
         "\n";
  out += "samples: train " + std::to_string(s.n_train) + ", val " + std::to_string(s.n_val) +
         ", test " + std::to_string(s.n_test) + "\n";
  out += "input: [" + join(s.input_shape, ", ") + "] " + s.x_dtype;
  if (!s.image_shape.empty()) out += " (images " + join(s.image_shape, "x") + ", C x H x W)";
  out += "\n";
  if (!s.feature_names.empty()) {
    std::string names;
    for (size_t i = 0; i < s.feature_names.size(); ++i)
      names += (i ? ", " : "") + s.feature_names[i];
    out += "features: " + names + "\n";
  }
  out += "standardize: " + r.standardize + " (statistics of the training split)\n";
  out += "memory: " + formatBytes(r.bytes) + "\n";
  if (!r.classes.empty()) {
    int64_t most = 1;
    size_t width = 5;
    for (const ClassCount& c : r.classes) {
      most = std::max(most, c.train);
      width = std::max(width, c.name.size());
    }
    out += "classes (train / val / test):\n";
    for (const ClassCount& c : r.classes) {
      std::string name = c.name;
      name.resize(std::min<size_t>(width, 30), ' ');
      const int64_t bar = (c.train * 30 + most - 1) / most;
      out += "  " + name + " " + std::to_string(c.train) + " / " + std::to_string(c.val) +
             " / " + std::to_string(c.test) + "  " + std::string(bar, '#') + "\n";
    }
  }
  if (!r.first_rows.empty()) {
    out += "first training rows (raw";
    out += s.feature_names.empty() ? "" : "; features, then the target";
    out += "):\n";
    for (const auto& row : r.first_rows) {
      std::string line;
      for (size_t i = 0; i < row.size(); ++i) line += (i ? ", " : "") + row[i];
      out += "  " + line + "\n";
    }
  }
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  for (const std::string& w : r.warnings) out += "warning: " + w + "\n";
  if (r.warnings.empty()) out += "warnings: none\n";
  return out;
}

}  // namespace trainscope

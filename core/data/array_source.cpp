// Arrays of inputs and targets to a SourceData (npy and idx sources).
#include "core/data/array_source.h"

#include <ATen/ATen.h>

#include <algorithm>

#include "core/data/file_rows.h"
#include "core/data/sources.h"
#include "core/errors.h"
#include "core/system/number_format.h"

namespace trainscope {
namespace {

[[noreturn]] void failArray(const std::string& file, const std::string& problem) {
  throw Error(ErrorCode::Data, file, problem);
}

std::string numpyShapeText(at::IntArrayRef s) {
  std::string t = "(";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + (s.size() == 1 ? ",)" : ")");
}

/// Whether the labels can be classes: an integer or bool dtype.
bool integerDtype(const at::Tensor& t) {
  return !at::isFloatingType(t.scalar_type());
}

/// Checks shapes and values of one split; returns x as the model-ready storage.
TensorPair convert(const ArraySplit& a, bool classification, const std::vector<double>& classes,
                   std::vector<int64_t>& image_shape) {
  const std::string xs = a.x_name + " " + numpyShapeText(a.x.sizes());
  if (a.x.dim() < 2)
    failArray(a.file, a.x_name + " has shape " + numpyShapeText(a.x.sizes()) +
                     ": inputs need a sample axis first and at least one more, e.g. (N, F)");
  if (a.y.dim() < 1 || a.y.size(0) != a.x.size(0))
    failArray(a.file, a.y_name + " has shape " + numpyShapeText(a.y.sizes()) + " but " + xs + " has " +
                     std::to_string(a.x.size(0)) + " samples: both need the same first axis");
  if (a.x.size(0) == 0) failArray(a.file, xs + " holds no sample");
  TensorPair out;
  const int64_t n = a.x.size(0);
  const bool images = a.x.scalar_type() == at::kByte &&
                      (a.x.dim() == 3 || (a.x.dim() == 4 && (a.x.size(1) == 1 || a.x.size(1) == 3 ||
                                                             a.x.size(1) == 4)));
  if (a.on_disk) {  // rows read as batches ask for them; a table's values checked in one pass
    const std::vector<int64_t> sample = images ? std::vector<int64_t>{a.x[0].numel()}
                                               : a.x.sizes().slice(1).vec();
    out = fileRowsSplit(a.on_disk, sample);
    if (images) {
      image_shape = a.x.dim() == 3 ? std::vector<int64_t>{1, a.x.size(1), a.x.size(2)}
                                   : std::vector<int64_t>{a.x.size(1), a.x.size(2), a.x.size(3)};
      out.x_scale = 255.0;
    } else {
      forEachChunk(out, [&](const at::Tensor& positions, const at::Tensor& rows) {
        const at::Tensor bad = (~at::isfinite(rows.reshape({rows.size(0), -1})).all(1)).nonzero();
        if (bad.numel() > 0)
          failArray(a.file, a.x_name + " holds a non-finite value (nan or inf) in sample " +
                                std::to_string(positions[bad[0][0].item<int64_t>()].item<int64_t>()));
      });
    }
  } else if (images) {
    std::vector<int64_t> shape = a.x.dim() == 3
                                     ? std::vector<int64_t>{1, a.x.size(1), a.x.size(2)}
                                     : std::vector<int64_t>{a.x.size(1), a.x.size(2), a.x.size(3)};
    if (!image_shape.empty() && image_shape != shape)
      failArray(a.file, xs + " holds images of another size than the training images");
    image_shape = shape;
    out.x = a.x.reshape({n, -1}).contiguous();
    out.x_scale = 255.0;
  } else {
    out.x = a.x.to(at::kFloat).contiguous();
    const at::Tensor bad = (~at::isfinite(out.x)).reshape({-1}).nonzero();
    if (bad.numel() > 0) {
      const int64_t flat = bad[0][0].item<int64_t>();
      failArray(a.file, a.x_name + " holds a non-finite value (nan or inf) in sample " +
                       std::to_string(flat / (out.x.numel() / n)));
    }
  }
  if (classification) {
    at::Tensor y = a.y;
    if (y.dim() == 2 && y.size(1) == 1) y = y.reshape({n});
    if (y.dim() != 1)
      failArray(a.file, a.y_name + " has shape " + numpyShapeText(a.y.sizes()) +
                       ": class labels need shape (N,) or (N, 1)");
    const at::Tensor yd = y.to(at::kDouble).contiguous();
    const double* p = yd.data_ptr<double>();
    at::Tensor idx = at::empty({n}, at::kLong);
    int64_t* pi = idx.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) {
      const auto it = std::lower_bound(classes.begin(), classes.end(), p[i]);
      if (it == classes.end() || *it != p[i])
        failArray(a.file, a.y_name + "[" + std::to_string(i) + "] is " + formatNumber(p[i]) +
                         ", a class the training labels do not have");
      pi[i] = it - classes.begin();
    }
    out.y = idx;
  } else {
    at::Tensor y = a.y.to(at::kFloat);
    if (y.dim() == 1) y = y.reshape({n, 1});
    if (y.dim() != 2)
      failArray(a.file, a.y_name + " has shape " + numpyShapeText(a.y.sizes()) +
                       ": regression targets need shape (N,) or (N, K)");
    if (!at::isfinite(y).all().item<bool>())
      failArray(a.file, a.y_name + " holds a non-finite target (nan or inf)");
    out.y = y.contiguous();
  }
  return out;
}

}  // namespace

void arraysToSource(const ArraySplit& train, const std::optional<ArraySplit>& val,
                    const std::optional<ArraySplit>& test, const std::string& task,
                    const std::string& task_key, SourceData& out) {
  const std::string& path = train.file;
  if (train.x.dim() < 1 || train.y.dim() < 1 || train.x.size(0) != train.y.size(0))
    failArray(path, train.y_name + " has shape " + numpyShapeText(train.y.sizes()) + " but " +
                   train.x_name + " has shape " + numpyShapeText(train.x.sizes()) +
                   ": both need the same number of samples along their first axis");
  if (train.x.size(0) == 0) failArray(path, train.x_name + " holds no sample");
  // The task, and the classes from the training labels.
  const at::Tensor& y = train.y;
  bool classification = task == "classification" || (task == "auto" && integerDtype(y));
  std::vector<double> classes;
  if (classification) {
    const at::Tensor yd = y.to(at::kDouble).reshape({-1});
    if (!at::isfinite(yd).all().item<bool>() || !(yd == at::floor(yd)).all().item<bool>())
      failArray(path, train.y_name + " holds fractional or non-finite labels; classification needs "
                                "whole numbers (set " + task_key + "=regression for real targets)");
    const at::Tensor uniq = std::get<0>(at::_unique(yd, /*sorted=*/true));
    const at::Tensor u = uniq.contiguous();
    classes.assign(u.data_ptr<double>(), u.data_ptr<double>() + u.numel());
    if (classes.size() < 2)
      failArray(path, train.y_name + " is constant (one class): classification needs at least 2");
    for (double v : classes) out.class_names.push_back(std::to_string(static_cast<int64_t>(v)));
  }
  out.pool = convert(train, classification, classes, out.image_shape);
  if (!classification) {
    const at::Tensor yf = out.pool.y;
    if ((yf == yf[0]).all().item<bool>())
      failArray(path, train.y_name + " is constant: there is nothing to learn");
  }
  const auto sample = out.pool.x.sizes().slice(1);
  for (auto [split, dst, file] : {std::tuple{&val, &out.val, &out.val_file},
                                  std::tuple{&test, &out.test, &out.test_file}}) {
    if (!*split) continue;
    *dst = convert(**split, classification, classes, out.image_shape);
    if (dst->x.sizes().slice(1) != sample || dst->x.scalar_type() != out.pool.x.scalar_type() ||
        dst->y.sizes().slice(1) != out.pool.y.sizes().slice(1))
      failArray(path, (*split)->x_name + " " + numpyShapeText((*split)->x.sizes()) +
                     " does not match the training arrays' sample shape " +
                     numpyShapeText(train.x.sizes()));
    *file = path;
  }
  out.pool_file = path;
  out.classification = classification;
}

}  // namespace trainscope

#include "gui/model/run_history.h"

#include <algorithm>
#include <atomic>
#include <cmath>

namespace trainscope {

BoundedSeries::BoundedSeries(std::size_t budget) : budget_(std::max<std::size_t>(budget, 16)) {
  points_.reserve(std::min<std::size_t>(budget_, 1024));
}

void BoundedSeries::append(double x, double y) {
  points_.push_back({x, y});
  ++appended_;
  if (points_.size() > budget_) fold();
}

void BoundedSeries::clear() {
  points_.clear();
  folded_ = 0;
  appended_ = 0;
  ++revision_;
}

void BoundedSeries::dropAfter(double x) {
  // Folded bucket extremes are in step order too: the first point after x starts the tail.
  auto it =
      std::find_if(points_.begin(), points_.end(), [x](const SeriesPoint& p) { return p.x > x; });
  if (it == points_.end()) return;
  points_.erase(it, points_.end());
  folded_ = std::min(folded_, points_.size());
  ++revision_;
}

void BoundedSeries::fold() {
  // Everything but the newest budget/2 points goes into budget/8 buckets of equal step width,
  // each kept as its min and max point (in step order), plus the first point: at most
  // budget/4 + 1 points. After a fold
  // the series holds at most 3/4 of its budget, so folds happen once per budget/4 appends and
  // cost O(1) per appended point on average.
  const std::size_t keep = budget_ / 2;
  const std::size_t cut = points_.size() - keep;
  const std::size_t buckets = std::max<std::size_t>(1, budget_ / 8);
  const double x0 = points_.front().x;
  const double width = (points_[cut].x - x0) / static_cast<double>(buckets);

  std::vector<SeriesPoint> out;
  out.reserve(2 * buckets + 1 + keep + budget_ / 4);
  out.push_back(points_.front());
  std::size_t current = 0;
  std::size_t lo = 0, hi = 0;  // indices of the current bucket's min and max points
  bool open = false;
  auto close = [&] {
    if (!open) return;
    for (std::size_t i : {std::min(lo, hi), std::max(lo, hi)}) {
      // The very first point always stays (the series keeps spanning its first step).
      if (out.empty() || points_[i].x != out.back().x) out.push_back(points_[i]);
    }
  };
  for (std::size_t i = 0; i < cut; ++i) {
    const double x = points_[i].x;
    std::size_t b = 0;
    if (width > 0) {
      b = static_cast<std::size_t>(std::max(0.0, std::floor((x - x0) / width)));
      b = std::min(b, buckets - 1);
    }
    if (!open || b != current) {
      close();
      open = true;
      current = b;
      lo = hi = i;
    } else {
      if (points_[i].y < points_[lo].y) lo = i;
      if (points_[i].y > points_[hi].y) hi = i;
    }
  }
  close();
  folded_ = out.size();
  out.insert(out.end(), points_.begin() + static_cast<std::ptrdiff_t>(cut), points_.end());
  points_.swap(out);
  ++revision_;
}

Series::Series(std::size_t budget)
    : values_(budget),
      markers_{BoundedSeries(budget), BoundedSeries(budget), BoundedSeries(budget)} {}

void Series::append(double x, double y) {
  if (std::isfinite(y)) {
    values_.append(x, y);
  } else if (std::isnan(y)) {
    markers_[static_cast<int>(NonFiniteKind::NaN)].append(x, 0);
  } else {
    markers_[static_cast<int>(y > 0 ? NonFiniteKind::PosInf : NonFiniteKind::NegInf)].append(x, 0);
  }
}

void Series::clear() {
  values_.clear();
  for (auto& m : markers_) m.clear();
}

void Series::dropAfter(double x) {
  values_.dropAfter(x);
  for (auto& m : markers_) m.dropAfter(x);
}

std::uint64_t Series::nonFiniteCount() const {
  std::uint64_t n = 0;
  for (const auto& m : markers_) n += m.appended();
  return n;
}

bool Series::empty() const {
  if (!values_.empty()) return false;
  for (const auto& m : markers_)
    if (!m.empty()) return false;
  return true;
}

bool Series::xRange(double* lo, double* hi) const {
  bool any = false;
  auto take = [&](const BoundedSeries& s) {
    if (s.empty()) return;
    // Points arrive in increasing x, and folding keeps the first and last of each bucket
    // region's extremes in order: the front and back are the extremes of x.
    const double a = s.points().front().x, b = s.points().back().x;
    if (!any) {
      *lo = a;
      *hi = b;
      any = true;
    } else {
      *lo = std::min(*lo, a);
      *hi = std::max(*hi, b);
    }
  };
  take(values_);
  for (const auto& m : markers_) take(m);
  return any;
}

bool Series::yRange(double* lo, double* hi, bool positiveOnly) const {
  RangeCache& c = range_cache_[positiveOnly ? 1 : 0];
  const auto& pts = values_.points();
  if (c.revision != values_.revision() || c.scanned > pts.size()) c = RangeCache{values_.revision()};
  for (std::size_t i = c.scanned; i < pts.size(); ++i) {
    const double y = pts[i].y;
    if (positiveOnly && !(y > 0)) continue;
    if (!c.any) {
      c.lo = c.hi = y;
      c.any = true;
    } else {
      c.lo = std::min(c.lo, y);
      c.hi = std::max(c.hi, y);
    }
  }
  c.scanned = pts.size();
  if (c.any) {
    *lo = c.lo;
    *hi = c.hi;
  }
  return c.any;
}

namespace series {
std::string layerGradNorm(const std::string& parameter) {
  return "layer/" + parameter + "/grad_norm";
}
std::string layerUpdateRatio(const std::string& parameter) {
  return "layer/" + parameter + "/update_ratio";
}
}  // namespace series

std::uint64_t RunHistory::newGeneration() {
  static std::atomic<std::uint64_t> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

RunHistory::RunHistory(std::size_t budget) : budget_(budget), generation_(newGeneration()) {}

void RunHistory::append(const std::string& name, double x, double y) {
  auto it = series_.find(name);
  if (it == series_.end()) it = series_.emplace(name, Series(budget_)).first;
  it->second.append(x, y);
  ++append_count_;
}

const Series* RunHistory::find(const std::string& name) const {
  auto it = series_.find(name);
  return it == series_.end() ? nullptr : &it->second;
}

void RunHistory::clear() {
  series_.clear();
  generation_ = newGeneration();
  ++append_count_;
}

void RunHistory::erase(const std::string& name) {
  if (series_.erase(name) == 0) return;
  generation_ = newGeneration();
  ++append_count_;
}

void RunHistory::dropAfter(double step) {
  for (auto& entry : series_) entry.second.dropAfter(step);
  generation_ = newGeneration();
  ++append_count_;
}

void RunHistory::swap(RunHistory& other) {
  std::swap(budget_, other.budget_);
  series_.swap(other.series_);
  generation_ = newGeneration();
  other.generation_ = newGeneration();
  ++append_count_;
  ++other.append_count_;
}

bool RunHistory::stepRange(double* lo, double* hi) const {
  bool any = false;
  for (const auto& entry : series_) {
    const Series& s = entry.second;
    double a = 0, b = 0;
    if (!s.xRange(&a, &b)) continue;
    if (!any) {
      *lo = a;
      *hi = b;
      any = true;
    } else {
      *lo = std::min(*lo, a);
      *hi = std::max(*hi, b);
    }
  }
  return any;
}

}  // namespace trainscope

#pragma once
/// The GUI's record of a run: named series of (step, value) points with bounded memory.
/// Plain C++ (no Qt), so it is cheap to test and to feed at any step rate.
#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace trainscope {

/// One (x, y) point: x is the global step (the x axis of every plot), y the value.
struct SeriesPoint {
  double x = 0;
  double y = 0;
};

/// Points of one quantity with bounded memory. Every point is kept until the series holds
/// `budget` points; then the older points (all but the newest budget/2) are folded into at most
/// budget/8 buckets of equal step width, each kept as its minimum and maximum point (and the
/// first point stays, so the series always spans its first step). So a spike
/// (one huge gradient norm) stays visible, the global minimum and maximum are never lost, the
/// newest budget/2 points are always exact, and memory never exceeds `budget` points whatever
/// the run length. Points must arrive in increasing x.
class BoundedSeries {
 public:
  /// `budget`: the most points kept (at least 16).
  explicit BoundedSeries(std::size_t budget = kDefaultBudget);

  static constexpr std::size_t kDefaultBudget = 20000;

  void append(double x, double y);
  void clear();
  /// Forgets the points with x > `x` (a roll-back: the steps after it are trained again).
  void dropAfter(double x);

  const std::vector<SeriesPoint>& points() const { return points_; }
  std::size_t size() const { return points_.size(); }
  bool empty() const { return points_.empty(); }
  std::size_t budget() const { return budget_; }
  /// Bumped whenever stored points were folded (a consumer that copied points must recopy).
  std::uint64_t revision() const { return revision_; }
  /// Points appended in total (folded ones included).
  std::uint64_t appended() const { return appended_; }
  /// Points at the front that are bucket extremes rather than exact points.
  std::size_t foldedCount() const { return folded_; }

 private:
  void fold();

  std::size_t budget_;
  std::vector<SeriesPoint> points_;
  std::size_t folded_ = 0;
  std::uint64_t revision_ = 0;
  std::uint64_t appended_ = 0;
};

/// The three kinds of non-finite value, drawn as distinct markers on a plot's top edge.
enum class NonFiniteKind { NaN = 0, PosInf = 1, NegInf = 2 };
inline constexpr int kNonFiniteKinds = 3;

/// A quantity over steps: finite values in one bounded series, and the steps at which the value
/// was nan, +inf or -inf in three more (their y is 0). Non-finite values never enter the finite
/// series, so they cannot stretch an axis.
class Series {
 public:
  explicit Series(std::size_t budget = BoundedSeries::kDefaultBudget);
  /// Routes `y` to the finite series or to the marker series of its kind.
  void append(double x, double y);
  void clear();
  /// Forgets the values and markers with x > `x`.
  void dropAfter(double x);

  const BoundedSeries& values() const { return values_; }
  const BoundedSeries& markers(NonFiniteKind kind) const {
    return markers_[static_cast<int>(kind)];
  }
  /// Non-finite values appended in total.
  std::uint64_t nonFiniteCount() const;
  bool empty() const;
  /// Smallest and largest x of finite values and markers; false when empty.
  bool xRange(double* lo, double* hi) const;
  /// Smallest and largest finite y (only y > 0 when `positiveOnly`, for log axes); false when
  /// there is none. Scans only the points appended since the last call (all of them again
  /// after a fold, clear or roll-back): a plot asks at every sync.
  bool yRange(double* lo, double* hi, bool positiveOnly = false) const;

 private:
  /// yRange's running result over values_.points()[0, scanned) at `revision`.
  struct RangeCache {
    std::uint64_t revision = ~std::uint64_t{0};
    std::size_t scanned = 0;
    bool any = false;
    double lo = 0, hi = 0;
  };
  mutable std::array<RangeCache, 2> range_cache_;  ///< [positiveOnly]
  BoundedSeries values_;
  std::array<BoundedSeries, kNonFiniteKinds> markers_;
};

/// Names of the series the GUI records (PlotJuggler-style name-keyed data: plots, exports and
/// later checkpoint redraws bind to these names).
namespace series {
inline constexpr const char* kStepLoss = "step/loss";
inline constexpr const char* kStepGradNorm = "step/grad_norm";
inline constexpr const char* kStepGradNormClipped = "step/grad_norm_clipped";
inline constexpr const char* kStepMaxNorm = "step/max_norm";  ///< only while clipping is on
inline constexpr const char* kStepLr = "step/lr";
inline constexpr const char* kStepLossScale = "step/loss_scale";  ///< only with AMP
/// Steps the GradScaler skipped (inf/NaN gradients at a finite loss; y = the scale they used).
inline constexpr const char* kStepScalerSkipped = "step/scaler_skipped";
/// Steps whose gradients clipping scaled down (y = the norm before clipping).
inline constexpr const char* kStepClipped = "step/clipped";
inline constexpr const char* kEpochTrainLoss = "epoch/train_loss";
inline constexpr const char* kEpochValLoss = "epoch/val_loss";
inline constexpr const char* kEpochValAccuracy = "epoch/val_accuracy";
inline constexpr const char* kEpochLr = "epoch/lr";
inline constexpr const char* kEpochTrainAccuracy = "epoch/train_accuracy";
/// The epoch's number, its training and validation time (s, pauses left out) and its training
/// rate, at the step it ended (what the runs overlay's epoch, time and rate views read).
inline constexpr const char* kEpochNumber = "epoch/epoch";
inline constexpr const char* kEpochSeconds = "epoch/epoch_seconds";
inline constexpr const char* kEpochSamplesPerSecond = "epoch/samples_per_second";
/// Per-layer gradient norm series: "layer/<parameter name>/grad_norm".
std::string layerGradNorm(const std::string& parameter);
/// Per-layer update-to-weight ratio series (a plain ratio): "layer/<parameter name>/update_ratio".
std::string layerUpdateRatio(const std::string& parameter);
}  // namespace series

/// Keys of the runs a plot draws from: a plot binds (run, series) pairs (LivePlot::setRun),
/// each run its own RunHistory.
namespace runs {
/// The run the window shows: the live one, a resumed one or one read back from its folder.
inline constexpr const char* kShown = "";
/// The run shown before it, drawn faint under a new run on the same data (the "ghost").
inline constexpr const char* kPrevious = "previous";
/// Runs held beside them (RunStore::holdRun): the runs overlay's, later a sweep's trials.
inline std::string overlay(int i) { return "overlay/" + std::to_string(i); }
}  // namespace runs

/// All series of one run, by name. GUI thread only.
class RunHistory {
 public:
  explicit RunHistory(std::size_t budget = BoundedSeries::kDefaultBudget);

  /// Appends to the series `name`, creating it on first use.
  void append(const std::string& name, double x, double y);
  /// The series, or nullptr when nothing was appended to it.
  const Series* find(const std::string& name) const;
  /// Forgets every series (a new run starts).
  void clear();
  /// Forgets the series `name` (no-op when absent); plots copy everything again.
  void erase(const std::string& name);
  /// A roll-back to the snapshot at `step` (EventKind::RolledBack): forgets every point after
  /// it, so the steps trained again redraw in place; plots copy everything again.
  void dropAfter(double step);
  /// Exchanges the runs held by this history and `other` (the shown run becomes the previous
  /// one); both get a new generation, so plots bound to either copy everything again.
  void swap(RunHistory& other);
  /// Smallest and largest step over every series; false when there is none.
  bool stepRange(double* lo, double* hi) const;
  /// True when no series holds a point.
  bool empty() const { return series_.empty(); }
  std::size_t budget() const { return budget_; }
  /// Changed by clear(), erase(), dropAfter() and swap(): plots that copied points must start
  /// over. Unique across every history of the process, so a plot bound to a history whose
  /// contents were swapped in never mistakes them for what it copied.
  std::uint64_t generation() const { return generation_; }
  /// Values appended since the history was created (a cheap "anything new?" check).
  std::uint64_t appendCount() const { return append_count_; }

 private:
  std::size_t budget_;
  std::map<std::string, Series> series_;
  /// A generation no history has had yet.
  static std::uint64_t newGeneration();

  std::uint64_t generation_;
  std::uint64_t append_count_ = 0;
};

}  // namespace trainscope

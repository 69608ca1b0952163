#pragma once
/// The "Distributions" bottom tab (issue 49 §4): one layer's weights, gradients or activations
/// as percentile bands over steps, the way TensorBoard's Distributions dashboard draws them,
/// with a sentence a student can read and the dead-ReLU share of each ReLU layer.
#include <QWidget>
#include <array>
#include <map>
#include <vector>

#include "core/run/distribution_records.h"

class QCPGraph;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace trainscope {

/// Keeps every DistributionRecord of the shown run (thinned to every other reading past
/// kMaxReadings per series) and draws the chosen series (objectName `distributionsView`; the
/// plot `distributionsPlot`): bands 0-100, 7-93, 16-84 and 31-69 % of the values, darker
/// inwards, the median as a line, x = global step. The caption names the newest reading.
class DistributionsView : public QWidget {
  Q_OBJECT
 public:
  enum class What { Weights = 0, Gradients = 1, Activations = 2 };
  static constexpr int kMaxReadings = 2000;

  explicit DistributionsView(QWidget* parent = nullptr);
  /// A new run: forgets the readings.
  void clear();
  /// The shown run takes no readings (training.distributions_every 0): the caption says so.
  void setOff(bool off);
  void addRecord(const DistributionRecord& r);
  /// Shows `name` of `what` (a name the records carry; unknown names are ignored).
  void choose(What what, const QString& name);
  void retranslate();
  /// The sentence under the plot for the chosen series' newest reading (empty without one).
  QString caption() const;
  /// "1 ReLU 3%, 3 ReLU 41%": the newest reading's dead shares (empty without ReLU layers).
  QString deadSummary() const;
  /// Readings kept for the chosen series.
  int readings() const;
  /// The chosen series: steps and percentiles (kDistributionPercentiles order) per reading.
  const std::vector<double>& steps() const;
  const std::vector<std::array<double, 11>>& percentiles() const;
  QCustomPlot* plot() const { return plot_; }

 protected:
  void changeEvent(QEvent* e) override;
  bool eventFilter(QObject* watched, QEvent* e) override;
  void showEvent(QShowEvent* e) override;

 private:
  struct Series {
    std::vector<double> steps;
    std::vector<std::array<double, 11>> percentiles;
    std::vector<double> dead;  ///< dead share per reading (NaN: not a ReLU)
    int64_t samples = 0;       ///< activations: validation samples of the newest reading
  };
  using Key = std::pair<int, std::string>;  ///< (What, tensor name)
  void add(What what, const std::vector<TensorDistribution>& tensors, int64_t step,
           int64_t samples);
  void fillNames();
  void draw();
  const Series* chosen() const;
  What what() const;
  std::map<Key, Series> series_;
  std::vector<std::string> activation_names_;  ///< the newest reading's, in layer order
  std::array<std::vector<std::string>, 3> names_;  ///< per What, in model order
  bool stale_ = false;
  bool off_ = false;
  QComboBox* what_;
  QComboBox* name_;
  QLabel* caption_;
  QCustomPlot* plot_;
  std::array<QCPGraph*, 8> bands_{};  ///< lower and upper graph of each band, outer first
  QCPGraph* median_ = nullptr;
};

}  // namespace trainscope

#pragma once
/// The confusion matrix of the evaluation view, painted (objectName `confusionMatrix`).
#include <QStringList>
#include <QWidget>
#include <cstdint>
#include <utility>
#include <vector>

namespace trainscope {

/// Rows true classes, columns predicted (sklearn.metrics.confusion_matrix's layout), each cell
/// shaded by its share of its row, counts written where they fit, a tooltip per cell; a click
/// on a cell selects it (outlined) and emits cellClicked.
class ConfusionMatrixWidget : public QWidget {
  Q_OBJECT
 public:
  explicit ConfusionMatrixWidget(QWidget* parent);
  /// `counts` [n * n] row-major (counts[t * n + p]); `names` the row labels. Keeps the
  /// selected cell when n is unchanged.
  void set(std::vector<int64_t> counts, int n, QStringList names);
  int64_t count(int t, int p) const { return counts_[static_cast<std::size_t>(t * n_ + p)]; }
  const QStringList& names() const { return names_; }
  int64_t rowTotal(int t) const;
  /// The selected cell (true, predicted), or (-1, -1).
  std::pair<int, int> selected() const { return selected_; }
  void select(int t, int p);
  /// The cell's rectangle in widget coordinates (for tests clicking it); empty outside.
  QRect cellRect(int t, int p);

 Q_SIGNALS:
  void cellClicked(int true_class, int predicted_class);

 protected:
  bool event(QEvent* e) override;
  void paintEvent(QPaintEvent*) override;
  void mousePressEvent(QMouseEvent* e) override;

 private:
  void layoutCells();
  std::pair<int, int> cellAt(const QPoint& pos);

  std::vector<int64_t> counts_;
  int n_ = 0;
  QStringList names_;
  QRect grid_;
  int cell_w_ = 1, cell_h_ = 1;
  std::pair<int, int> selected_{-1, -1};
};

}  // namespace trainscope

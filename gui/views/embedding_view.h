#pragma once
/// The "Embedding" side tab (issue 49 §2): where the model puts each validation sample just
/// before its last layer, projected on the two principal components, coloured by true class.
#include <QWidget>
#include <optional>

#include "core/run/records.h"

class QCPGraph;
class QCustomPlot;
class QLabel;

namespace trainscope {

/// Draws the newest EmbeddingRecord (objectName `embeddingView`; the plot `embeddingPlot`):
/// one colour per class (tab10 order), a legend of class names, a caption with the epoch, the
/// points and the share of the variance the two components explain; hovering a point names
/// its sample and class. A detail without an embedding (computed at most every 2 s) keeps the
/// last one.
class EmbeddingView : public QWidget {
  Q_OBJECT
 public:
  explicit EmbeddingView(QWidget* parent = nullptr);
  void setRunInfo(const RunInfo& info);
  void setDetail(const ValidationDetail& detail);
  void setEmbedding(const EmbeddingRecord& e);
  void retranslate();
  const std::optional<EmbeddingRecord>& embedding() const { return embedding_; }
  QString caption() const;
  /// The tooltip text for the point nearest `pos` (plot pixels) within 8 px, else empty.
  QString pointText(const QPointF& pos) const;
  QCustomPlot* plot() const { return plot_; }

 protected:
  void changeEvent(QEvent* e) override;
  bool eventFilter(QObject* watched, QEvent* e) override;
  void showEvent(QShowEvent* e) override;

 private:
  void draw();
  bool stale_ = false;  ///< setEmbedding() while hidden
  QString className(int64_t c) const;
  std::optional<RunInfo> info_;
  std::optional<EmbeddingRecord> embedding_;
  QLabel* caption_;
  QCustomPlot* plot_;
  std::vector<QCPGraph*> graphs_;
};

}  // namespace trainscope

#pragma once
/// The "Embedding" side tab (issue 49 §2): where the model puts each validation sample just
/// before its last layer, projected on the two principal components, coloured by true class.
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "core/run/records.h"

class QCPGraph;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;

namespace trainscope {

/// Draws the newest EmbeddingRecord (objectName `embeddingView`; the plot `embeddingPlot`):
/// one colour per class (tab10 order), a legend of class names, a caption with the epoch, the
/// points and the share of the variance the two components explain; hovering a point names
/// its sample and class. A detail without an embedding (computed at most every 2 s) keeps the
/// last one. The projection choice (`embeddingProjection`) offers t-SNE instead of PCA:
/// computed on a worker thread (core/train/probes/tsne.h) from the points' 50 principal
/// components, for up to TsneOptions::kMaxPoints of them (every k-th, so the class shares
/// stay), with progress in the caption and a Cancel button (`embeddingCancel`); the newest
/// epoch's when it finishes.
class EmbeddingView : public QWidget {
  Q_OBJECT
 public:
  explicit EmbeddingView(QWidget* parent = nullptr);
  ~EmbeddingView() override;
  /// Shows t-SNE (true; started when the newest embedding has none) or PCA (cancels t-SNE).
  void setTsne(bool on);
  bool tsneRunning() const { return worker_.joinable(); }
  /// Epoch of the t-SNE layout shown, 0 when none.
  int64_t tsneEpoch() const { return tsne_epoch_; }
  /// The points drawn: coordinates and their indices into the embedding's arrays.
  const std::vector<float>& shownX() const { return shown_x_; }
  const std::vector<float>& shownY() const { return shown_y_; }
  const std::vector<std::size_t>& shownIndex() const { return shown_; }
  /// Stops a running t-SNE (the caption says so).
  void cancelTsne();
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
  /// The points to draw: PCA's, or the t-SNE layout of the newest embedding's epoch.
  void choosePoints();
  void startTsne();
  void tsneDone(int64_t epoch, std::vector<std::size_t> index, std::vector<double> y,
                double kl, bool cancelled);
  bool stale_ = false;  ///< setEmbedding() while hidden
  QString className(int64_t c) const;
  std::optional<RunInfo> info_;
  std::optional<EmbeddingRecord> embedding_;
  QComboBox* projection_;
  QPushButton* cancel_;
  std::thread worker_;
  std::shared_ptr<std::atomic<bool>> cancel_flag_;
  int tsne_progress_ = 0;  ///< iterations the running t-SNE reported
  int64_t tsne_epoch_ = 0;
  double tsne_kl_ = 0;
  std::vector<std::size_t> tsne_index_;
  std::vector<double> tsne_y_;
  std::vector<std::size_t> shown_;
  std::vector<float> shown_x_, shown_y_;
  QLabel* caption_;
  QCustomPlot* plot_;
  std::vector<QCPGraph*> graphs_;
};

}  // namespace trainscope

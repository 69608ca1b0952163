#include "gui/views/confusion_matrix.h"

#include <QEvent>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "gui/plots/palette.h"
#include "gui/tr.h"

namespace trainscope {
namespace {

/// `base` blended towards white: share 0 white, share 1 the full colour.
QColor matrixShade(const QColor& base, double share) {
  const double t = std::clamp(share, 0.0, 1.0);
  auto mix = [t](int c) { return static_cast<int>(std::lround(255 - (255 - c) * t)); };
  return QColor(mix(base.red()), mix(base.green()), mix(base.blue()));
}

QString matrixPercent(double fraction) {
  return QString::number(100.0 * fraction, 'f', 1) + QLatin1Char('%');
}

}  // namespace

ConfusionMatrixWidget::ConfusionMatrixWidget(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("confusionMatrix"));
  setMinimumHeight(60);
}

void ConfusionMatrixWidget::set(std::vector<int64_t> counts, int n, QStringList names) {
  if (n != n_) selected_ = {-1, -1};
  counts_ = std::move(counts);
  n_ = n;
  names_ = std::move(names);
  update();
}

int64_t ConfusionMatrixWidget::rowTotal(int t) const {
  int64_t s = 0;
  for (int p = 0; p < n_; ++p) s += count(t, p);
  return s;
}

void ConfusionMatrixWidget::select(int t, int p) {
  selected_ = t >= 0 && t < n_ && p >= 0 && p < n_ ? std::make_pair(t, p) : std::make_pair(-1, -1);
  update();
}

QRect ConfusionMatrixWidget::cellRect(int t, int p) {
  if (t < 0 || t >= n_ || p < 0 || p >= n_) return {};
  layoutCells();
  return QRect(grid_.left() + p * cell_w_, grid_.top() + t * cell_h_, cell_w_, cell_h_);
}

void ConfusionMatrixWidget::mousePressEvent(QMouseEvent* e) {
  const auto [t, p] = cellAt(e->position().toPoint());
  if (t < 0) return QWidget::mousePressEvent(e);
  select(t, p);
  Q_EMIT cellClicked(t, p);
}

bool ConfusionMatrixWidget::event(QEvent* e) {
  if (e->type() == QEvent::ToolTip) {
    auto* help = static_cast<QHelpEvent*>(e);
    const auto [t, p] = cellAt(help->pos());
    if (t >= 0) {
      const int64_t total = rowTotal(t);
      QToolTip::showText(
          help->globalPos(),
          Tr::tr("true %1, predicted %2: %n sample(s) (%3 of the class)", "",
                 static_cast<int>(count(t, p)))
                  .arg(names_.value(t), names_.value(p),
                       matrixPercent(total > 0 ? static_cast<double>(count(t, p)) / total : 0)) +
              QLatin1Char('\n') + Tr::tr("Click to see these samples."));
    } else {
      QToolTip::hideText();
    }
    return true;
  }
  return QWidget::event(e);
}

void ConfusionMatrixWidget::paintEvent(QPaintEvent*) {
  static const QColor& right = palette::tab10(0);  // the diagonal: blue
  static const QColor& wrong = palette::kAlarm;    // errors: red
  QPainter p(this);
  p.fillRect(rect(), palette().base());
  if (n_ <= 0 || counts_.size() != static_cast<std::size_t>(n_ * n_)) return;
  layoutCells();
  const QFontMetrics fm(font());
  p.setPen(palette().text().color());
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
  p.setFont(small);
  const QFontMetrics sfm(small);
  // Axis titles: "predicted →" over the columns (to the right edge), "true ↓" over the row
  // labels, on the line of the column numbers.
  p.drawText(QRect(grid_.left(), 0, width() - grid_.left(), fm.height()),
             Qt::AlignLeft | Qt::AlignVCenter,
             sfm.elidedText(Tr::tr("predicted class →"), Qt::ElideRight, width() - grid_.left()));
  p.drawText(QRect(0, fm.height(), grid_.left() - 4, sfm.height()),
             Qt::AlignRight | Qt::AlignVCenter,
             sfm.elidedText(Tr::tr("true class ↓"), Qt::ElideRight, grid_.left() - 4));
  for (int i = 0; i < n_; ++i) {
    const QRect row(0, grid_.top() + i * cell_h_, grid_.left() - 4, cell_h_);
    if (cell_h_ >= sfm.height() - 2)
      p.drawText(row, Qt::AlignRight | Qt::AlignVCenter,
                 sfm.elidedText(names_.value(i), Qt::ElideRight, row.width()));
    const QRect col(grid_.left() + i * cell_w_, fm.height(), cell_w_, sfm.height());
    if (cell_w_ >= sfm.horizontalAdvance(QString::number(i)))
      p.drawText(col, Qt::AlignCenter, QString::number(i));
  }
  for (int t = 0; t < n_; ++t) {
    const int64_t total = rowTotal(t);
    for (int q = 0; q < n_; ++q) {
      const int64_t c = count(t, q);
      const double share = total > 0 ? static_cast<double>(c) / total : 0;
      const QRect cell(grid_.left() + q * cell_w_, grid_.top() + t * cell_h_, cell_w_, cell_h_);
      p.fillRect(cell, c == 0 ? palette().base().color()
                              : matrixShade(t == q ? right : wrong, 0.15 + 0.85 * share));
      p.setPen(palette::kGridLine);
      p.drawRect(cell.adjusted(0, 0, -1, -1));
      const QString text = QString::number(c);
      if (c > 0 && sfm.horizontalAdvance(text) <= cell_w_ - 2 && sfm.height() <= cell_h_) {
        p.setPen(share > 0.55 ? Qt::white : Qt::black);
        p.drawText(cell, Qt::AlignCenter, text);
      }
    }
  }
  if (selected_.first >= 0) {  // the clicked cell, outlined
    p.setPen(QPen(palette().text().color(), 3));
    p.setBrush(Qt::NoBrush);
    p.drawRect(QRect(grid_.left() + selected_.second * cell_w_,
                     grid_.top() + selected_.first * cell_h_, cell_w_, cell_h_)
                   .adjusted(1, 1, -2, -2));
  }
}

void ConfusionMatrixWidget::layoutCells() {
  QFont small = font();
  small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.85));
  const QFontMetrics sfm(small), fm(font());
  int label_w = 0;
  for (const QString& s : names_) label_w = std::max(label_w, sfm.horizontalAdvance(s));
  // The corner's "true class" whole, also over short labels ("0" ... "9"; issue 43 item 22).
  label_w = std::max(label_w, sfm.horizontalAdvance(Tr::tr("true class ↓")));
  label_w = std::min(label_w + 8, width() * 2 / 5);
  const int top = fm.height() + sfm.height() + 2;
  cell_w_ = std::max(1, (width() - label_w - 2) / std::max(1, n_));
  cell_h_ = std::max(1, (height() - top - 2) / std::max(1, n_));
  const int side = std::min(cell_w_, cell_h_ * 2);  // cells no wider than twice their height
  cell_w_ = side;
  grid_ = QRect(label_w, top, cell_w_ * n_, cell_h_ * n_);
}

std::pair<int, int> ConfusionMatrixWidget::cellAt(const QPoint& pos) {
  if (n_ <= 0) return {-1, -1};
  layoutCells();
  if (!grid_.contains(pos)) return {-1, -1};
  return {std::min(n_ - 1, (pos.y() - grid_.top()) / cell_h_),
          std::min(n_ - 1, (pos.x() - grid_.left()) / cell_w_)};
}

}  // namespace trainscope

#include "gui/teaching/presentation.h"

#include <QApplication>
#include <QFontInfo>
#include <QMainWindow>
#include <QSettings>
#include <QShortcut>
#include <QSplitter>
#include <QTimer>
#include <algorithm>
#include <cmath>
#include <functional>

#include "gui/panels/run_controls_panel.h"
#include "gui/panels/run_status.h"
#include "gui/plots/plot_area.h"
#include "gui/plots/plot_style.h"
#include "gui/widgets/hide_reasons.h"

namespace trainscope {
namespace {
constexpr const char* kScaleKey = "presentationScale";
}  // namespace

Presentation::Presentation(const Parts& parts, QObject* parent)
    : QObject(parent), parts_(parts) {
  setObjectName(QStringLiteral("presentation"));
  scale_ = std::clamp(QSettings().value(QLatin1String(kScaleKey), 1.5).toDouble(), 1.5, 2.0);
  using C = RunControlsPanel::Control;
  const struct {
    QKeySequence key;
    std::function<void()> action;
  } keys[] = {
      {QKeySequence(Qt::Key_Space), [this] { parts_.controls->press(C::StartOrPause); }},
      {QKeySequence(Qt::Key_Right), [this] { parts_.controls->press(C::Step); }},
      {QKeySequence(Qt::SHIFT | Qt::Key_Right), [this] { parts_.controls->press(C::StepEpoch); }},
      {QKeySequence(Qt::Key_Escape), [this] { setActive(false); }},
  };
  for (const auto& k : keys) {
    // Window-wide while the mode is on, before any focused button sees the key.
    auto* s = new QShortcut(k.key, parts_.window, nullptr, nullptr, Qt::WindowShortcut);
    s->setEnabled(false);
    connect(s, &QShortcut::activated, this, k.action);
    keys_ << s;
  }
}

Presentation::~Presentation() {
  if (!active_) return;
  qApp->setProperty(kPresentationScaleProperty, 1.0);
  qApp->setProperty(kPresentationFontRatioProperty, 1.0);
  QApplication::setFont(app_font_);
}

int Presentation::tickLabelPx() const {
  return static_cast<int>(std::lround(kPresentationTickPx * scale_ / 1.5));
}

void Presentation::setScale(double scale) {
  scale_ = std::clamp(scale, 1.5, 2.0);
  QSettings().setValue(QLatin1String(kScaleKey), scale_);
  if (active_) apply();
}

void Presentation::setShowBottom(bool show) {
  show_bottom_ = show;
  if (active_) apply();
}

void Presentation::setActive(bool on, bool fullScreen) {
  if (on == active_) return;
  active_ = on;
  if (on) {
    app_font_ = QApplication::font();
    column_sizes_ = parts_.columns->sizes();
    full_screen_ = fullScreen;
    if (fullScreen) {
      window_state_ = parts_.window->windowState();
      parts_.window->showFullScreen();
    }
  }
  for (QShortcut* s : keys_) s->setEnabled(on);
  apply();
  if (!on) {
    if (full_screen_) parts_.window->setWindowState(window_state_);
    full_screen_ = false;
  }
  emit activeChanged(on);
}

void Presentation::apply() {
  if (!active_) {
    qApp->setProperty(kPresentationScaleProperty, 1.0);
    qApp->setProperty(kPresentationFontRatioProperty, 1.0);
    QApplication::setFont(app_font_);
    setHiddenFor(parts_.settings, QStringLiteral("presentation"), false);
    setHiddenFor(parts_.events, QStringLiteral("presentation"), false);
    setHiddenFor(parts_.progress, QStringLiteral("presentation"), false);
    parts_.plots->setPresentation(1, 1, true);
    parts_.controls->setCompact(false);
    parts_.status->setCompact(false);
    parts_.columns->setSizes(column_sizes_);
    return;
  }
  // The interface's texts `scale_` times their size; the plots' tick labels (drawn in the
  // interface's normal font) to tickLabelPx(), never less than `scale_` times.
  const int base_px = std::max(1, QFontInfo(app_font_).pixelSize());
  QFont f = app_font_;
  // In points where the font has them: widgets that shrink a text to fit count in points.
  if (app_font_.pointSizeF() > 0)
    f.setPointSizeF(app_font_.pointSizeF() * scale_);
  else
    f.setPixelSize(static_cast<int>(std::lround(base_px * scale_)));
  QApplication::setFont(f);
  const double font_ratio = presentationFontRatio(scale_, base_px);
  qApp->setProperty(kPresentationScaleProperty, scale_);  // for plots in dialogs
  qApp->setProperty(kPresentationFontRatioProperty, font_ratio);
  setHiddenFor(parts_.settings, QStringLiteral("presentation"), true);
  setHiddenFor(parts_.events, QStringLiteral("presentation"), true);
  // The vertical room goes to the plots (a lesson's panel, a legend of four curves at 1.5x).
  setHiddenFor(parts_.progress, QStringLiteral("presentation"), true);
  parts_.plots->setPresentation(scale_, font_ratio, show_bottom_);
  parts_.controls->setCompact(true);
  parts_.status->setCompact(true);
  // The column keeps only the run controls: as narrow as they allow (the splitter keeps each
  // side at least its minimum size, which it reads once the new fonts are laid out).
  parts_.columns->setSizes({0, parts_.columns->width()});
  QTimer::singleShot(0, this, [this] {
    if (active_) parts_.columns->setSizes({0, parts_.columns->width()});
  });
}

}  // namespace trainscope

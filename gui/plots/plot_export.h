#pragma once
/// Saving a plot for students and reports: an image (PNG, SVG, PDF) at a chosen
/// size, optionally in the projector style, and the data it draws as CSV.
#include <QDialog>
#include <QList>
#include <QSize>
#include <QString>

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLineEdit;
class QSpinBox;

namespace trainscope {

/// Writes `plot` as it is drawn now into `file`, the format by its suffix: .png (a pixmap of
/// `size` pixels times `pixelRatio` device pixels each), .svg (Qt's QSvgGenerator, vector) or
/// .pdf (QPdfWriter, vector; a page of `size` at 96 px per inch). An empty `size` is the plot's
/// own. `projector` draws it in presentation mode's style sized for the picture (PlotStyler:
/// tick labels projectorTickPixels(size) tall, other texts in proportion, lines >= 3 px and
/// thicker on large pictures, the projector palette), also when the plot is in presentation
/// mode already; the plot is put back afterwards. The file is written atomically (temporary file, rename). Works while
/// a run trains (the GUI thread draws; the engine never waits). False with `error` naming the
/// file and the problem (a suffix other than these three, a folder that cannot be written).
bool exportPlotImage(QCustomPlot* plot, const QString& file, QSize size, double pixelRatio,
                     bool projector, QString* error);

/// The tick labels' pixel size of a projector picture of `size`: 1/36 of the height of the
/// largest 16:9 frame inside it (25 px on 1600 x 900, 30 on 1920 x 1080), at least 12.
double projectorTickPixels(QSize size);
/// The slide sizes the image dialog offers: 1600 x 900 and 1920 x 1080 (16:9), 1024 x 768.
QList<QSize> projectorSizes();

/// The points `plot` draws, as CSV: a header `curve,x,y` and one row per point of each visible
/// graph with data, in drawing order (curve: its legend name, "curve N" when it has none;
/// markers on hidden axes are left out; numbers as formatNumber writes them (shortest exact
/// text, nan / inf / -inf), the curve name quoted per RFC 4180 where needed, csvCell). A long live curve holds what the
/// plot keeps of it (older points folded to their extremes); steps.csv holds every step.
/// Written atomically; false with `error` naming the file.
bool exportPlotCsv(QCustomPlot* plot, const QString& file, QString* error);

/// Adds "Save image..." and "Save data as CSV..." to `plot`'s right-click menu (the dialogs
/// below; the folder last used is remembered in QSettings "exportDir").
void installPlotExportMenu(QCustomPlot* plot);
/// Opens the image dialog for `plot`, or the CSV file dialog.
void askExportPlotImage(QCustomPlot* plot);
void askExportPlotCsv(QCustomPlot* plot);

/// The image dialog (objectName plotExportDialog): file (suffix picks the format), width and
/// height in pixels (the plot's size at first; exportSizeComboBox offers the plot's size and
/// projectorSizes()), "for a projector" (presentation style sized for the picture; ticking it
/// picks the 16:9 slide while the plot's own size is chosen).
class PlotExportDialog : public QDialog {
  Q_OBJECT
 public:
  explicit PlotExportDialog(QCustomPlot* plot, QWidget* parent = nullptr);
  /// Exports with the dialog's values (the Save button); false with the message shown.
  bool save();

 private:
  QCustomPlot* plot_;
  QLineEdit* file_;
  QSpinBox* width_;
  QSpinBox* height_;
  QCheckBox* projector_;
  QComboBox* sizes_;
};

}  // namespace trainscope

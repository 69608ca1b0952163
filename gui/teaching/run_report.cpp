// The run report (run_report.h): HTML built once, written as one .html file with the plots
// inline, or laid out by QTextDocument onto PDF pages.
#include "gui/teaching/run_report.h"

#include "gui/plots/palette.h"
#include <algorithm>
#include <qcustomplot.h>

#include <QBuffer>
#include <QDateTime>
#include <QFileInfo>
#include <QImage>
#include <QPageSize>
#include <QPdfWriter>
#include <QSaveFile>
#include <QTextDocument>
#include <QUrl>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

#include "core/config/config_file.h"
#include "core/errors.h"
#include "core/system/number_format.h"
#include "core/run/run_reader.h"
#include "core/train/probes/evaluation.h"
#include "gui/app/translations.h"
#include "gui/event_text.h"
#include "gui/finding_text.h"
#include "gui/model/run_feed.h"
#include "gui/model/run_history.h"
#include "gui/plots/epoch_plots.h"
#include "gui/plots/training_plots.h"
#include "gui/tr.h"
#include "gui/views/evaluation_view.h"

namespace trainscope {
namespace {

constexpr int kPlotWidth = 900, kPlotHeight = 340;  // pixels of each plot image
constexpr int kMaxEvents = 300;                      // events listed; the rest counted

QString esc(const QString& s) { return s.toHtmlEscaped(); }
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }
QString num(double v) { return QString::fromStdString(formatHuman(v)); }

/// One table row of a label and a value (both already HTML).
QString row(const QString& label, const QString& value) {
  return QStringLiteral("<tr><th>%1</th><td>%2</td></tr>\n").arg(label, value);
}

/// An image of one of the dashboard's plots drawn from `history` (not shown on screen).
struct PlotImage {
  QString name;   ///< file-like name ("loss.png"), the PDF resource's URL
  QString title;  ///< translated caption
  QImage image;
};

QImage render(LivePlot& plot, const RunHistory& history) {
  plot.setHistory(&history);
  plot.resize(kPlotWidth, kPlotHeight);
  plot.retranslate();
  plot.sync();
  return plot.toPixmap(kPlotWidth, kPlotHeight).toImage();
}

std::vector<PlotImage> drawPlots(const RunRecord& run, const RunHistory& history) {
  std::vector<PlotImage> out;
  if (run.steps.empty() && run.epochs.empty()) return out;
  {
    LossPlot plot;
    plot.setMistakes(run.info.mistakes);
    out.push_back({QStringLiteral("loss.png"), Tr::tr("Loss (training per step, validation per epoch)"),
                   render(plot, history)});
  }
  if (run.info.data.task == "classification") {
    AccuracyPlot plot;
    out.push_back({QStringLiteral("accuracy.png"), Tr::tr("Accuracy"), render(plot, history)});
  }
  if (!run.steps.empty()) {
    GradNormPlot plot;
    const auto clip = run.config.value("training", nlohmann::json::object())
                          .value("clip", nlohmann::json::object());
    plot.setClipping(clip.value("enabled", false), clip.value("max_norm", 1.0));
    out.push_back({QStringLiteral("grad_norm.png"), Tr::tr("Gradient norm"), render(plot, history)});
    LrPlot lr;
    out.push_back({QStringLiteral("lr.png"), Tr::tr("Learning rate"), render(lr, history)});
  }
  return out;
}

/// Regression: best.pt's (else last.pt's) predictions on the validation split
/// against the true values, drawn by the Evaluation tab's own view (evaluateCheckpoint on the
/// run's data with its recorded preprocessing). Nothing for classification or without a
/// checkpoint; `note` says why there is no picture when the evaluation fails (data moved or
/// changed since the run).
std::optional<PlotImage> predictionPlot(const RunRecord& run, QString* note) {
  if (run.info.data.task != "regression" || run.info.data.n_val <= 0) return std::nullopt;
  std::filesystem::path checkpoint = run.dir / "checkpoints" / "best.pt";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(checkpoint, ec)) checkpoint = run.dir / "checkpoints" / "last.pt";
  if (!std::filesystem::is_regular_file(checkpoint, ec)) return std::nullopt;
  EvaluationRequest request;
  request.checkpoint = checkpoint;
  request.split = "val";
  try {
    const EvaluationResult result = evaluateCheckpoint(request);
    EvaluationView view;
    view.setAttribute(Qt::WA_DontShowOnScreen);
    view.resize(kPlotWidth, kPlotHeight + 60);
    view.show();
    view.showEvaluation(result);
    // Drawn now with its axis titles (set after the points; no event loop runs a queued replot).
    for (QCustomPlot* plot : view.findChildren<QCustomPlot*>())
      plot->replot(QCustomPlot::rpImmediateRefresh);
    const QImage image = view.grab().toImage();
    view.close();
    const QString name = QString::fromStdString(checkpoint.filename().string());
    return PlotImage{QStringLiteral("predictions.png"),
                     Tr::tr("Predicted against true values (validation split, %1): R² %2, MAE %3, "
                            "RMSE %4")
                         .arg(name, num(result.r2.value_or(NAN)), num(result.mae.value_or(NAN)),
                              num(result.rmse.value_or(NAN))),
                     image};
  } catch (const std::exception& e) {
    *note = Tr::tr("No plot of predicted against true values: %1").arg(QString::fromUtf8(e.what()));
    return std::nullopt;
  }
}

/// `key: value` rows of the config sections, in the config's order.
void flatten(const nlohmann::json& j, const std::string& prefix,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (j.is_object() && !j.empty()) {
    for (auto it = j.begin(); it != j.end(); ++it)
      flatten(it.value(), prefix.empty() ? it.key() : prefix + "." + it.key(), out);
    return;
  }
  out.emplace_back(prefix, j.is_string() ? j.get<std::string>() : j.dump());
}

QString settingsTable(const nlohmann::json& config, const std::string& task) {
  std::vector<std::pair<std::string, std::string>> rows;
  for (const char* section : {"data", "model", "optimizer", "scheduler", "training", "teaching"}) {
    if (!config.contains(section)) continue;
    nlohmann::json part = config.at(section);
    if (std::string(section) == "scheduler" && part.value("name", "none") == "none")
      part = nlohmann::json{{"name", "none"}};
    flatten(part, section, rows);
  }
  QString html = QStringLiteral("<table class=\"kv\">\n");
  for (const auto& [key, value] : rows)
    // Only what acts in this run (data.noise listed for a CSV, model.hidden
    // for a CNN); config.json keeps every key.
    if (configKeyApplies(key, config, task))
      html += QStringLiteral("<tr><th><code>%1</code></th><td><code>%2</code></td></tr>\n")
                  .arg(esc(key), esc(value));
  return html + QStringLiteral("</table>\n");
}

QString shapeText(const std::vector<int64_t>& s) {
  QStringList parts;
  for (int64_t d : s) parts << QString::number(d);
  return QStringLiteral("[%1]").arg(parts.join(QStringLiteral(", ")));
}

QString resultSection(const RunRecord& run) {
  QString html = QStringLiteral("<table class=\"kv\">\n");
  const std::optional<RunSummary>& s = run.summary;
  html += row(Tr::tr("Status"),
              s ? esc(EventText::stopReason(s->stop_reason))
                : esc(Tr::tr("no summary yet: still training, or ended without one")));
  if (s && !s->error.empty()) html += row(Tr::tr("Error"), esc(s->error));
  const int64_t epochs = s ? s->epochs_completed : static_cast<int64_t>(run.epochs.size());
  html += row(Tr::tr("Epochs"), QStringLiteral("%1 / %2").arg(epochs).arg(run.info.epochs));
  html += row(Tr::tr("Steps"),
              QString::number(s ? s->global_step : (run.steps.empty() ? 0 : run.steps.back().step)));
  // The final epoch: summary.json's when the run ended with one (the record of the end),
  // else the last row of metrics.csv (a run still training).
  const std::optional<EpochRecord> last =
      s && s->final_metrics ? s->final_metrics
                            : (run.epochs.empty() ? std::nullopt : std::optional(run.epochs.back()));
  if (last) {
    html += row(Tr::tr("Final training loss"), num(last->train_loss));
    html += row(Tr::tr("Final validation loss"), num(last->val_loss));
    if (last->val_accuracy) html += row(Tr::tr("Final validation accuracy"), num(*last->val_accuracy));
    // Regression: in the data's own units.
    if (last->val_r2) html += row(Tr::tr("Final validation R²"), num(*last->val_r2));
    if (last->val_mae) html += row(Tr::tr("Final validation MAE"), num(*last->val_mae));
    if (last->val_rmse) html += row(Tr::tr("Final validation RMSE"), num(*last->val_rmse));
  }
  // The lowest validation loss of metrics.csv (summary.json's best epoch is best.pt's, picked
  // by training.monitor, which may be another metric).
  double best = std::nan("");
  int64_t best_epoch = 0;
  for (const EpochRecord& e : run.epochs)
    if (std::isfinite(e.val_loss) && !(e.val_loss >= best)) best = e.val_loss, best_epoch = e.epoch;
  if (std::isfinite(best))
    html += row(Tr::tr("Best validation loss"), Tr::tr("%1 (epoch %2)").arg(num(best)).arg(best_epoch));
  if (s && s->test_loss) html += row(Tr::tr("Test loss"), num(*s->test_loss));
  if (s && s->test_accuracy) html += row(Tr::tr("Test accuracy"), num(*s->test_accuracy));
  if (s && s->test_loss && s->test_weights == "best") {
    html += row(Tr::tr("Test weights"),
                Tr::tr("best checkpoint (epoch %1)").arg(s->test_epoch).toHtmlEscaped());
    if (s->last_test_loss) html += row(Tr::tr("Test loss, last weights"), num(*s->last_test_loss));
    if (s->last_test_accuracy)
      html += row(Tr::tr("Test accuracy, last weights"), num(*s->last_test_accuracy));
  } else if (s && s->test_loss && s->test_weights == "last") {
    html += row(Tr::tr("Test weights"), Tr::tr("last epoch (%1)").arg(s->test_epoch).toHtmlEscaped());
  }
  if (s && s->skipped_steps > 0)
    html += row(Tr::tr("Steps not applied (non-finite values)"), QString::number(s->skipped_steps));
  if (s) html += row(Tr::tr("Training time"), esc(formatDuration(s->wall_seconds)));
  html += row(Tr::tr("Seed"), QString::number(run.info.seed));
  return html + QStringLiteral("</table>\n");
}

QString diagnosisSection(const RunRecord& run) {
  std::optional<Diagnosis> found;
  if (run.summary && run.summary->diagnosis) {
    found = run.summary->diagnosis;
  } else {  // a run still training: its latest reading, from events.jsonl (kind only)
    for (const Event& e : run.events)
      if (e.kind == EventKind::Diagnosis && !e.what.empty()) {
        found.emplace();
        found->kind = e.what;
        found->epoch = e.epoch;
      }
  }
  if (!found)
    return QStringLiteral("<p>%1</p>\n").arg(esc(Tr::tr("The loss doctor has no reading for this run.")));
  const Diagnosis& d = *found;
  QString html = QStringLiteral("<p><b>%1</b>").arg(esc(EventText::diagnosisKind(d.kind)));
  if (d.epoch > 0) html += QStringLiteral(" (%1)").arg(esc(Tr::tr("after epoch %1").arg(d.epoch)));
  html += QStringLiteral("</p>\n");
  html += QStringLiteral("<p>%1</p>\n").arg(esc(FindingText::diagnosisSummary(d)));
  auto list = [](const std::vector<Finding>& findings, const char* tag) {
    QString l = QStringLiteral("<%1>").arg(QLatin1String(tag));
    for (const Finding& f : findings) l += QStringLiteral("<li>%1</li>").arg(esc(FindingText::text(f)));
    return l + QStringLiteral("</%1>\n").arg(QLatin1String(tag));
  };
  if (!d.evidence.empty())
    html += QStringLiteral("<p><b>%1</b></p>\n").arg(esc(Tr::tr("Evidence"))) + list(d.evidence, "ul");
  if (!d.checks.empty())
    html += QStringLiteral("<p><b>%1</b></p>\n").arg(esc(Tr::tr("What to check"))) + list(d.checks, "ol");
  return html;
}

QString machineSection(const RunInfo& i) {
  QString html = QStringLiteral("<table class=\"kv\">\n");
  html += row(Tr::tr("Device"), esc(i.device));
  html += row(Tr::tr("Threads"), QString::number(i.num_threads));
  if (!i.cpu.empty()) html += row(Tr::tr("CPU"), esc(i.cpu));
  if (!i.blas_library.empty()) html += row(Tr::tr("BLAS"), esc(i.blas_library));
  html += row(Tr::tr("Mixed precision (AMP)"), i.amp ? esc(i.amp_kind) : esc(Tr::tr("off")));
  html += row(Tr::tr("Deterministic algorithms"), i.deterministic ? esc(Tr::tr("on")) : esc(Tr::tr("off")));
  if (i.world_size > 1) html += row(Tr::tr("Processes (ranks)"), QString::number(i.world_size));
  html += row(Tr::tr("Versions"), esc(QStringLiteral("TrainScope %1, libtorch %2")
                                          .arg(QString::fromStdString(i.trainscope_version),
                                               QString::fromStdString(i.torch_version))));
  if (!i.start_time.empty()) html += row(Tr::tr("Started"), esc(i.start_time));
  if (!i.host.empty()) html += row(Tr::tr("Computer"), esc(i.host));
  return html + QStringLiteral("</table>\n");
}

QString dataModelSection(const RunInfo& i) {
  const DataSummary& d = i.data;
  QString html = QStringLiteral("<table class=\"kv\">\n");
  html += row(Tr::tr("Data"), esc(d.source));
  html += row(Tr::tr("Task"), d.task == "classification" ? esc(Tr::tr("classification"))
                                                          : esc(Tr::tr("regression")));
  html += row(Tr::tr("Samples"), esc(Tr::tr("%1 training, %2 validation, %3 test")
                                         .arg(d.n_train).arg(d.n_val).arg(d.n_test)));
  html += row(Tr::tr("Input shape (one sample)"), esc(shapeText(d.input_shape)));
  if (!d.class_names.empty()) {
    QStringList names;
    for (const auto& n : d.class_names) names << QString::fromStdString(n);
    html += row(Tr::tr("Classes"), esc(names.join(QStringLiteral(", "))));
  }
  if (!d.augmentation.empty()) {  // the splits, then the torchvision code as written
    QStringList code;
    for (const auto& t : d.augmentation) code << QString::fromStdString(t);
    const bool val = std::find(d.augmented_splits.begin(), d.augmented_splits.end(), "val") !=
                     d.augmented_splits.end();
    html += row(Tr::tr("Augmentation"),
                esc(val ? Tr::tr("training and validation (teaching mistake)")
                        : Tr::tr("training only")) +
                    QStringLiteral(": <code>") + esc(code.join(QStringLiteral(", "))) +
                    QStringLiteral("</code>"));
  }
  html += row(Tr::tr("Model"), esc(i.model.description));
  html += row(Tr::tr("Trainable parameters"), QString::number(i.model.parameter_count));
  html += row(Tr::tr("Batch size"), QString::number(i.batch_size));
  return html + QStringLiteral("</table>\n");
}

QString eventsSection(const std::vector<Event>& events) {
  QString html = QStringLiteral("<table class=\"events\">\n<tr><th>%1</th><th>%2</th><th>%3</th></tr>\n")
                     .arg(esc(Tr::tr("Step")), esc(Tr::tr("Epoch")), esc(Tr::tr("Event")));
  int shown = 0, left = 0, checkpoints = 0;
  for (const Event& e : events) {
    if (e.kind == EventKind::CheckpointSaved) {  // one per epoch: counted, not listed
      ++checkpoints;
      continue;
    }
    EventText::Severity severity = EventText::Severity::Info;
    const QString text = EventText::forEvent(e, &severity);
    if (text.isEmpty()) continue;
    if (shown == kMaxEvents) {
      ++left;
      continue;
    }
    ++shown;
    const char* cls = severity == EventText::Severity::Error     ? "error"
                      : severity == EventText::Severity::Warning ? "warning"
                                                                 : "info";
    html += QStringLiteral("<tr class=\"%1\"><td>%2</td><td>%3</td><td>%4</td></tr>\n")
                .arg(QLatin1String(cls))
                .arg(e.step)
                .arg(e.epoch)
                .arg(esc(text));
  }
  html += QStringLiteral("</table>\n");
  QString saved;
  if (checkpoints > 0)
    saved = QStringLiteral("<p>%1</p>\n").arg(esc(Tr::tr("Checkpoints saved: %1 (each is in events.jsonl).").arg(checkpoints)));
  if (shown == 0) return QStringLiteral("<p>%1</p>\n").arg(esc(Tr::tr("No events."))) + saved;
  html += saved;
  if (left > 0)
    html += QStringLiteral("<p>%1</p>\n")
                .arg(esc(Tr::tr("... and %1 more events (events.jsonl holds them all).").arg(left)));
  return html;
}

/// The whole document; `imageSrc` gives each plot's <img src> (a data: URI or a resource name).
QString reportHtml(const RunRecord& run, const std::vector<PlotImage>& plots,
                   const std::function<QString(const PlotImage&)>& imageSrc,
                   const QString& plotNote) {
  const QString name = QFileInfo(QString::fromStdString(run.dir.string())).fileName();
  QString html = QString::fromLatin1(kRunReportHtmlMarker) +
                 QStringLiteral(" (trainscope --report / trainscope-cli report) -->\n"
                                "<html lang=\"%1\"><head><meta charset=\"utf-8\">\n"
                                "<meta name=\"generator\" content=\"TrainScope\">\n"
                                "<title>%2</title>\n<style>\n"
                                "body { font-family: sans-serif, \"Noto Sans CJK SC\"; max-width: 60em; margin: 1em auto; }\n"
                                "h1 { font-size: 150%; } h2 { font-size: 120%; margin-top: 1.2em; }\n"
                                "table { border-collapse: collapse; }\n"
                                "th, td { text-align: left; vertical-align: top; padding: 2px 10px 2px 0; }\n"
                                "table.kv th { font-weight: normal; color: %6; }\n"
                                "tr.warning td { color: %3; } tr.error td { color: %4; }\n"
                                ".mistakes { border: 2px solid %5; padding: 6px; color: %5; }\n"
                                "img { max-width: 100%; }\n"
                                "</style></head><body>\n")
                     .arg(languageCode(QLocale()).replace(QLatin1Char('_'), QLatin1Char('-')),
                          esc(Tr::tr("Run report: %1").arg(name)), palette::css(palette::kWarningText),
                          palette::css(palette::kErrorText), palette::css(palette::kMistakeText),
                          palette::css(palette::kMutedText));
  html += QStringLiteral("<h1>%1</h1>\n").arg(esc(Tr::tr("Run report: %1").arg(name)));
  html += QStringLiteral("<p>%1<br><code>%2</code></p>\n")
              .arg(esc(Tr::tr("Written by TrainScope on %1 from the run folder")
                           .arg(QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")))),
                   esc(QString::fromStdString(run.dir.string())));
  if (!run.info.mistakes.empty())
    html += QStringLiteral("<p class=\"mistakes\">%1</p>\n")
                .arg(esc(EventText::mistakesBanner(run.info.mistakes)));
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Result"))) + resultSection(run);
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Diagnosis"))) + diagnosisSection(run);
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Plots")));
  for (const PlotImage& p : plots)
    // One table cell each: QTextDocument keeps a row on one page, so a plot's title never ends
    // a page with its picture on the next.
    html += QStringLiteral("<table class=\"plot\"><tr><td><b>%1</b><br><img src=\"%2\" width=\"%3\" alt=\"%1\"></td></tr></table>\n")
                .arg(esc(p.title), imageSrc(p))
                .arg(kPlotWidth * 2 / 3);
  if (plots.empty()) html += QStringLiteral("<p>%1</p>\n").arg(esc(Tr::tr("No steps recorded yet.")));
  if (!plotNote.isEmpty()) html += QStringLiteral("<p>%1</p>\n").arg(esc(plotNote));
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Data and model"))) + dataModelSection(run.info);
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Settings"))) + settingsTable(run.config, run.info.data.task);
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Device"))) + machineSection(run.info);
  html += QStringLiteral("<h2>%1</h2>\n").arg(esc(Tr::tr("Events"))) + eventsSection(run.events);
  return html + QStringLiteral("</body></html>\n");
}

}  // namespace

QStringList runReportFormats() { return {QStringLiteral("html"), QStringLiteral("pdf")}; }

QString runReportFormatOf(const QString& file) {
  const QString suffix = QFileInfo(file).suffix().toLower();
  if (suffix == QLatin1String("html") || suffix == QLatin1String("htm")) return QStringLiteral("html");
  if (suffix == QLatin1String("pdf")) return QStringLiteral("pdf");
  return {};
}

bool writeRunReport(const QString& runDir, const QString& file, const QString& formatAsked,
                    QString* error, bool* writeFailed) {
  const QString format = formatAsked.isEmpty() ? runReportFormatOf(file) : formatAsked;
  if (format.isEmpty()) {
    *error = Tr::tr("%1: name an .html or .pdf file.").arg(file);
    return false;
  }
  if (!runReportFormats().contains(format)) {
    *error = Tr::tr("Unknown report format \"%1\": html or pdf.").arg(format);
    return false;
  }
  RunRecord run;
  try {
    run = readRun(std::filesystem::absolute(runDir.toStdString()));
  } catch (const Error& e) {
    *error = Tr::tr("Cannot read the run in %1: %2").arg(runDir, QString::fromStdString(e.what()));
    return false;
  }
  RunHistory history;
  feedRun(history, run);
  std::vector<PlotImage> plots = drawPlots(run, history);
  QString prediction_note;
  if (auto p = predictionPlot(run, &prediction_note)) plots.push_back(std::move(*p));

  // The report is made in memory, then written in one checked write and renamed into place:
  // Qt does not count a short write (a full disk, a file size limit) as an error, and
  // QPdfWriter does not check its writes at all, so a torn file used to be kept.
  QByteArray bytes;
  if (format == QLatin1String("html")) {
    bytes = reportHtml(run, plots, [](const PlotImage& p) {
      QByteArray png;
      QBuffer buffer(&png);
      buffer.open(QIODevice::WriteOnly);
      p.image.save(&buffer, "PNG");
      return QStringLiteral("data:image/png;base64,") + QString::fromLatin1(png.toBase64());
    }, prediction_note).toUtf8();
  } else {
    QTextDocument doc;
    // Chinese in Simplified Chinese glyphs (the font fallback would pick Noto's Japanese face).
    if (languageCode(QLocale()) == QLatin1String("zh_CN"))
      doc.setDefaultFont(QFont(QStringLiteral("Noto Sans CJK SC")));
    for (const PlotImage& p : plots) doc.addResource(QTextDocument::ImageResource, QUrl(p.name), p.image);
    doc.setHtml(reportHtml(run, plots, [](const PlotImage& p) { return p.name; }, prediction_note));
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QPdfWriter pdf(&buffer);  // the document is complete when print() ends its painter
    pdf.setPageSize(QPageSize(QPageSize::A4));
    pdf.setResolution(96);
    pdf.setPageMargins(QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter);
    pdf.setCreator(QString::fromLatin1(kRunReportPdfCreator));
    pdf.setTitle(Tr::tr("Run report: %1").arg(QFileInfo(runDir).fileName()));
    doc.setPageSize(pdf.pageLayout().paintRectPixels(pdf.resolution()).size());
    doc.print(&pdf);
  }
  QSaveFile out(file);
  if (!out.open(QIODevice::WriteOnly)) {
    *error = Tr::tr("Cannot write %1: %2").arg(file, out.errorString());
    return false;
  }
  if (out.write(bytes) != bytes.size()) {
    out.cancelWriting();
    if (writeFailed) *writeFailed = true;
    *error = Tr::tr("Cannot write %1: the disk is full or a file size limit was reached; "
                    "nothing was written").arg(file);
    return false;
  }
  if (!out.commit()) {
    if (writeFailed) *writeFailed = true;
    *error = Tr::tr("Cannot write %1: %2").arg(file, out.errorString());
    return false;
  }
  return true;
}

}  // namespace trainscope

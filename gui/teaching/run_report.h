#pragma once
/// The run report: one self-contained file a student hands in as the record of
/// an experiment, in the UI language: the result (final and best metrics, test set, stop
/// reason), the loss doctor's diagnosis with its evidence, the loss / accuracy / gradient-norm /
/// learning-rate plots drawn by the dashboard's own plot classes, the settings, device, data
/// and model summaries, and the events. Read from the run folder (core/run/run_reader.h), so a
/// finished run, a past run and a run still training (what is written so far) all work; the
/// folder is only read.
#include <QString>

#include "core/io/written_marks.h"  // kRunReportHtmlMarker, kRunReportPdfCreator

namespace trainscope {

/// The report formats: "html" (one file, the plots embedded as PNG data: URIs) and "pdf"
/// (A4 pages through Qt's printing: QTextDocument onto a QPdfWriter, fonts embedded).
QStringList runReportFormats();

/// The format a file name asks for by its suffix ("html" for .html/.htm, "pdf" for .pdf), else
/// empty.
QString runReportFormatOf(const QString& file);

/// Writes the report of the run folder `runDir` to `file` as `format` (runReportFormats(); empty:
/// by the file's suffix, runReportFormatOf),
/// atomically (a temporary file renamed over it). Needs a QApplication (the plots are drawn
/// offscreen; any platform plugin, "offscreen" included, works). False with `error` (translated)
/// naming the folder or file and the problem: not a run folder, a file that does not parse, an
/// unknown format, a file that cannot be written. A write that fails part way (a full disk, a
/// file size limit) leaves no file and sets `writeFailed` (when given): the cases that are not
/// the input's fault.
bool writeRunReport(const QString& runDir, const QString& file, const QString& format,
                    QString* error, bool* writeFailed = nullptr);

}  // namespace trainscope

#pragma once
/// How a file TrainScope wrote for people (not a run folder's own files) is recognised, so that
/// a new export may replace it while a file of the user's own is never replaced. Torch-free,
/// Qt-free.

namespace trainscope {

/// The first bytes of a script written by export-python (core/train/teaching/python_script.h).
inline constexpr const char* kPythonScriptMarker = "#!/usr/bin/env python3\n# Written by TrainScope";
/// The first bytes of an HTML run report (gui/teaching/run_report.h).
inline constexpr const char* kRunReportHtmlMarker = "<!DOCTYPE html>\n<!-- Written by TrainScope";
/// The /Creator of a PDF run report's document information (QPdfWriter writes it in UTF-16BE).
inline constexpr const char* kRunReportPdfCreator = "TrainScope run report";

}  // namespace trainscope

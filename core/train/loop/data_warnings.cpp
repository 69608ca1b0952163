#include "core/train/loop/data_warnings.h"

#include "core/data/csv_source.h"
#include "core/data/data_report.h"

namespace trainscope {

std::vector<Event> dataWarningEvents(const PreparedData& d) {
  const DataReport r = dataWarnings(d);
  std::vector<Event> out;
  for (size_t i = 0; i < r.warnings.size(); ++i) {
    Event e;
    e.kind = EventKind::DataWarning;
    e.what = i < r.warning_facts.size() ? r.warning_facts[i].kind : "warning";
    if (i < r.warning_facts.size()) {
      const ReportWarning& w = r.warning_facts[i];
      e.value = static_cast<double>(w.count);
      e.file = w.name;
      if (w.kind == "imbalance") e.values = {w.ratio};
    }
    e.message = "data: " + r.warnings[i];
    out.push_back(std::move(e));
  }
  for (const std::string& note : d.notes) {
    // Notes on this machine's image cache ("decoded images of ... cached in / read from the
    // cache ...") say nothing about the data, and differ between two runs of the same data.
    if (note.rfind("decoded images of ", 0) == 0 ||
        note.rfind("the decoded images could not be cached", 0) == 0)
      continue;
    Event e;
    e.kind = EventKind::DataWarning;
    e.what = "note";
    e.message = "data: " + note;
    // The CSV header decision: its facts, so front ends can say it in their language.
    for (const char* said : {kCsvHeaderNote, kCsvNoHeaderNote}) {
      const size_t at = note.find(said);
      if (at == std::string::npos || at == 0) continue;
      e.what = "csv_header";
      e.file = note.substr(0, at);
      e.value = said == kCsvHeaderNote ? 1.0 : 0.0;
      break;
    }
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace trainscope

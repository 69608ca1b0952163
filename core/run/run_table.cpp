// The experiment log's rows (see run_table.h).
#include "core/run/run_table.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <fstream>
#include <functional>
#include <map>
#include <set>
#include <sstream>

#include "core/config/config_file.h"
#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/system/number_format.h"
#include "core/io/utf8.h"
#include "core/run/run_dir.h"
#include "core/run/run_follower.h"
#include "core/run/run_lock.h"
#include "core/run/run_reader.h"

namespace trainscope {
namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

json readJsonFile(const fs::path& file) {
  const std::string text = readRegularFile(file);  // never blocks on a FIFO
  try {
    return parseJson(text);
  } catch (const json::parse_error& e) {
    const std::string what = e.what();
    const auto deep = what.find("nested deeper");
    throw Error(ErrorCode::Io, file.string(),
                file.filename().string() + " is not valid JSON: " +
                    (deep != std::string::npos ? what.substr(deep) + " near byte " + std::to_string(e.byte)
                                               : "cut short or corrupt near byte " + std::to_string(e.byte)));
  } catch (const json::exception& e) {
    throw Error(ErrorCode::Io, file.string(),
                file.filename().string() + " is not valid JSON (" + e.what() + ")");
  }
}

template <class T>
json orNull(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json at(const json& j, std::initializer_list<const char*> path) {
  const json* node = &j;
  for (const char* p : path) {
    if (!node->is_object()) return nullptr;
    auto it = node->find(p);
    if (it == node->end()) return nullptr;
    node = &*it;
  }
  return *node;
}

std::string joinInts(const json& list, const char* sep) {
  std::string out;
  if (!list.is_array()) return out;
  for (const auto& v : list) {
    if (!out.empty()) out += sep;
    out += v.is_number_integer() ? std::to_string(v.get<int64_t>()) : v.dump();
  }
  return out;
}

std::string baseName(const json& path) {
  return path.is_string() ? fs::path(path.get<std::string>()).filename().string() : "";
}

/// "mlp 256-256", "cnn 32-64", "lstm 64x2", "torchscript net.pt".
std::string modelText(const json& config) {
  const json kind = at(config, {"model", "kind"});
  const std::string k = kind.is_string() ? kind.get<std::string>() : "mlp";
  if (k == "cnn") return "cnn " + joinInts(at(config, {"model", "cnn", "channels"}), "-");
  if (k == "rnn") {
    const json cell = at(config, {"model", "rnn", "cell"});
    const json h = at(config, {"model", "rnn", "hidden_size"}), l = at(config, {"model", "rnn", "num_layers"});
    return (cell.is_string() ? cell.get<std::string>() : "rnn") + " " + h.dump() + "x" + l.dump();
  }
  if (k == "torchscript") return "torchscript " + baseName(at(config, {"model", "torchscript", "path"}));
  return k + " " + joinInts(at(config, {"model", "hidden"}), "-");
}

/// "fashion-mnist", "csv flowers.csv", "image_folder flowers/".
std::string dataText(const json& config) {
  const json source = at(config, {"data", "source"});
  const std::string s = source.is_string() ? source.get<std::string>() : "?";
  for (const char* section : {"csv", "image_folder", "npy", "idx"})
    if (s == section) {
      const std::string file = baseName(at(config, {"data", section, "path"}));
      return file.empty() ? s : s + " " + file;
    }
  return s;
}

/// Whether anomaliesOf counts events of `kind` (the table reads no others).
bool isAnomalyKind(EventKind kind) {
  switch (kind) {
    case EventKind::NonFinite:
    case EventKind::ClipWarning:
    case EventKind::RolledBack:
    case EventKind::Slowdown:
    case EventKind::MemoryWarning:
    case EventKind::EarlyStop:
    case EventKind::Overfitting:
    case EventKind::DataWarning:
    case EventKind::Diverged: return true;
    default: return false;
  }
}

/// "non-finite x3, early stop @12, overfitting @179, ..." from events.jsonl (in order of kind).
std::string anomaliesOf(const std::vector<Event>& events, int64_t skipped_steps,
                        const std::string& diagnosis = "") {
  int64_t non_finite = 0, clip = 0, rolled = 0, slowdowns = 0, memory = 0;
  std::optional<int64_t> early_stop, overfitting, diverged;
  std::vector<std::string> data_warnings;  // "data leakage 569": what `data` warns about
  for (const auto& e : events) {
    switch (e.kind) {
      case EventKind::DataWarning:
        if (e.what != "note" && e.what != "csv_header") {
          std::string what = e.what;
          std::replace(what.begin(), what.end(), '_', ' ');
          data_warnings.push_back(
              "data " + what +
              (e.value ? " " + std::to_string(static_cast<int64_t>(*e.value)) : std::string()));
        }
        break;
      case EventKind::NonFinite: ++non_finite; break;
      case EventKind::ClipWarning: ++clip; break;
      case EventKind::RolledBack: ++rolled; break;
      case EventKind::Slowdown: ++slowdowns; break;
      case EventKind::MemoryWarning: ++memory; break;
      case EventKind::EarlyStop: early_stop = e.epoch; break;
      case EventKind::Overfitting:  // the onset (the best epoch), not the detection
        if (!overfitting)
          overfitting = e.value && std::isfinite(*e.value) ? static_cast<int64_t>(*e.value) : e.epoch;
        break;
      case EventKind::Diverged:
        if (!diverged) diverged = e.epoch;
        break;
      default: break;
    }
  }
  std::vector<std::string> parts;
  if (non_finite) parts.push_back("non-finite x" + std::to_string(non_finite));
  if (skipped_steps)
    parts.push_back(std::to_string(skipped_steps) + (skipped_steps == 1 ? " step" : " steps") +
                    " skipped");
  if (diagnosis == "accumulating" || diagnosis == "diverging" || diagnosis == "no_signal" ||
      diagnosis == "flat" ||
      diagnosis == "plateau")
    parts.push_back("diagnosis " + diagnosis);
  if (diverged) parts.push_back("diverged @" + std::to_string(*diverged));
  if (rolled) parts.push_back("rolled back x" + std::to_string(rolled));
  if (overfitting) parts.push_back("overfitting @" + std::to_string(*overfitting));
  if (early_stop) parts.push_back("early stop @" + std::to_string(*early_stop));
  if (clip) parts.push_back("clip warning");
  if (memory) parts.push_back("memory warning");
  if (slowdowns) parts.push_back("slowdown x" + std::to_string(slowdowns));
  parts.insert(parts.end(), data_warnings.begin(), data_warnings.end());
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ", ") + p;
  return out;
}

void fillMetrics(RunRow& row, const std::vector<EpochRecord>& epochs) {
  std::optional<double> best_loss, best_acc, best_r2;
  int64_t best_epoch = 0;
  for (const auto& e : epochs) {
    if (e.val_r2 && std::isfinite(*e.val_r2) && (!best_r2 || *e.val_r2 > *best_r2)) best_r2 = e.val_r2;
    if (std::isfinite(e.val_loss) && (!best_loss || e.val_loss < *best_loss)) {
      best_loss = e.val_loss;
      best_epoch = e.epoch;
    }
    if (e.val_accuracy && (!best_acc || *e.val_accuracy > *best_acc)) best_acc = e.val_accuracy;
  }
  auto& v = row.values;
  v["epochs_done"] = epochs.empty() ? 0 : epochs.back().epoch;
  v["best_val_loss"] = orNull(best_loss);
  v["best_epoch"] = best_loss ? json(best_epoch) : json(nullptr);
  v["best_val_accuracy"] = orNull(best_acc);
  v["best_val_r2"] = orNull(best_r2);
  if (!epochs.empty()) {
    v["final_val_r2"] = orNull(epochs.back().val_r2);
    v["final_val_mae"] = orNull(epochs.back().val_mae);
    v["final_val_rmse"] = orNull(epochs.back().val_rmse);
    v["final_val_loss"] = std::isfinite(epochs.back().val_loss) ? json(epochs.back().val_loss)
                                                                 : json(formatNumber(epochs.back().val_loss));
    v["final_val_accuracy"] = orNull(epochs.back().val_accuracy);
    v["final_train_loss"] = std::isfinite(epochs.back().train_loss)
                                ? json(epochs.back().train_loss)
                                : json(formatNumber(epochs.back().train_loss));
  }
}

/// The notes and tags of notes.json into `row`; the problem when the file exists but cannot be
/// read (the row is then "incomplete" with it: "no notes" would be a wrong answer).
std::string readNotes(RunRow& row) {
  const fs::path file = row.dir / kRunNotesFile;
  std::error_code ec;
  if (!fs::exists(file, ec)) return "";
  try {
    const json n = readJsonFile(file);
    if (n.contains("notes") && n["notes"].is_string()) row.values["notes"] = n["notes"];
    if (n.contains("tags") && n["tags"].is_array()) {
      std::string tags;
      for (const auto& t : n["tags"])
        if (t.is_string()) tags += (tags.empty() ? "" : ", ") + t.get<std::string>();
      row.values["tags"] = tags;
    }
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

const std::vector<RunColumn>& runColumns() {
  static const std::vector<RunColumn> columns = {
      {"name", "name", "the run folder's name"},
      {"started", "started", "local start time (run.json start_time)"},
      {"status", "status",
       "running, completed, stopped, interrupted, diverged, failed, pruned, crashed, incomplete, "
       "not a run"},
      {"data", "data", "data.source (and the file of own data)"},
      {"model", "model", "model.kind and its sizes (hidden widths, conv channels, cell hidden x layers)"},
      {"params", "params", "trainable parameters"},
      {"optimizer", "optimizer", "optimizer.name"},
      {"lr", "lr", "optimizer.lr (the initial learning rate)"},
      {"batch_size", "batch", "training.batch_size"},
      {"seed", "seed", "the training seed (drawn ones included)"},
      {"epochs", "epochs", "epochs done / planned"},
      {"epochs_done", "epochs done", "epochs completed", false},
      {"best_val_loss", "best val loss", "lowest validation loss of any epoch"},
      {"best_epoch", "best epoch", "the epoch of the lowest validation loss"},
      {"final_val_loss", "final val loss", "validation loss of the last epoch"},
      {"final_train_loss", "final train loss", "training loss of the last epoch", false},
      {"best_val_accuracy", "best val acc", "highest validation accuracy (classification)"},
      {"final_val_accuracy", "final val acc", "validation accuracy of the last epoch"},
      {"best_val_r2", "best val R2", "highest validation R^2 (regression)", false},
      {"final_val_r2", "final val R2", "validation R^2 of the last epoch (regression)", false},
      {"final_val_mae", "final val MAE",
       "validation mean absolute error of the last epoch, target units (regression)", false},
      {"final_val_rmse", "final val RMSE",
       "validation root mean squared error of the last epoch, target units (regression)", false},
      {"test_loss", "test loss", "loss on the test split at the end (when there is one)"},
      {"test_accuracy", "test acc", "accuracy on the test split at the end"},
      {"anomalies", "anomalies",
       "non-finite steps, divergence, roll-backs, overfitting onset, early stop, clip and memory "
       "warnings, slowdowns (from events.jsonl)"},
      {"mistakes", "mistakes",
       "teaching.mistakes: training-loop bugs injected on purpose (a teaching run, not a real one)"},
      {"amp", "amp", "training.amp"},
      {"threads", "threads", "intra-op threads of the training thread", false},
      {"world_size", "ranks", "data-parallel ranks (1: one process)", false},
      {"duration_s", "duration s", "wall time of the run, seconds (summary.json)"},
      {"trainscope_version", "trainscope", "TrainScope's version", false},
      {"torch_version", "libtorch", "libtorch's version", false},
      {"notes", "notes", "notes (notes.json)"},
      {"tags", "tags", "tags (notes.json)"},
      {"sweep", "sweep", "the sweep the run is a trial of (sweep.json beside its folder)", false},
      {"reason", "reason", "why a run is crashed, incomplete, failed or not a run"},
      {"dir", "dir", "the run folder (absolute)", false},
  };
  return columns;
}

std::optional<SweepOfRun> sweepOfRun(const fs::path& run_dir) {
  const fs::path file = run_dir.parent_path() / kSweepRecordFile;
  std::error_code ec;
  if (!fs::is_regular_file(file, ec)) return std::nullopt;
  try {
    const json j = readJsonFile(file);
    if (!j.is_object() || j.value("format", json()) != kSweepFormat) return std::nullopt;
    SweepOfRun s;
    s.name = j.value("name", "");
    const json params = at(j, {"sweep", "parameters"});
    if (params.is_object())
      for (const auto& [key, space] : params.items()) s.keys.push_back(key);
    return s;
  } catch (const std::exception&) {
    return std::nullopt;  // not ours, or unreadable: the run is listed without it
  }
}

RunRow readRunRow(const fs::path& dir_in) {
  RunRow row;
  std::error_code ec;
  row.dir = fs::absolute(dir_in, ec).lexically_normal();
  if (!row.dir.has_filename()) row.dir = row.dir.parent_path();
  auto& v = row.values;
  for (const auto& c : runColumns()) v[c.key] = nullptr;
  // Names are shown and put into JSON, which holds only UTF-8: a name in another encoding is
  // shown with U+FFFD and the row marked (it used to fail the whole table).
  const bool name_ok = isValidUtf8(row.dir.string());
  v["name"] = toValidUtf8(row.dir.filename().string());
  v["dir"] = toValidUtf8(row.dir.string());
  auto finish = [&](std::string status, std::string reason) {
    row.status = std::move(status);
    row.reason = std::move(reason);
    v["status"] = row.status;
    v["reason"] = row.reason.empty() ? json(nullptr) : json(row.reason);
    return row;
  };
  if (!fs::is_directory(row.dir, ec)) return finish("not a run", "not a directory");
  const bool has_config = fs::exists(row.dir / "config.json", ec);
  const bool has_run = fs::exists(row.dir / "run.json", ec);
  if (!has_config && !has_run) {
    int64_t runs_inside = 0;
    for (fs::directory_iterator it(row.dir, ec), end; !ec && it != end; it.increment(ec))
      runs_inside += fs::exists(it->path() / "run.json", ec) ? 1 : 0;
    return finish("not a run",
                  runs_inside > 0
                      ? "a folder holding " + std::to_string(runs_inside) +
                            " run folder(s): list it as a folder of runs (trainscope-cli runs " +
                            row.dir.string() + ")"
                      : "no config.json or run.json: not a run folder");
  }
  if (const auto sweep = sweepOfRun(row.dir)) v["sweep"] = sweep->name;
  std::string problem;  // the first unreadable file, reported as "incomplete"
  if (!name_ok)
    problem = "the folder's path is not valid UTF-8 (shown with U+FFFD): rename it to read it";
  json run;
  try {
    row.config = readJsonFile(row.dir / "config.json");
  } catch (const Error& e) {
    problem = e.what();
  }
  try {
    run = readJsonFile(row.dir / "run.json");
  } catch (const Error& e) {
    if (problem.empty()) problem = e.what();
  }
  const json& c = row.config;
  if (c.is_object()) {
    v["data"] = dataText(c);
    v["model"] = modelText(c);
    v["optimizer"] = at(c, {"optimizer", "name"});
    v["lr"] = at(c, {"optimizer", "lr"});
    v["batch_size"] = at(c, {"training", "batch_size"});
    v["amp"] = at(c, {"training", "amp"});
    std::string mistakes;
    for (const json& m : at(c, {"teaching", "mistakes"}))
      if (m.is_string()) mistakes += (mistakes.empty() ? "" : ", ") + m.get<std::string>();
    if (!mistakes.empty()) v["mistakes"] = mistakes;
  }
  if (run.is_object()) {
    v["started"] = at(run, {"start_time"});
    v["seed"] = at(run, {"seed"});
    v["params"] = at(run, {"model", "parameter_count"});
    v["threads"] = at(run, {"num_threads"});
    const json ws = at(run, {"distributed", "world_size"});
    v["world_size"] = ws.is_null() ? json(1) : ws;
    v["trainscope_version"] = at(run, {"trainscope_version"});
    v["torch_version"] = at(run, {"torch_version"});
  }
  const json planned = at(c, {"training", "epochs"});
  if (std::string notes_problem = readNotes(row); !notes_problem.empty() && problem.empty())
    problem = std::move(notes_problem);

  std::vector<EpochRecord> epochs;
  if (!fs::exists(row.dir / "metrics.csv", ec) && problem.empty())
    problem = "metrics.csv is missing";
  if (fs::exists(row.dir / "metrics.csv", ec)) {
    try {
      epochs = readMetricsCsv(row.dir / "metrics.csv");
    } catch (const Error& e) {
      if (problem.empty()) problem = e.what();
    }
  }
  fillMetrics(row, epochs);
  v["epochs"] = std::to_string(v["epochs_done"].get<int64_t>()) + "/" +
                (planned.is_number_integer() ? std::to_string(planned.get<int64_t>()) : "?");

  std::vector<Event> events;
  if (fs::exists(row.dir / "events.jsonl", ec)) {
    try {
      events = readEventsJsonl(row.dir / "events.jsonl", isAnomalyKind);
    } catch (const Error& e) {
      if (problem.empty()) problem = e.what();
    }
  }

  if (const auto holder = RunDirLock::holder(row.dir)) {
    v["anomalies"] = anomaliesOf(events, 0);
    return finish("running", "");
  }
  if (!problem.empty()) return finish("incomplete", problem);
  if (!fs::exists(row.dir / "summary.json", ec)) {
    v["anomalies"] = anomaliesOf(events, 0);
    return finish("crashed",
                  "no summary.json and no process writes the folder: the run ended without "
                  "finishing (killed, crashed or the machine stopped)");
  }
  RunSummary summary;
  try {
    summary = readSummaryJson(row.dir / "summary.json");
  } catch (const Error& e) {
    return finish("incomplete", e.what());
  }
  // A metrics.csv cut short (a half-copied folder) would show another run's final numbers.
  const int64_t last_epoch = epochs.empty() ? 0 : epochs.back().epoch;
  if (last_epoch < summary.epochs_completed)
    return finish("incomplete",
                  "metrics.csv ends at epoch " + std::to_string(last_epoch) +
                      " but summary.json says " + std::to_string(summary.epochs_completed) +
                      " epochs were completed: the file was cut short");
  v["test_loss"] = orNull(summary.test_loss);
  v["test_accuracy"] = orNull(summary.test_accuracy);
  v["duration_s"] = summary.wall_seconds;
  v["anomalies"] = anomaliesOf(events, summary.skipped_steps,
                               summary.diagnosis ? summary.diagnosis->kind : std::string());
  return finish(runStatusOf(summary.stop_reason),
                summary.stop_reason == StopReason::Error ? summary.error : "");
}

fs::path moveRunToTrash(const fs::path& dir, const fs::path& trash_root) {
  const std::string why = whyNotRunDirectory(dir);
  if (!why.empty())
    throw Error(ErrorCode::Config, dir.string(), "not moved to the trash: " + why);
  if (const auto holder = RunDirLock::holder(dir))
    throw Error(ErrorCode::Config, dir.string(),
                "not moved to the trash: " + dir.string() + " is being written by " + *holder);
  std::error_code ec;
  const fs::path trash = trash_root / "trash";
  // A "trash" that is a link (or not a folder) would move runs out of the runs folder, to
  // wherever it points: refused, nothing moved.
  const fs::file_status st = fs::symlink_status(trash, ec);
  if (fs::is_symlink(st))
    throw Error(ErrorCode::Config, trash.string(),
                "not moved to the trash: " + trash.string() +
                    " is a symbolic link; the trash must be a folder inside the runs folder "
                    "(rename or remove the link)");
  if (fs::exists(st) && !fs::is_directory(st))
    throw Error(ErrorCode::Config, trash.string(),
                "not moved to the trash: " + trash.string() + " exists and is not a folder");
  fs::create_directories(trash, ec);
  if (ec)
    throw Error(ErrorCode::Io, trash.string(), "cannot create " + trash.string() + ": " + ec.message());
  const std::string name = fs::absolute(dir, ec).lexically_normal().filename().string();
  fs::path target = trash / name;
  for (int i = 2; fs::exists(target, ec); ++i) target = trash / (name + "-" + std::to_string(i));
  fs::rename(dir, target, ec);
  if (ec)
    throw Error(ErrorCode::Io, dir.string(),
                "cannot move " + dir.string() + " to " + target.string() + ": " + ec.message() +
                    " (nothing was deleted)");
  return target;
}

}  // namespace trainscope

#include "core/run/run_dir.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "core/errors.h"
#include "core/io/atomic_file.h"
#include "core/io/file_read.h"
#include "core/io/json_parse.h"
#include "core/run/run_lock.h"
#include "core/system/clock.h"

namespace trainscope {

std::filesystem::path createUniqueRunDir(const std::filesystem::path& root,
                                         const std::string& name) {
  std::error_code ec;
  std::filesystem::create_directories(root, ec);
  if (ec)
    throw Error(ErrorCode::Io, root.string(),
                "cannot create " + root.string() + ": " + ec.message());
  std::string base = name + "-" + runDirTimestampNow();
  for (int i = 1; i < 10000; ++i) {
    std::filesystem::path dir = root / (i == 1 ? base : base + "-" + std::to_string(i));
    // create_directory returns false when it exists: then try the next suffix (never reuse).
    if (std::filesystem::create_directory(dir, ec)) return dir;
    if (ec)
      throw Error(ErrorCode::Io, dir.string(),
                  "cannot create " + dir.string() + ": " + ec.message());
  }
  throw Error(ErrorCode::Io, root.string(), "too many run directories named " + base);
}

bool isNonEmptyDirectory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) return false;
  return std::filesystem::directory_iterator(dir, ec) != std::filesystem::directory_iterator();
}

namespace {

/// The files a run writes at the top of its directory (RunWriter, LayersCsvWriter; model.pt:
/// a TorchScript model's trained module, train/state/checkpointing.h; notes.json: the runs
/// browser's notes and tags, run/run_table.h).
constexpr const char* kRunFiles[] = {"config.json",  "run.json",    "metrics.csv",
                                     "steps.csv",    "events.jsonl", "layers.csv",
                                     "summary.json", "split.json",   "model.pt",
                                     "notes.json",   "report.html",  "report.pdf",
                                     "evaluation.json", "system.csv"};  // report: the run report's default
/// TensorBoard event files (io/tfevents_writer.h): events.out.tfevents.<seconds>.<host>...
constexpr const char* kTensorBoardPrefix = "events.out.tfevents.";

bool startsWith(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

bool endsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// A run file's name, or the temp file an interrupted atomic write of one left.
bool isRunFileName(const std::string& name) {
  if (name == kRunLockFile) return true;
  if (startsWith(name, kTensorBoardPrefix)) return true;
  for (const char* f : kRunFiles)
    if (name == f || startsWith(name, atomicTempPrefix(f))) return true;
  return false;
}

/// A checkpoint's name (*.pt, any name: the dashboard's Save... lets the user choose), or the
/// temp file of one (".<name>.pt.tmp-XXXXXX").
bool isCheckpointName(const std::string& name) {
  return (endsWith(name, ".pt") && name.size() > 3) || isCheckpointTemp(name);
}

}  // namespace

int removeStaleRunTemps(const std::filesystem::path& run_dir) {
  return removeFilesIf(run_dir, [](const std::string& name) {
           return name != kRunLockFile && name.size() > 1 && name[0] == '.' &&
                  isRunFileName(name);
         }) +
         removeStaleCheckpointTemps(run_dir / "checkpoints");
}

std::string whyNotRunDirectory(const std::filesystem::path& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return dir.string() + " is not a directory";
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    const fs::file_status st = it->symlink_status(ec);
    if (name == "checkpoints" && fs::is_directory(st)) {
      for (fs::directory_iterator c(p, ec); !ec && c != end; c.increment(ec)) {
        if (!fs::is_regular_file(c->symlink_status(ec)) ||
            !isCheckpointName(c->path().filename().string()))
          return c->path().string() + " is not a checkpoint TrainScope writes";
      }
      if (ec) return "cannot list " + p.string() + ": " + ec.message();
      continue;
    }
    if (!fs::is_regular_file(st) || !isRunFileName(name))
      return p.string() + " is not a file TrainScope writes";
  }
  if (ec) return "cannot list " + dir.string() + ": " + ec.message();
  for (const char* f : {"config.json", "run.json"})
    if (!fs::is_regular_file(fs::symlink_status(dir / f, ec)))
      return "it has no " + (dir / f).string();
  nlohmann::json run;
  try {
    run = parseJson(readRegularFile(dir / "run.json"), false);
  } catch (const Error& e) {
    return e.what();
  }
  if (!run.is_object() || !run.contains("trainscope_version"))
    return (dir / "run.json").string() + " was not written by TrainScope";
  return "";
}

bool removeEmptyRunDir(const std::filesystem::path& run_dir) {
  std::error_code ec;
  if (!std::filesystem::is_directory(run_dir, ec) || !std::filesystem::is_empty(run_dir, ec) || ec)
    return false;
  // remove() takes a folder only while it is empty (rmdir): a file that appeared meanwhile keeps it.
  return std::filesystem::remove(run_dir, ec) && !ec;
}

}  // namespace trainscope

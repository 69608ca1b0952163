#pragma once
/// The paths of the commands that read one run folder and write one file (export-python,
/// report, export; the dashboard's Export model): the run folder, and the output file, checked
/// before any work and never put over a file TrainScope did not write. Torch-free.
#include <filesystem>
#include <functional>
#include <string>

namespace trainscope {

/// Checks `-o FILE` before anything is computed and returns it absolute. Throws
/// Error(Config, option) (exit 2) when it is empty, a directory, in a folder that does not
/// exist, an existing FIFO, device or socket, or an existing file that `writtenByUs` (given the
/// file's bytes; of a file over 64 MiB its first and last MiB) does not recognise:
/// a file of the user's own is never replaced; one TrainScope wrote earlier is.
std::filesystem::path checkOutputFile(const std::string& file, const std::string& option,
                                      const std::function<bool(const std::string&)>& writtenByUs);

/// Checks the RUN argument and returns it absolute. Throws Error(Config, arg) (exit 2) when it
/// does not exist, is a file (`file_hint` follows: what to use for one), or lacks config.json
/// or run.json (named).
std::filesystem::path checkRunFolder(const std::string& arg, const std::string& file_hint);

/// `writtenByUs` for files whose first bytes are `marker`.
std::function<bool(const std::string&)> startsWith(const std::string& marker);

}  // namespace trainscope

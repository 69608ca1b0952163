#pragma once
/// The file a command writes with `-o FILE` (export-python, report): checked before any work,
/// written atomically, and never put over a file TrainScope did not write.
#include <filesystem>
#include <functional>
#include <string>

namespace trainscope::cli {

/// Checks `-o FILE` before anything is computed and returns it absolute. Throws
/// Error(Config, option) (exit 2) when it is empty, a directory, in a folder that does not
/// exist, or an existing file that `writtenByUs` (given the file's bytes) does not recognise:
/// a file of the user's own is never replaced; one TrainScope wrote earlier is.
std::filesystem::path checkOutputFile(const std::string& file, const std::string& option,
                                      const std::function<bool(const std::string&)>& writtenByUs);

/// `writtenByUs` for files whose first bytes are `marker`.
std::function<bool(const std::string&)> startsWith(const std::string& marker);

}  // namespace trainscope::cli

#pragma once
/// Typed errors thrown by trainscope_core. Core speaks English; front ends map codes to exit
/// codes (CLI) or translated text (GUI).
#include <stdexcept>
#include <string>

namespace trainscope {

/// What kind of input was wrong. The CLI maps Config/Data/Checkpoint/Usage to exit code 2.
enum class ErrorCode {
  Config,      ///< a config key or value is invalid; subject() is the key ("training.batch_size")
  Data,        ///< a dataset file is missing or corrupt; subject() is the file path
  Checkpoint,  ///< a checkpoint file is unreadable or does not match; subject() is the file
  Io,          ///< writing the run directory failed; subject() is the path
  Internal     ///< anything else (libtorch errors during a run)
};

/// An error with a code, the key or file it concerns, and an English message that names both.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, std::string subject, const std::string& message)
      : std::runtime_error(message), code_(code), subject_(std::move(subject)) {}
  ErrorCode code() const { return code_; }
  /// The config key or file path the error is about (may be empty).
  const std::string& subject() const { return subject_; }

 private:
  ErrorCode code_;
  std::string subject_;
};

}  // namespace trainscope

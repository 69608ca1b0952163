#pragma once
/// A process-wide request to abandon long reads (checkpoint and weight files, dataset files),
/// so that an interrupt takes effect within a fraction of a second even while a large file
/// loads. Front ends set it (the CLI's signal watcher on Ctrl-C / SIGTERM); the readers check
/// it between chunks and throw Cancelled. Torch-free and Qt-free.
#include <string>

#include "core/errors.h"

namespace trainscope {

/// Asks every cancellable read in this process to stop, from any thread (one atomic store).
/// There is no way back: the process is expected to end.
void requestCancel();

/// True once requestCancel() was called.
bool cancelRequested();

/// What a cancelled read throws: an Error (code Internal) whose subject is the file and whose
/// message says "interrupted while reading FILE". Front ends that asked for the cancel map it
/// to their interrupted state (the CLI: exit code 130).
class Cancelled : public Error {
 public:
  explicit Cancelled(const std::string& file)
      : Error(ErrorCode::Internal, file, "interrupted while reading " + file) {}
};

/// Throws Cancelled(file) when cancelRequested().
void throwIfCancelled(const std::string& file);

}  // namespace trainscope

#pragma once
/// The CLI's names for core/io/output_file.h (the RUN argument and `-o FILE` of the commands
/// that read one run folder and write one file).
#include "core/io/output_file.h"

namespace trainscope::cli {

using trainscope::checkOutputFile;
using trainscope::checkRunFolder;
using trainscope::startsWith;

}  // namespace trainscope::cli

#pragma once
/// TrainScope's own reading of a TorchScript archive before libtorch's loader sees it (issue 44
/// items 10 and 11): torch::jit::load neither checks CRCs nor record sizes against the tensors
/// they hold (a record cut short was read past its end), and it runs the module's code
/// (`__setstate__`) while loading. Internal to core/model. Torch-free header.
#include <string>
#include <vector>

namespace trainscope {

/// What the archive's code does beyond computing: each call that reads or writes files, as
/// "torch.from_file in code/__torch__/net.py", and whether it prints.
struct ScriptArchiveFacts {
  std::vector<std::string> file_operations;
  bool prints = false;
};

/// Checks the TorchScript archive `bytes` (a whole file): every record read and its CRC-32
/// verified (code records inflated), the tensors of data.pkl and constants.pkl rebuilt over
/// their storage records (a record too short for its tensors, or not a whole number of
/// elements, is refused), and the code scanned for file access (torch.from_file, torch.save:
/// libtorch's operators that touch files) and print(). Throws ZipError or PickleError naming
/// the record and the problem.
ScriptArchiveFacts checkScriptArchive(const std::vector<char>& bytes);

}  // namespace trainscope

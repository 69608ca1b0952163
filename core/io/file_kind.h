#pragma once
/// Saying what a file is not, for the messages of the torch.save readers (checkpoints,
/// --init-weights, inspect). Torch-free.
#include <string>
#include <vector>

namespace trainscope {

/// Why `bytes`, the contents of a file that does not start with a zip header, cannot be read:
/// Python's legacy (non-zip) torch.save format (a pickle; the text says how to re-save it), else
/// `not_what` ("not a PyTorch file") and what the file starts with: "not a PyTorch file (it is
/// not a zip archive, which torch.save and TrainScope write; it starts with 'a,b,c\n1,2,3')",
/// so that nobody is sent after a legacy format for a CSV file. Implemented in
/// python_weights.cpp.
std::string notZipProblem(const std::vector<char>& bytes, const std::string& not_what);

}  // namespace trainscope

#include "core/model/state_dict.h"

#include <ATen/core/grad_mode.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/nn/module.h>

#include <unordered_map>
#include <unordered_set>

#include "core/io/checkpoint_file.h"

namespace trainscope {

StateMatch matchState(const Model& model,
                      const std::vector<std::pair<std::string, at::Tensor>>& entries,
                      bool same_dtype) {
  StateMatch m;
  std::unordered_map<std::string, const at::Tensor*> file;
  for (const auto& [name, t] : entries) file.emplace(name, &t);
  const NamedTensors expected = model.state_dict();
  std::unordered_set<std::string> known;
  for (const auto& [name, target] : expected) {
    known.insert(name);
    auto it = file.find(name);
    if (it == file.end()) {
      m.problems.push_back(name + " missing from the file (model " + shapeText(target) + ")");
      continue;
    }
    const at::Tensor& source = *it->second;
    if (!source.sizes().equals(target.sizes())) {
      m.problems.push_back(name + ": file " + shapeText(source) + ", model " + shapeText(target));
    } else if (same_dtype ? source.scalar_type() != target.scalar_type()
                          : source.is_complex() && !target.is_complex()) {
      m.problems.push_back(name + ": file " + dtypeName(source.scalar_type()) + ", model " +
                           dtypeName(target.scalar_type()));
    } else {
      m.copies.emplace_back(target, source);
    }
  }
  for (const auto& [name, t] : entries)
    if (!known.count(name))
      m.problems.push_back(name + " " + shapeText(t) + " is not in the model");
  return m;
}

void applyState(const StateMatch& match) {
  torch::NoGradGuard no_grad;
  for (const auto& [target, source] : match.copies) target.copy_(source);
}

}  // namespace trainscope

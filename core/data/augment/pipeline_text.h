#pragma once
/// data.augment as torchvision code, torch-free: the run header, run.json, the report and the
/// Python export all name the transforms with these strings.
#include <cstdint>
#include <string>
#include <vector>

#include "core/config/config_fwd.h"

namespace trainscope::augment {

/// The transforms `a` turns on for images of `height` x `width`, as torchvision 0.14
/// expressions (module alias T) in the order they are applied: RandomResizedCrop or
/// RandomCrop(padding), RandomHorizontalFlip, RandomRotation, ColorJitter, e.g.
/// "T.RandomHorizontalFlip(p=0.5)". Empty when none is on.
std::vector<std::string> torchvisionTransforms(const AugmentConfig& a, int64_t height,
                                               int64_t width);

/// A number as Python's repr writes a float: the shortest text that reads back the same,
/// "1.0" for whole numbers.
std::string pythonFloat(double v);

}  // namespace trainscope::augment

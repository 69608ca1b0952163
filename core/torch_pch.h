// Precompiled header for core and its tests: the torch umbrella, compiled once per target set.
#pragma once
#include <torch/torch.h>

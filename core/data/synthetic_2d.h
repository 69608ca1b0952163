#pragma once
/// 2-D two-class synthetic sources besides moons (data.source "circles" and "spirals"),
/// deterministic from the generator loadData derives from data.seed. Internal to core.
#include <ATen/core/Generator.h>

#include "core/config/config_fwd.h"
#include "core/data/dataset.h"

namespace trainscope {

/// sklearn.datasets.make_circles(n_samples, noise, factor=0.5) construction: n/2 points on the
/// unit circle (class 0, angles linspace(0, 2 pi) without the end point) and the rest on a
/// circle of radius 0.5 (class 1), Gaussian noise of std data.noise on both coordinates.
/// x float32 [n, 2], y int64 [n].
TensorPair makeCircles(const DataConfig& c, at::Generator& gen);

/// Two interleaved spirals (class k = 0, 1): radius r = t, angle 3 pi t + k pi for t =
/// linspace(0.1, 1) (one and a half turns per arm), plus Gaussian noise of std data.noise.
/// x float32 [n, 2], y int64 [n].
TensorPair makeSpirals(const DataConfig& c, at::Generator& gen);

}  // namespace trainscope

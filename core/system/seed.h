#pragma once
/// Seeding (ARCHITECTURE §3): one seed for std RNGs, torch CPU and all CUDA generators.
#include <cstdint>

namespace trainscope {

/// Largest training seed: seeds are 0..2^31-1.
inline constexpr int64_t kMaxSeed = (int64_t{1} << 31) - 1;

/// Draws a fresh seed in 0..kMaxSeed from std::random_device (for unseeded runs).
int64_t drawSeed();

/// Seeds std::srand, torch's default CPU generator and every CUDA generator
/// (same as torch.manual_seed + random.seed).
void seedEverything(int64_t seed);

/// training.deterministic: at::globalContext().setDeterministicAlgorithms(on, /*warn_only=*/
/// false) (torch.use_deterministic_algorithms(on)); when `cuda`, also cuDNN's deterministic
/// mode and no cuDNN benchmarking (torch.backends.cudnn.deterministic / .benchmark). Process-
/// wide: set at every run start, so a run without it does not inherit an earlier run's setting.
/// With `on`, an operation without a deterministic implementation throws at its first use.
void setDeterministic(bool on, bool cuda);

}  // namespace trainscope

#pragma once
// A regression table whose target is not scaled, shaped like scikit-learn's diabetes data (442
// rows, 10 features of standard deviation 0.0476, a target around 152 with a spread of about
// 77): a healthy model's first epochs fall slowly and its gradient norm grows while its loss
// falls (the loss doctor once read that as a missing zero_grad). Header-only, torch-free; used
// by the verdict corpus and tst_loss_doctor.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace testdata {

/// Writes the table to `file` (columns age, sex, bmi, bp, s1..s6, target; a header row): rows
/// from a fixed generator (a 64-bit LCG and Box-Muller), target = 152 + x . w + N(0, 54^2) with
/// w = (-10, -240, 520, 320, -790, 480, 100, 180, 750, 70). Throws std::runtime_error when the
/// file cannot be written.
inline void writeUnscaledTargetCsv(const std::filesystem::path& file) {
  std::FILE* f = std::fopen(file.c_str(), "w");
  if (!f) throw std::runtime_error("cannot write " + file.string());
  uint64_t state = 0x9E3779B97F4A7C15ULL;
  const auto uniform = [&state] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (static_cast<double>(state >> 11) + 0.5) / 9007199254740992.0;
  };
  const auto normal = [&] {
    return std::sqrt(-2 * std::log(uniform())) * std::cos(2 * M_PI * uniform());
  };
  const double w[10] = {-10, -240, 520, 320, -790, 480, 100, 180, 750, 70};
  std::fprintf(f, "age,sex,bmi,bp,s1,s2,s3,s4,s5,s6,target\n");
  for (int row = 0; row < 442; ++row) {
    double y = 152 + 54 * normal();
    for (double wj : w) {
      const double x = 0.0476 * normal();
      y += wj * x;
      std::fprintf(f, "%.6f,", x);
    }
    std::fprintf(f, "%.3f\n", y);
  }
  if (std::fclose(f) != 0) throw std::runtime_error("cannot write " + file.string());
}

}  // namespace testdata

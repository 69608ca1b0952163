#pragma once
/// Process and machine memory (Linux /proc), and the CPU memory estimate a run checks before
/// its first step. Torch-free.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trainscope {

/// Resident set size of this process in bytes (/proc/self/statm field 2 x page size): the
/// device panel's live readout on the CPU. nullopt where /proc is unreadable.
std::optional<int64_t> residentMemoryBytes();

/// MemAvailable of /proc/meminfo in bytes (what can be allocated without swapping).
std::optional<int64_t> availableMemoryBytes();

/// MemAvailable (kB, converted to bytes) in a /proc/meminfo text; nullopt when absent.
std::optional<int64_t> memAvailableIn(const std::string& meminfo);
/// The value of `field` ("MemTotal", "SwapTotal"; kB, converted to bytes) in a /proc/meminfo
/// text; nullopt when absent.
std::optional<int64_t> memInfoField(const std::string& meminfo, const std::string& field);
/// MemTotal + SwapTotal of /proc/meminfo in bytes: more than this can never be allocated.
std::optional<int64_t> totalMemoryBytes();

/// What a run needs on the CPU, in bytes (float32 everywhere).
struct MemoryEstimate {
  int64_t parameters = 0;       ///< parameters (4 bytes each)
  int64_t gradients = 0;        ///< the flat gradient buffer (same size)
  int64_t optimizer_state = 0;  ///< OptimizerKind::state_buffers x the parameters
  int64_t activations = 0;      ///< forward outputs kept for backward, and their gradients
  int64_t data = 0;             ///< the loaded splits (inputs + targets)
  int64_t total() const { return parameters + gradients + optimizer_state + activations + data; }
};

/// What a model kind needs per run, known before it is built (the model kind's footprint in
/// core/config/kinds.h): float32 scalars.
struct ModelFootprint {
  int64_t parameters = 0;                    ///< parameter scalars
  int64_t activation_floats_per_sample = 0;  ///< forward outputs kept for backward + gradients
};

/// The footprint of an MLP with `layer_widths` = {inputs, hidden..., outputs}: per layer the
/// linear output, the activation output (and dropout mask) and their gradients, 4 x width
/// floats per sample, plus the input.
ModelFootprint mlpFootprint(const std::vector<int64_t>& layer_widths);

/// Estimates the memory of a model of `footprint` trained in batches of `batch_size` with
/// the optimizer named `optimizer` with `momentum` (its state buffers: core/config/kinds.h;
/// 2, as Adam, for an unknown name), `data_bytes` of loaded data.
MemoryEstimate estimateFootprintMemory(const ModelFootprint& footprint, int64_t batch_size,
                              const std::string& optimizer, double momentum, int64_t data_bytes);
/// estimateFootprintMemory(mlpFootprint(layer_widths), ...).
MemoryEstimate estimateMemory(const std::vector<int64_t>& layer_widths, int64_t batch_size,
                              const std::string& optimizer, double momentum, int64_t data_bytes);

/// "1.2 GB", "340 MB", "12 kB": a byte count for messages (decimal units).
std::string formatBytes(int64_t bytes);

/// English warning when `estimate` exceeds `available` bytes, else empty: names both sizes,
/// the largest part and what to do (smaller batch_size with grad_accum_steps, smaller model).
std::string memoryWarning(const MemoryEstimate& estimate, int64_t available);

}  // namespace trainscope

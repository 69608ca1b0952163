#pragma once
/// Process and machine memory (Linux /proc), a model kind's footprint and byte counts for
/// messages. What a run needs in all: core/train/loop/memory_estimate.h. Torch-free.
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

/// "1.2 GB", "340 MB", "12 kB": a byte count for messages (decimal units).
std::string formatBytes(int64_t bytes);

}  // namespace trainscope

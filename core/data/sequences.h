#pragma once
/// Generated sequence sources (rows of core/config/kinds.h dataSources() with sequence_data):
/// samples x [T, F] for the recurrent kind. Torch types: internal to core/data.
#include "core/config/config_fwd.h"
#include "core/data/sources.h"

namespace trainscope {

/// "sine-sequence": next-value prediction of a noisy sine wave. Per sample a phase
/// U(0, 2 pi) and an angular frequency U(0.1, 0.3) radians per step; the values
/// s_t = sin(phase + frequency * t) + noise * N(0, 1) for t = 0..seq_len; x = s_0..s_{seq_len-1}
/// as float32 [n_samples, seq_len, 1], y = s_{seq_len} as float32 [n_samples, 1] (regression).
/// Drawn from data.seed's generate stream only (the same seed gives the same samples).
void loadSineSequenceSource(const DataConfig& config, SourceData& out);

}  // namespace trainscope

#pragma once
/// The "rnn" model kind (core/config/kinds.h, keys model.rnn.*): a recurrent network for
/// sequence data [T, F].
#include <cstdint>
#include <memory>
#include <vector>

#include "core/config/config_fwd.h"
#include "core/system/memory.h"

namespace trainscope {

class Model;

/// A recurrent network equal to this Python module (same children, so the same state_dict
/// names "rnn.weight_ih_l0", "rnn.weight_hh_l0", "rnn.bias_ih_l0", "rnn.bias_hh_l0" (and
/// "..._reverse" with bidirectional), "head.weight", "head.bias"; and from the same seed the same
/// initial weights, libtorch's RNN/LSTM/GRU and Linear initialising as torch.nn's):
///   class RnnNet(nn.Module):
///       def __init__(self):
///           super().__init__()
///           self.rnn = nn.LSTM(F, hidden_size, num_layers, batch_first=True,   # or nn.RNN
///                              dropout=dropout, bidirectional=bidirectional)  # (nonlinearity),
///           self.drop = nn.Dropout(model.dropout)                             # nn.GRU
///           self.head = nn.Linear(hidden_size * (2 if bidirectional else 1), outputs)
///       def forward(self, x):
///           out, _ = self.rnn(x)
///           return self.head(self.drop(out[:, -1]))   # output "mean": out.mean(1)
/// (self.drop only when model.dropout > 0; it has no state.) Input float32 [N, T, F]
/// (`input_shape` [T, F]), output float32 [N, outputs]. Throws Error(Config, "model.kind") when
/// the samples are not sequences [T, F], Error(Config, "model.rnn.dropout") for dropout with
/// one layer (torch.nn warns; it would do nothing).
std::shared_ptr<Model> buildRnn(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs);

/// Parameters of buildRnn(...) (exact) and its activations (per layer and direction the gates
/// and states of every time step, kept for backward, and their gradients), without building
/// it. Throws what buildRnn throws for shapes.
ModelFootprint rnnKindFootprint(const ModelConfig& config, const std::vector<int64_t>& input_shape,
                                const std::vector<int64_t>& image_shape, int64_t outputs);

}  // namespace trainscope

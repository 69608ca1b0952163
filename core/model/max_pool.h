#pragma once
/// torch::nn::MaxPool2d with a faster CPU forward pass for the CNN kind's pooling (internal to
/// core/model; torch types).
#include <torch/nn/modules/pooling.h>

namespace trainscope {

/// Exactly torch.nn.MaxPool2d (it is one: `as<torch::nn::MaxPool2d>()` finds it, pretty_print
/// and options are MaxPool2d's, it has no parameters or buffers, so state_dicts are unchanged).
/// Forward on CPU, float32/float64, contiguous [N, C, H, W] input, with stride == kernel_size,
/// padding 0, dilation 1 and ceil_mode false (model.cnn's MaxPool2d(pool_size)): its own loop
/// over each window, which gives bit for bit the values and argmax indices of ATen's
/// max_pool2d_with_indices (the same scan order, -inf start, NaN wins, first maximum kept) at a
/// fraction of the cost (libtorch 1.13's NCHW kernel takes ~10x longer than its channels-last
/// one); the gradient is ATen's max_pool2d_with_indices_backward on those indices, so training
/// is bit-identical to torch.nn.MaxPool2d. Every other case runs MaxPool2d's own forward. No
/// double backward (create_graph through this layer throws).
class FastMaxPool2dImpl : public torch::nn::MaxPool2dImpl {
 public:
  using torch::nn::MaxPool2dImpl::MaxPool2dImpl;

  /// Input [N, C, H, W] (or what MaxPool2d accepts), output [N, C, H/k, W/k] in the fast case.
  torch::Tensor forward(const torch::Tensor& input);

  /// A FastMaxPool2d with the same options (MaxPool2d's clone would lose the type, which
  /// Sequential::clone needs).
  std::shared_ptr<torch::nn::Module> clone(
      const torch::optional<torch::Device>& device = torch::nullopt) const override;
};
TORCH_MODULE(FastMaxPool2d);

/// The fast case's forward without autograd: values [N, C, OH, OW] and, when `with_indices`,
/// int64 indices into each H*W plane as max_pool2d_with_indices returns them (else undefined).
/// Preconditions as above (checked: throws c10::Error otherwise). Exposed for its test.
std::pair<torch::Tensor, torch::Tensor> maxPool2dWindowed(const torch::Tensor& input,
                                                          int64_t kernel, bool with_indices);

}  // namespace trainscope

#pragma once
/// A faster CPU kernel for aten::max_pool2d_with_indices, the op behind torch.nn.MaxPool2d,
/// F.max_pool2d and TorchScript's max_pool2d (internal to core/model; torch types).
#include <ATen/core/Tensor.h>

#include <utility>

namespace trainscope {

/// Registers TrainScope's CPU kernel for aten::max_pool2d_with_indices with libtorch's
/// dispatcher (once per process; later calls do nothing; thread-safe), so every max pooling
/// of the process uses it: the CNN kind's nn::MaxPool2d, a TorchScript model's pooling, the
/// no-grad and autograd paths alike. Why: libtorch 1.13's kernel for contiguous
/// [N, C, H, W] input takes ~28 ms for a [64, 32, 28, 28] batch (its channels-last kernel:
/// 2.6 ms; a ReLU on the same tensor: 1.3 ms), ~27% of a fashion-mnist-cnn step.
/// The kernel takes contiguous float32/float64 [N, C, H, W] or [C, H, W] input with padding
/// 0, dilation 1 and ceil_mode false (any kernel size and stride that fit): it scans each
/// window as ATen's cpu_max_pool does (rows then columns, -inf start, NaN wins, the first
/// maximum kept), so values and indices are ATen's bit for bit, and the gradient stays
/// ATen's max_pool2d_with_indices_backward on those indices. Every other case (channels-last,
/// padding, dilation, ceil_mode, bfloat16, bad arguments and their errors) runs ATen's own
/// kernel through the op's out= variant. The dispatcher's "overriding a kernel" warning is
/// not printed.
void installFastMaxPool();

/// The fast case's forward alone, without the dispatcher: values and, when `with_indices`,
/// int64 indices into each H*W plane as max_pool2d_with_indices returns them (else
/// undefined). `input` contiguous CPU float32/float64 [N, C, H, W] or [C, H, W]; kernel
/// (kh, kw) and stride (sh, sw) >= 1 with H >= kh and W >= kw. Throws c10::Error otherwise.
std::pair<at::Tensor, at::Tensor> maxPool2dWindowed(const at::Tensor& input, int64_t kh,
                                                    int64_t kw, int64_t sh, int64_t sw,
                                                    bool with_indices);

}  // namespace trainscope

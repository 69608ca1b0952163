#pragma once
/// Grad-CAM (Selvaraju et al. 2017, "Grad-CAM: Visual Explanations from Deep Networks via
/// Gradient-based Localization"; issue 49 §3): where a CNN looks for a class. For the feature
/// maps A_k [h, w] of the last convolution block (its activation's output) and the class
/// score y_c (the logit), the weights alpha_k = mean over (i, j) of dy_c / dA_k(i, j), the map
/// sum_k alpha_k A_k, upsampled bilinearly (align_corners false, as torch.nn.functional.
/// interpolate) to the image size. Signed here: Grad-CAM's ReLU (what pushes towards the class
/// only) is the caller's choice, as Captum's LayerGradCam(relu_attributions=...) leaves it.
#include <ATen/core/Tensor.h>

#include <cstdint>

namespace trainscope {

class Model;

/// Signed Grad-CAM maps of `input` (float32 [N, ...] as the model takes it) for `classes`
/// (int64 [N]): float32 [N, H, W] at the image size `height` x `width`, in eval mode with
/// the model's mode restored, on the feature maps of Model::camLayer() (the cnn kind: its last
/// convolution block's activation; a TorchScript module: model.torchscript.grad_cam_layer,
/// else its last nn.Conv2d's output). The gradients are torch::autograd::grad's: the
/// parameters' .grad stay untouched. Throws Error(Config, "model.kind") for a model without
/// such a layer.
at::Tensor gradCam(Model& model, const at::Tensor& input, const at::Tensor& classes,
                   int64_t height, int64_t width);

}  // namespace trainscope

#pragma once
/// torchvision.transforms.functional (0.14, the tensor backend) for images as float32
/// [..., C, H, W] tensors with values in [0, 1] (what ToTensor gives): the same operations in
/// the same order of floating-point steps, so that with equal inputs the outputs are equal
/// (flip, crop, pad, colour adjustments, rotation) or equal up to libtorch's own kernels
/// (resize: the same ATen kernels torch.nn.functional.interpolate calls). Internal to
/// core/data (torch types).
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>

namespace trainscope::augment {

/// How a resize samples (torchvision's InterpolationMode; "area" is torch's interpolate
/// mode="area", an adaptive average pool).
enum class Interpolation { Nearest, Bilinear, Bicubic, Area };

/// "nearest" | "bilinear" | "bicubic" | "area" -> the mode; throws std::invalid_argument.
Interpolation interpolationFromName(const std::string& name);
const char* interpolationName(Interpolation mode);

/// F.hflip: the last dimension reversed.
at::Tensor hflip(const at::Tensor& img);

/// F.pad(img, padding, fill=0, padding_mode="constant"): `padding` zero pixels on every side.
at::Tensor pad(const at::Tensor& img, int64_t padding);

/// F.crop(img, top, left, height, width) for a box inside the image (the transforms draw
/// boxes inside it).
at::Tensor crop(const at::Tensor& img, int64_t top, int64_t left, int64_t height, int64_t width);

/// F.resize(img, [height, width], interpolation, antialias) on the tensor backend: float32
/// [C, H, W] or [N, C, H, W] in, same dtype out; a uint8 image is computed in float32 and
/// rounded back (torchvision's _cast_squeeze_out; bicubic clamped to 0..255 first).
/// Antialiasing applies to bilinear and bicubic only (as torch's interpolate).
at::Tensor resize(const at::Tensor& img, int64_t height, int64_t width, Interpolation mode,
                  bool antialias);

/// F.rgb_to_grayscale(img, 1): 0.2989 R + 0.587 G + 0.114 B, [..., 1, H, W].
at::Tensor rgbToGrayscale(const at::Tensor& img);

/// F.adjust_brightness / adjust_contrast / adjust_saturation / adjust_hue (tensor backend):
/// a blend with black, with the grayscale image's mean, with the grayscale image, and a hue
/// rotation through HSV, clamped to [0, 1]. Saturation and hue leave a one-channel image
/// unchanged, as torchvision does. `hue` in [-0.5, 0.5].
at::Tensor adjustBrightness(const at::Tensor& img, double factor);
at::Tensor adjustContrast(const at::Tensor& img, double factor);
at::Tensor adjustSaturation(const at::Tensor& img, double factor);
at::Tensor adjustHue(const at::Tensor& img, double hue);

/// F.rotate(img, angle) with torchvision's defaults: counter-clockwise by `degrees` about
/// the image centre, nearest sampling, same size (expand False), pixels from outside filled
/// with 0. Float32 [C, H, W].
at::Tensor rotate(const at::Tensor& img, double degrees);

}  // namespace trainscope::augment

// torchvision 0.14's transforms/functional_tensor.py, step by step (each function names the
// Python function it follows).
#include "core/data/augment/functional.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

namespace trainscope::augment {
namespace {

/// _blend(img1, img2, ratio): (ratio * img1 + (1 - ratio) * img2).clamp(0, 1) for float images.
at::Tensor blend(const at::Tensor& img1, const at::Tensor& img2, double ratio) {
  return (img1 * ratio + img2 * (1.0 - ratio)).clamp(0.0, 1.0);
}

int64_t channels(const at::Tensor& img) { return img.size(-3); }

/// _rgb2hsv
at::Tensor rgbToHsv(const at::Tensor& img) {
  const auto rgb = img.unbind(-3);
  const at::Tensor &r = rgb[0], &g = rgb[1], &b = rgb[2];
  const at::Tensor maxc = std::get<0>(at::max(img, -3));
  const at::Tensor minc = std::get<0>(at::min(img, -3));
  const at::Tensor eqc = maxc == minc;
  const at::Tensor cr = maxc - minc;
  const at::Tensor ones = at::ones_like(maxc);
  const at::Tensor s = cr / at::where(eqc, ones, maxc);
  const at::Tensor cr_divisor = at::where(eqc, ones, cr);
  const at::Tensor rc = (maxc - r) / cr_divisor;
  const at::Tensor gc = (maxc - g) / cr_divisor;
  const at::Tensor bc = (maxc - b) / cr_divisor;
  const at::Tensor hr = (maxc == r) * (bc - gc);
  const at::Tensor hg = ((maxc == g) & (maxc != r)) * (rc + 2.0 - bc);
  const at::Tensor hb = ((maxc != g) & (maxc != r)) * (gc + 4.0 - rc);
  at::Tensor h = hr + hg + hb;
  h = at::fmod(h / 6.0 + 1.0, 1.0);
  return at::stack({h, s, maxc}, -3);
}

/// _hsv2rgb
at::Tensor hsvToRgb(const at::Tensor& img) {
  const auto hsv = img.unbind(-3);
  const at::Tensor &h = hsv[0], &s = hsv[1], &v = hsv[2];
  at::Tensor i = at::floor(h * 6.0);
  const at::Tensor f = h * 6.0 - i;
  i = i.to(at::kInt);
  const at::Tensor p = at::clamp(v * (1.0 - s), 0.0, 1.0);
  const at::Tensor q = at::clamp(v * (1.0 - s * f), 0.0, 1.0);
  const at::Tensor t = at::clamp(v * (1.0 - s * (1.0 - f)), 0.0, 1.0);
  i = i.remainder(6);
  const at::Tensor mask =
      i.unsqueeze(-3) == at::arange(6, at::TensorOptions().dtype(at::kLong)).view({-1, 1, 1});
  const at::Tensor a1 = at::stack({v, q, p, p, t, v}, -3);
  const at::Tensor a2 = at::stack({t, v, v, q, p, p}, -3);
  const at::Tensor a3 = at::stack({p, p, t, v, v, q}, -3);
  const at::Tensor a4 = at::stack({a1, a2, a3}, -4);
  return at::einsum("...ijk, ...xijk -> ...xjk", {mask.to(img.scalar_type()), a4});
}

}  // namespace

Interpolation interpolationFromName(const std::string& name) {
  if (name == "nearest") return Interpolation::Nearest;
  if (name == "bilinear") return Interpolation::Bilinear;
  if (name == "bicubic") return Interpolation::Bicubic;
  if (name == "area") return Interpolation::Area;
  throw std::invalid_argument("unknown interpolation \"" + name +
                              "\" (nearest, bilinear, bicubic or area)");
}

const char* interpolationName(Interpolation mode) {
  switch (mode) {
    case Interpolation::Nearest: return "nearest";
    case Interpolation::Bilinear: return "bilinear";
    case Interpolation::Bicubic: return "bicubic";
    case Interpolation::Area: return "area";
  }
  return "bilinear";
}

at::Tensor hflip(const at::Tensor& img) { return img.flip({-1}); }

at::Tensor pad(const at::Tensor& img, int64_t padding) {
  if (padding <= 0) return img;
  return at::constant_pad_nd(img, {padding, padding, padding, padding}, 0);
}

at::Tensor crop(const at::Tensor& img, int64_t top, int64_t left, int64_t height, int64_t width) {
  return img.narrow(-2, top, height).narrow(-1, left, width);
}

at::Tensor resize(const at::Tensor& img, int64_t height, int64_t width, Interpolation mode,
                  bool antialias) {
  // _cast_squeeze_in: a batch of one, float32 for integer images
  const bool squeeze = img.dim() == 3;
  const bool cast = !at::isFloatingType(img.scalar_type());
  at::Tensor x = squeeze ? img.unsqueeze(0) : img;
  if (cast) x = x.to(at::kFloat);
  const std::vector<int64_t> size{height, width};
  switch (mode) {
    case Interpolation::Nearest:
      x = at::upsample_nearest2d(x, size, c10::nullopt, c10::nullopt);
      break;
    case Interpolation::Bilinear:
      x = antialias ? at::_upsample_bilinear2d_aa(x, size, false, c10::nullopt, c10::nullopt)
                    : at::upsample_bilinear2d(x, size, false, c10::nullopt, c10::nullopt);
      break;
    case Interpolation::Bicubic:
      x = antialias ? at::_upsample_bicubic2d_aa(x, size, false, c10::nullopt, c10::nullopt)
                    : at::upsample_bicubic2d(x, size, false, c10::nullopt, c10::nullopt);
      if (cast && img.scalar_type() == at::kByte) x = x.clamp(0, 255);
      break;
    case Interpolation::Area:
      x = at::adaptive_avg_pool2d(x, size);
      break;
  }
  if (squeeze) x = x.squeeze(0);
  if (cast) x = at::round(x).to(img.scalar_type());  // "it is better to round before cast"
  return x;
}

at::Tensor rgbToGrayscale(const at::Tensor& img) {
  const auto rgb = img.unbind(-3);
  return (rgb[0] * 0.2989 + rgb[1] * 0.587 + rgb[2] * 0.114).to(img.scalar_type()).unsqueeze(-3);
}

at::Tensor adjustBrightness(const at::Tensor& img, double factor) {
  return blend(img, at::zeros_like(img), factor);
}

at::Tensor adjustContrast(const at::Tensor& img, double factor) {
  const at::Tensor gray = channels(img) == 3 ? rgbToGrayscale(img) : img;
  const at::Tensor mean = at::mean(gray, {-3, -2, -1}, /*keepdim=*/true);
  return blend(img, mean, factor);
}

at::Tensor adjustSaturation(const at::Tensor& img, double factor) {
  if (channels(img) == 1) return img;  // "Match PIL behaviour"
  return blend(img, rgbToGrayscale(img), factor);
}

at::Tensor adjustHue(const at::Tensor& img, double hue) {
  if (channels(img) == 1) return img;
  const auto hsv = rgbToHsv(img).unbind(-3);
  const at::Tensor h = at::remainder(hsv[0] + hue, 1.0);
  return hsvToRgb(at::stack({h, hsv[1], hsv[2]}, -3));
}

at::Tensor rotate(const at::Tensor& img, double degrees) {
  // functional.rotate: _get_inverse_affine_matrix(center [0, 0], -angle, no translate, scale
  // 1, no shear), written out:
  const double rot = -degrees * M_PI / 180.0;
  const double a = std::cos(rot), b = -std::sin(rot), c = std::sin(rot), d = std::cos(rot);
  const double matrix[6] = {d, -b, 0.0, -c, a, 0.0};
  const int64_t h = img.size(-2), w = img.size(-1);
  const at::Tensor theta =
      at::tensor(at::ArrayRef<double>(matrix, 6), at::TensorOptions().dtype(at::kDouble))
          .to(at::kFloat)
          .reshape({1, 2, 3});
  // _gen_affine_grid(theta, w, h, ow=w, oh=h)
  const double half = 0.5;
  at::Tensor base = at::empty({1, h, w, 3}, at::TensorOptions().dtype(at::kFloat));  // CPU
  base.select(3, 0).copy_(at::linspace(-w * 0.5 + half, w * 0.5 + half - 1, w));
  base.select(3, 1).copy_(at::linspace(-h * 0.5 + half, h * 0.5 + half - 1, h).unsqueeze_(-1));
  base.select(3, 2).fill_(1);
  const at::Tensor scale = at::tensor({0.5 * w, 0.5 * h}, at::TensorOptions().dtype(at::kDouble))
                               .to(at::kFloat);
  const at::Tensor rescaled = theta.transpose(1, 2) / scale;
  const at::Tensor grid =
      base.view({1, h * w, 3}).bmm(rescaled).view({1, h, w, 2}).to(img.device());
  // _apply_grid_transform(mode nearest, fill 0): the fill mask only re-zeroes what "zeros"
  // padding already made 0.
  const bool squeeze = img.dim() == 3;
  at::Tensor x = squeeze ? img.unsqueeze(0) : img;
  x = at::grid_sampler(x, grid.expand({x.size(0), h, w, 2}), /*interpolation nearest*/ 1,
                       /*padding zeros*/ 0, /*align_corners=*/false);
  return squeeze ? x.squeeze(0) : x;
}

}  // namespace trainscope::augment

#include "core/model/max_pool.h"

#include <ATen/Functions.h>
#include <ATen/Parallel.h>
#include <c10/util/Exception.h>
#include <torch/library.h>

#include <cmath>
#include <limits>
#include <optional>

namespace trainscope {
namespace {

struct Window {
  int64_t kh, kw, sh, sw;
};

/// One thread's share of planes (n, c): per output element its window scanned row by row, as
/// ATen's cpu_max_pool does (aten/src/ATen/native/cpu/MaxPoolKernel.cpp, 1.13).
template <typename T, int KH, int KW>
void poolPlanes(const T* in, T* out, int64_t* indices, int64_t begin, int64_t end, int64_t H,
                int64_t W, Window w, int64_t OH, int64_t OW) {
  const int64_t kh = KH > 0 ? KH : w.kh, kw = KW > 0 ? KW : w.kw;
  for (int64_t p = begin; p < end; ++p) {
    const T* plane = in + p * H * W;
    T* o = out + p * OH * OW;
    int64_t* ix = indices ? indices + p * OH * OW : nullptr;
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t ih0 = oh * w.sh;
      for (int64_t ow = 0; ow < OW; ++ow) {
        const int64_t iw0 = ow * w.sw;
        int64_t max_index = ih0 * W + iw0;
        T max_value = -std::numeric_limits<T>::infinity();
        for (int64_t ih = ih0; ih < ih0 + kh; ++ih) {
          for (int64_t iw = iw0; iw < iw0 + kw; ++iw) {
            const int64_t index = ih * W + iw;
            const T value = plane[index];
            if ((value > max_value) || std::isnan(value)) {
              max_value = value;
              max_index = index;
            }
          }
        }
        o[oh * OW + ow] = max_value;
        if (ix) ix[oh * OW + ow] = max_index;
      }
    }
  }
}

template <typename T>
void poolAll(const at::Tensor& input, at::Tensor& out, at::Tensor& indices, Window w) {
  const int64_t H = input.size(-2), W = input.size(-1), OH = out.size(-2), OW = out.size(-1);
  const int64_t planes = H * W > 0 ? input.numel() / (H * W) : 0;
  const T* in = input.data_ptr<T>();
  T* o = out.data_ptr<T>();
  int64_t* ix = indices.defined() ? indices.data_ptr<int64_t>() : nullptr;
  // Each output depends on its own window only: any split over threads gives the same bits.
  at::parallel_for(0, planes, 1, [&](int64_t begin, int64_t end) {
    if (w.kh == 2 && w.kw == 2)
      poolPlanes<T, 2, 2>(in, o, ix, begin, end, H, W, w, OH, OW);
    else
      poolPlanes<T, 0, 0>(in, o, ix, begin, end, H, W, w, OH, OW);
  });
}

/// The window of a call the fast kernel takes, as ATen's meta function reads the arguments
/// (a single value for both sides; an empty stride = the kernel), or nothing.
std::optional<Window> fastWindow(const at::Tensor& self, at::IntArrayRef kernel_size,
                                 at::IntArrayRef stride, at::IntArrayRef padding,
                                 at::IntArrayRef dilation, bool ceil_mode) {
  if (ceil_mode || (self.dim() != 3 && self.dim() != 4) || !self.is_contiguous() ||
      self.has_names() || self.numel() == 0 ||
      (self.scalar_type() != at::kFloat && self.scalar_type() != at::kDouble))
    return std::nullopt;
  if (kernel_size.empty() || kernel_size.size() > 2 || stride.size() > 2 || padding.empty() ||
      padding.size() > 2 || dilation.empty() || dilation.size() > 2)
    return std::nullopt;
  for (int64_t p : padding)
    if (p != 0) return std::nullopt;
  for (int64_t d : dilation)
    if (d != 1) return std::nullopt;
  Window w;
  w.kh = kernel_size[0];
  w.kw = kernel_size.size() == 1 ? w.kh : kernel_size[1];
  w.sh = stride.empty() ? w.kh : stride[0];
  w.sw = stride.empty() ? w.kw : (stride.size() == 1 ? w.sh : stride[1]);
  const int64_t limit = std::numeric_limits<int>::max();  // ATen narrows them to int
  if (w.kh < 1 || w.kw < 1 || w.sh < 1 || w.sw < 1 || w.kh > limit || w.kw > limit ||
      w.sh > limit || w.sw > limit || self.size(-2) < w.kh || self.size(-1) < w.kw)
    return std::nullopt;
  return w;
}

std::tuple<at::Tensor, at::Tensor> maxPool2dWithIndicesCpu(const at::Tensor& self,
                                                           at::IntArrayRef kernel_size,
                                                           at::IntArrayRef stride,
                                                           at::IntArrayRef padding,
                                                           at::IntArrayRef dilation,
                                                           bool ceil_mode) {
  if (const auto w = fastWindow(self, kernel_size, stride, padding, dilation, ceil_mode)) {
    auto [out, indices] = maxPool2dWindowed(self, w->kh, w->kw, w->sh, w->sw, true);
    return {out, indices};
  }
  // ATen's own kernel, its checks and errors: the out= variant is not overridden.
  at::Tensor out = at::empty({0}, self.options());
  at::Tensor indices = at::empty({0}, self.options().dtype(at::kLong));
  at::max_pool2d_with_indices_outf(self, kernel_size, stride, padding, dilation, ceil_mode, out,
                                   indices);
  return {out, indices};
}

/// Swallows the dispatcher's "Overriding a previously registered kernel" warning.
class SilentWarnings : public c10::WarningHandler {
 public:
  void process(const c10::SourceLocation&, const std::string&, const bool) override {}
};

}  // namespace

std::pair<at::Tensor, at::Tensor> maxPool2dWindowed(const at::Tensor& input, int64_t kh,
                                                    int64_t kw, int64_t sh, int64_t sw,
                                                    bool with_indices) {
  TORCH_CHECK((input.dim() == 3 || input.dim() == 4) && input.is_contiguous() &&
                  input.device().is_cpu() && kh >= 1 && kw >= 1 && sh >= 1 && sw >= 1 &&
                  input.size(-2) >= kh && input.size(-1) >= kw,
              "maxPool2dWindowed: contiguous CPU [N, C, H, W] or [C, H, W] with H >= kernel "
              "height and W >= kernel width expected");
  const int64_t OH = (input.size(-2) - kh) / sh + 1;
  const int64_t OW = (input.size(-1) - kw) / sw + 1;
  std::vector<int64_t> sizes = input.sizes().vec();
  sizes[sizes.size() - 2] = OH;
  sizes[sizes.size() - 1] = OW;
  at::Tensor out = at::empty(sizes, input.options());
  at::Tensor indices;
  if (with_indices) indices = at::empty(sizes, input.options().dtype(at::kLong));
  const Window w{kh, kw, sh, sw};
  if (input.scalar_type() == at::kFloat)
    poolAll<float>(input, out, indices, w);
  else if (input.scalar_type() == at::kDouble)
    poolAll<double>(input, out, indices, w);
  else
    TORCH_CHECK(false, "maxPool2dWindowed: float32 or float64 expected");
  return {out, indices};
}

void installFastMaxPool() {
  static const bool installed = [] {
    SilentWarnings silent;
    c10::Warning::WarningHandlerGuard guard(&silent);
    // Kept for the life of the process: destroying it would restore ATen's kernel.
    static torch::Library library(torch::Library::IMPL, "aten", c10::DispatchKey::CPU, __FILE__,
                                  __LINE__);
    library.impl("max_pool2d_with_indices", TORCH_FN(maxPool2dWithIndicesCpu));
    return true;
  }();
  (void)installed;
}

}  // namespace trainscope

#include "core/model/max_pool.h"

#include <ATen/Parallel.h>
#include <torch/autograd.h>

#include <cmath>
#include <limits>

namespace trainscope {
namespace {

/// One thread's share of planes (n, c): per output element the window scanned row by row, as
/// ATen's cpu_max_pool does (aten/src/ATen/native/cpu/MaxPoolKernel.cpp, 1.13).
template <typename T, int K>
void poolPlanes(const T* in, T* out, int64_t* indices, int64_t begin, int64_t end, int64_t H,
                int64_t W, int64_t k_runtime, int64_t OH, int64_t OW) {
  const int64_t k = K > 0 ? K : k_runtime;
  for (int64_t p = begin; p < end; ++p) {
    const T* plane = in + p * H * W;
    T* o = out + p * OH * OW;
    int64_t* ix = indices ? indices + p * OH * OW : nullptr;
    for (int64_t oh = 0; oh < OH; ++oh) {
      const int64_t ih0 = oh * k;
      for (int64_t ow = 0; ow < OW; ++ow) {
        const int64_t iw0 = ow * k;
        int64_t max_index = ih0 * W + iw0;
        T max_value = -std::numeric_limits<T>::infinity();
        for (int64_t ih = ih0; ih < ih0 + k; ++ih) {
          for (int64_t iw = iw0; iw < iw0 + k; ++iw) {
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
void poolAll(const torch::Tensor& input, torch::Tensor& out, torch::Tensor& indices, int64_t k) {
  const int64_t planes = input.size(0) * input.size(1);
  const int64_t H = input.size(2), W = input.size(3), OH = out.size(2), OW = out.size(3);
  const T* in = input.data_ptr<T>();
  T* o = out.data_ptr<T>();
  int64_t* ix = indices.defined() ? indices.data_ptr<int64_t>() : nullptr;
  // Each output depends on its own window only: any split over threads gives the same bits.
  at::parallel_for(0, planes, 1, [&](int64_t begin, int64_t end) {
    if (k == 2)
      poolPlanes<T, 2>(in, o, ix, begin, end, H, W, k, OH, OW);
    else
      poolPlanes<T, 0>(in, o, ix, begin, end, H, W, k, OH, OW);
  });
}

bool fastCase(const torch::nn::MaxPool2dOptions& o, const torch::Tensor& x) {
  const auto& k = *o.kernel_size();
  const auto& s = *o.stride();
  const auto& pad = *o.padding();
  const auto& d = *o.dilation();
  return x.defined() && x.device().is_cpu() && x.dim() == 4 && x.is_contiguous() &&
         (x.scalar_type() == at::kFloat || x.scalar_type() == at::kDouble) && k[0] == k[1] &&
         k[0] >= 1 && s[0] == k[0] && s[1] == k[1] && pad[0] == 0 && pad[1] == 0 && d[0] == 1 &&
         d[1] == 1 && !o.ceil_mode() && x.size(2) >= k[0] && x.size(3) >= k[1] &&
         x.numel() > 0;
}

/// The fast forward as an autograd function; backward is ATen's on the saved indices.
struct MaxPool2dFunction : public torch::autograd::Function<MaxPool2dFunction> {
  static torch::Tensor forward(torch::autograd::AutogradContext* ctx, const torch::Tensor& input,
                               int64_t kernel) {
    auto [out, indices] = maxPool2dWindowed(input, kernel, true);
    ctx->save_for_backward({input, indices});
    ctx->saved_data["kernel"] = kernel;
    return out;
  }

  static torch::autograd::tensor_list backward(torch::autograd::AutogradContext* ctx,
                                               torch::autograd::tensor_list grads) {
    const auto saved = ctx->get_saved_variables();
    const int64_t k = ctx->saved_data["kernel"].toInt();
    torch::Tensor grad_input = at::max_pool2d_with_indices_backward(
        grads[0].contiguous(), saved[0], {k, k}, {k, k}, {0, 0}, {1, 1}, false, saved[1]);
    return {grad_input, torch::Tensor()};
  }
};

}  // namespace

std::pair<torch::Tensor, torch::Tensor> maxPool2dWindowed(const torch::Tensor& input,
                                                          int64_t kernel, bool with_indices) {
  TORCH_CHECK(input.dim() == 4 && input.is_contiguous() && input.device().is_cpu() &&
                  kernel >= 1 && input.size(2) >= kernel && input.size(3) >= kernel,
              "maxPool2dWindowed: contiguous CPU [N, C, H, W] with H, W >= kernel expected");
  const int64_t OH = (input.size(2) - kernel) / kernel + 1;
  const int64_t OW = (input.size(3) - kernel) / kernel + 1;
  torch::Tensor out = torch::empty({input.size(0), input.size(1), OH, OW}, input.options());
  torch::Tensor indices;
  if (with_indices) indices = torch::empty(out.sizes(), input.options().dtype(at::kLong));
  if (input.scalar_type() == at::kFloat)
    poolAll<float>(input, out, indices, kernel);
  else if (input.scalar_type() == at::kDouble)
    poolAll<double>(input, out, indices, kernel);
  else
    TORCH_CHECK(false, "maxPool2dWindowed: float32 or float64 expected");
  return {out, indices};
}

torch::Tensor FastMaxPool2dImpl::forward(const torch::Tensor& input) {
  if (!fastCase(options, input)) return torch::nn::MaxPool2dImpl::forward(input);
  const int64_t k = (*options.kernel_size())[0];
  if (!torch::GradMode::is_enabled() || !input.requires_grad())
    return maxPool2dWindowed(input, k, false).first;
  return MaxPool2dFunction::apply(input, k);
}

std::shared_ptr<torch::nn::Module> FastMaxPool2dImpl::clone(
    const torch::optional<torch::Device>& /*device*/) const {
  return std::make_shared<FastMaxPool2dImpl>(options);
}

}  // namespace trainscope

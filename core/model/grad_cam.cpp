// Grad-CAM on the last convolution block of a chain of layers.
#include "core/model/grad_cam.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>
#include <torch/utils.h>

#include "core/errors.h"
#include "core/model/model.h"

namespace trainscope {

at::Tensor gradCam(Model& model, const at::Tensor& input, const at::Tensor& classes,
                   int64_t height, int64_t width) {
  if (model.camLayer().empty()) (void)model.camForward(input);  // throws, naming the kind
  const bool was_training = model.is_training();
  model.train(false);
  at::Tensor cams;
  try {
    torch::AutoGradMode grad(true);
    const auto [maps, out] = model.camForward(input);
    if (maps.dim() != 4)
      throw Error(ErrorCode::Config, "model.kind",
                  "Grad-CAM needs feature maps [N, K, h, w]; layer " + model.camLayer() +
                      " gives " + std::to_string(maps.dim()) + " dimensions");
    // Each sample's own class score; samples are independent in eval mode, so one backward of
    // the sum gives every sample's dy_c / dA.
    const at::Tensor score = out.gather(1, classes.to(out.device()).view({-1, 1})).sum();
    const at::Tensor grads = torch::autograd::grad({score}, {maps})[0];
    const at::Tensor alpha = grads.mean({2, 3}, /*keepdim=*/true);  // [N, K, 1, 1]
    const at::Tensor cam = (alpha * maps.detach()).sum(1, /*keepdim=*/true);  // [N, 1, h, w]
    cams = at::upsample_bilinear2d(cam, {height, width}, /*align_corners=*/false).squeeze(1);
  } catch (...) {
    model.train(was_training);
    throw;
  }
  model.train(was_training);
  return cams.to(at::kFloat).cpu().contiguous();
}

}  // namespace trainscope

#include "core/data/chance.h"

#include <ATen/ATen.h>

#include <cmath>

namespace trainscope {

ChanceLevels chanceLevels(const PreparedData& data) {
  ChanceLevels c;
  c.classification = data.classification;
  c.n_val = data.val.size();
  if (data.classification) {
    const TensorPair& split = data.val.size() > 0 ? data.val : data.train;
    c.n_classes = data.summary.n_classes;
    if (split.size() == 0 || c.n_classes < 2) return c;
    const at::Tensor counts = at::bincount(split.y.reshape(-1).to(at::kCPU).to(at::kLong));
    c.loss = std::log(static_cast<double>(c.n_classes));
    c.accuracy = counts.max().item<double>() / static_cast<double>(split.size());
    // The training shares (add-one-half smoothed: a class missing from the training split
    // costs a finite loss), scored on the validation labels.
    const at::Tensor y_train = (data.train.size() > 0 ? data.train : split).y.reshape(-1);
    const at::Tensor train_counts =
        at::bincount(y_train.to(at::kCPU).to(at::kLong), {}, c.n_classes)
            .narrow(0, 0, c.n_classes)
            .to(at::kDouble) +
        0.5;
    const at::Tensor shares = train_counts / train_counts.sum();
    const at::Tensor val_counts = at::bincount(split.y.reshape(-1).to(at::kCPU).to(at::kLong), {},
                                               c.n_classes)
                                      .narrow(0, 0, c.n_classes)
                                      .to(at::kDouble);
    c.prior_loss =
        -(val_counts * shares.log()).sum().item<double>() / static_cast<double>(split.size());
  } else {
    if (data.train.size() == 0) return c;
    const at::Tensor y = data.train.y.to(at::kCPU).to(at::kDouble);
    c.loss = (y - y.mean(0, /*keepdim=*/true)).pow(2).mean().item<double>();
  }
  c.known = std::isfinite(c.loss) && c.loss > 0;
  return c;
}

}  // namespace trainscope

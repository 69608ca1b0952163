#include "core/data/augment/pipeline_text.h"

#include "core/config/train_config.h"
#include "core/system/number_format.h"

namespace trainscope::augment {

std::string pythonFloat(double v) {
  std::string s = formatNumber(v);  // the shortest text that reads back the same
  if (s.find_first_of(".en") == std::string::npos) s += ".0";
  return s;
}

std::vector<std::string> torchvisionTransforms(const AugmentConfig& a, int64_t height,
                                               int64_t width) {
  const auto& py = pythonFloat;
  std::vector<std::string> out;
  const std::string size = "size=(" + std::to_string(height) + ", " + std::to_string(width) + ")";
  if (a.random_resized_crop)
    out.push_back("T.RandomResizedCrop(" + size + ", scale=(" + py(a.scale[0]) + ", " +
                  py(a.scale[1]) + "), ratio=(" + py(a.ratio[0]) + ", " + py(a.ratio[1]) +
                  "), antialias=True)");
  else if (a.crop_padding > 0)
    out.push_back("T.RandomCrop(" + size + ", padding=" + std::to_string(a.crop_padding) + ")");
  if (a.hflip > 0) out.push_back("T.RandomHorizontalFlip(p=" + py(a.hflip) + ")");
  if (a.rotation != 0) out.push_back("T.RandomRotation(degrees=" + py(a.rotation) + ")");
  if (a.jitter() && a.color_jitter.size() == 4)
    out.push_back("T.ColorJitter(brightness=" + py(a.color_jitter[0]) + ", contrast=" +
                  py(a.color_jitter[1]) + ", saturation=" + py(a.color_jitter[2]) + ", hue=" +
                  py(a.color_jitter[3]) + ")");
  return out;
}

}  // namespace trainscope::augment

// Augmentation (core/data/augment): torchvision 0.14 (Debian's python3-torchvision, through
// TRAINSCOPE_TEST_PYTHON and tests/core/augment_reference.py) is the reference. With the same
// seed in torch.manual_seed and in the generator given here, every get_params draws the same
// crop boxes, flips, angles and jitter orders and factors; whole pipelines written by
// Augmentation::describe() and evaluated by Python's T.Compose give the same pixels; resizes
// equal F.resize's on uint8 images. Then the generator of each batch, and the refusals.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/data/augment/functional.h"
#include "core/data/dataset.h"
#include "core/train/probes/shapes.h"
#include "core/train/state/checkpoint.h"
#include "core/train/trainer.h"
#include "core/data/augment/transforms.h"
#include "core/errors.h"
#include "python_runner.h"
#include "recording_observer.h"
#include "test_util.h"
#include "test_main.h"

namespace tst_augment_suite {

using namespace trainscope;
using namespace trainscope::augment;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

at::Generator seeded(uint64_t s) { return at::make_generator<at::CPUGeneratorImpl>(s); }

void writeRaw(const fs::path& file, const at::Tensor& t) {
  const at::Tensor c = t.contiguous();
  std::ofstream out(file, std::ios::binary);
  out.write(static_cast<const char*>(c.data_ptr()), static_cast<std::streamsize>(c.nbytes()));
}

at::Tensor readRaw(const fs::path& file, at::IntArrayRef shape, at::ScalarType dtype) {
  at::Tensor t = at::empty(shape, at::TensorOptions().dtype(dtype));
  std::ifstream in(file, std::ios::binary);
  in.read(static_cast<char*>(t.data_ptr()), static_cast<std::streamsize>(t.nbytes()));
  if (in.gcount() != static_cast<std::streamsize>(t.nbytes())) return {};
  return t;
}

/// Images as pixels are: k / 255 for random k (uint8 images through ToTensor).
at::Tensor pixelImages(int64_t n, int64_t c, int64_t h, int64_t w, uint64_t seed) {
  auto gen = seeded(seed);
  return at::randint(0, 256, {n, c, h, w}, gen, at::TensorOptions().dtype(at::kFloat)).div_(255);
}

json askPython(const json& request) {
  const testpython::Result r =
      testpython::run({TRAINSCOPE_SOURCE_DIR "/tests/core/augment_reference.py"}, 240000, {},
                      QByteArray::fromStdString(request.dump()));
  if (!r.ok) {
    qWarning("%s", qPrintable(r.why));
    return json();
  }
  return json::parse(r.out.toStdString());
}

const std::vector<std::array<double, 6>> kRrcCases = {
    {28, 28, 0.08, 1.0, 3.0 / 4.0, 4.0 / 3.0},
    {32, 32, 0.5, 1.0, 3.0 / 4.0, 4.0 / 3.0},
    {20, 30, 0.08, 1.0, 0.5, 2.0},
    {10, 40, 0.9, 1.0, 0.9, 1.1},  // never fits: the centre-crop fallback, width clamped to ratio
    {40, 10, 0.9, 1.0, 0.9, 1.1},  // the fallback, height clamped
};
const std::vector<std::array<int64_t, 4>> kCropCases = {{36, 36, 28, 28}, {28, 28, 28, 28},
                                                         {40, 48, 32, 32}};
const std::vector<std::array<double, 4>> kJitterCases = {
    {0.4, 0.4, 0.4, 0.1}, {0, 0.5, 0, 0}, {0.2, 0, 0, 0.5}, {1.5, 0, 0.3, 0}};

/// Fashion-MNIST, 300 samples, a small MLP, training images padded-cropped and flipped.
TrainConfig augmentedConfig() {
  TrainConfig c = resolveConfig("fashion-mnist-mlp", {}, {});
  c.name = "aug";
  c.data.limit = 300;
  c.model.hidden = {16};
  c.training.epochs = 3;
  c.training.batch_size = 32;
  c.training.seed = 5;
  c.training.num_threads = 1;
  c.data.augment.crop_padding = 3;
  c.data.augment.hflip = 0.5;
  return c;
}

using testrun::runTo;

std::string fileText(const fs::path& f) {
  std::ifstream in(f);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

class TstAugment : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void getParamsDrawAsTorchvision();
  void pipelinesGiveTorchvisionsPixels();
  void resizeEqualsTorchvision();
  void describeNamesTransformsInOrder();
  void refusesWhatImagesCannotTake();
  void batchGeneratorIsItsOwnStream();
  void batchesAreSeededPerEpochAndBatch();
  void runsRepeatAndResumeBitwise();
  void tablesAreRefused();
  void imageFolderResizeMatchesTorchvision();
};

void TstAugment::getParamsDrawAsTorchvision() {
  std::vector<int64_t> seeds;
  for (int64_t s = 0; s < 200; ++s) seeds.push_back(s);
  json req = {{"dir", "/nonexistent"}, {"seeds", seeds},          {"rrc", kRrcCases},
              {"crop", kCropCases},    {"flip_p", 0.3},           {"degrees", 15.0},
              {"jitter", kJitterCases}, {"pipelines", json::array()}, {"resize", json::array()}};
  const json ref = askPython(req);
  QVERIFY2(ref.is_object(), "the torchvision reference did not answer");
  int fallbacks = 0, flips = 0, draws = 0;
  for (size_t si = 0; si < seeds.size(); ++si) {
    const uint64_t s = static_cast<uint64_t>(seeds[si]);
    for (size_t k = 0; k < kRrcCases.size(); ++k) {
      const auto& c = kRrcCases[k];
      auto gen = seeded(s);
      const CropBox b = randomResizedCropParams(gen, int64_t(c[0]), int64_t(c[1]), {c[2], c[3]},
                                                {c[4], c[5]});
      const auto& want = ref["rrc"][si][k];
      QVERIFY2((std::array<int64_t, 4>{b.top, b.left, b.height, b.width}) ==
                   (std::array<int64_t, 4>{want[0], want[1], want[2], want[3]}),
               qPrintable(QString("seed %1 case %2: box %3 %4 %5 %6, torchvision %7")
                              .arg(s).arg(k).arg(b.top).arg(b.left).arg(b.height).arg(b.width)
                              .arg(QString::fromStdString(want.dump()))));
      if (k >= 3) ++fallbacks;
    }
    for (size_t k = 0; k < kCropCases.size(); ++k) {
      const auto& c = kCropCases[k];
      auto gen = seeded(s);
      const CropBox b = randomCropParams(gen, c[0], c[1], c[2], c[3]);
      const auto& want = ref["crop"][si][k];
      QCOMPARE(b, (CropBox{want[0], want[1], want[2], want[3]}));
    }
    auto gen = seeded(s);
    for (int d = 0; d < 20; ++d) {
      const bool f = flipDraw(gen, 0.3);
      QCOMPARE(f, ref["flip"][si][d].get<bool>());
      flips += f;
      ++draws;
    }
    auto rgen = seeded(s);
    QCOMPARE(rotationParams(rgen, 15.0), ref["rotation"][si].get<double>());
    for (size_t k = 0; k < kJitterCases.size(); ++k) {
      auto jgen = seeded(s);
      const JitterParams p = colorJitterParams(jgen, kJitterCases[k]);
      const auto& want = ref["jitter"][si][k];
      for (int i = 0; i < 4; ++i) QCOMPARE(p.order[i], want["order"][i].get<int64_t>());
      for (int i = 0; i < 4; ++i) {
        QCOMPARE(p.factors[i].has_value(), !want["factors"][i].is_null());
        if (p.factors[i]) QCOMPARE(*p.factors[i], want["factors"][i].get<double>());
      }
    }
  }
  QVERIFY(fallbacks > 0);
  // p = 0.3 over 4000 draws: 1200 expected, sd 29
  QVERIFY2(flips > 1080 && flips < 1320, qPrintable(QString::number(flips)));
  QCOMPARE(draws, 4000);
}

void TstAugment::pipelinesGiveTorchvisionsPixels() {
  QTemporaryDir tmp;
  const fs::path dir_path = tmp.path().toStdString();
  struct Case {
    AugmentConfig config;
    std::vector<int64_t> shape;
    double tolerance;  // max |difference|; 0 = equal
  };
  std::vector<Case> cases;
  {
    AugmentConfig a;  // CIFAR's usual: RandomCrop(32, padding=4) and a flip; pixels move only
    a.crop_padding = 4;
    a.hflip = 0.5;
    cases.push_back({a, {1, 28, 28}, 0.0});
    cases.push_back({a, {3, 32, 32}, 0.0});
  }
  {
    AugmentConfig a;  // ImageNet's: RandomResizedCrop, a flip and colour jitter
    a.random_resized_crop = true;
    a.hflip = 0.5;
    a.color_jitter = {0.4, 0.4, 0.4, 0.1};
    cases.push_back({a, {3, 32, 32}, 1e-6});
  }
  {
    AugmentConfig a;
    a.rotation = 30;
    a.color_jitter = {0.3, 0.3, 0.3, 0.2};
    cases.push_back({a, {3, 24, 20}, 1e-6});
  }
  {
    AugmentConfig a;
    a.random_resized_crop = true;
    a.scale = {0.5, 1.0};
    a.ratio = {0.8, 1.25};
    a.rotation = 10;
    a.color_jitter = {0.5, 0.5, 0, 0};
    cases.push_back({a, {1, 28, 28}, 1e-6});
  }
  const int64_t count = 8;
  json pipelines = json::array();
  std::vector<at::Tensor> mine;
  for (size_t k = 0; k < cases.size(); ++k) {
    const Case& c = cases[k];
    const at::Tensor images = pixelImages(count, c.shape[0], c.shape[1], c.shape[2], 100 + k);
    writeRaw(dir_path / ("in" + std::to_string(k) + ".f32"), images);
    Augmentation aug(c.config, c.shape);
    auto gen = seeded(7 + k);
    std::vector<at::Tensor> outs;
    for (int64_t i = 0; i < count; ++i) outs.push_back(aug(images[i], gen));
    mine.push_back(at::stack(outs));
    pipelines.push_back({{"exprs", aug.describe()},
                         {"shape", c.shape},
                         {"seed", 7 + k},
                         {"count", count},
                         {"image", "in" + std::to_string(k) + ".f32"},
                         {"out", "out" + std::to_string(k) + ".f32"}});
  }
  json req = {{"dir", dir_path.string()}, {"seeds", json::array()}, {"rrc", json::array()},
              {"crop", json::array()},       {"flip_p", 0.5},          {"degrees", 0.0},
              {"jitter", json::array()},     {"pipelines", pipelines}, {"resize", json::array()}};
  QVERIFY2(askPython(req).is_object(), "the torchvision reference did not answer");
  for (size_t k = 0; k < cases.size(); ++k) {
    const at::Tensor ref = readRaw(dir_path / ("out" + std::to_string(k) + ".f32"),
                                   mine[k].sizes(), at::kFloat);
    QVERIFY(ref.defined());
    const double diff = (ref - mine[k]).abs().max().item<double>();
    QVERIFY2(diff <= cases[k].tolerance,
             qPrintable(QString("pipeline %1 (%2): max |difference| %3")
                            .arg(k)
                            .arg(QString::fromStdString(json(pipelines[k]["exprs"]).dump()))
                            .arg(diff)));
    // The images did change (a test of an identity would pass too)
    const at::Tensor in = pixelImages(count, cases[k].shape[0], cases[k].shape[1],
                                      cases[k].shape[2], 100 + k);
    QVERIFY((in - mine[k]).abs().max().item<double>() > 0.1);
  }
}

void TstAugment::resizeEqualsTorchvision() {
  QTemporaryDir tmp;
  const fs::path dir_path = tmp.path().toStdString();
  struct Case {
    std::vector<int64_t> shape, size;
    Interpolation mode;
    bool antialias;
  };
  const std::vector<Case> cases = {
      {{1, 8, 8}, {5, 5}, Interpolation::Bilinear, true},  // the 8x8 -> 5x5 folder of issue 48
      {{3, 64, 48}, {28, 28}, Interpolation::Bilinear, true},
      {{3, 20, 20}, {45, 31}, Interpolation::Bilinear, true},
      {{3, 64, 48}, {28, 28}, Interpolation::Bicubic, true},
      {{1, 30, 30}, {7, 9}, Interpolation::Nearest, false},
      {{3, 30, 30}, {17, 17}, Interpolation::Bilinear, false},
  };
  json resizes = json::array();
  std::vector<at::Tensor> mine;
  for (size_t k = 0; k < cases.size(); ++k) {
    auto gen = seeded(40 + k);
    const at::Tensor img = at::randint(0, 256, cases[k].shape, gen, at::TensorOptions().dtype(at::kByte));
    writeRaw(dir_path / ("r" + std::to_string(k) + ".u8"), img);
    mine.push_back(resize(img, cases[k].size[0], cases[k].size[1], cases[k].mode,
                          cases[k].antialias));
    QCOMPARE(mine.back().scalar_type(), at::kByte);
    resizes.push_back({{"image", "r" + std::to_string(k) + ".u8"},
                       {"shape", cases[k].shape},
                       {"size", cases[k].size},
                       {"mode", interpolationName(cases[k].mode)},
                       {"antialias", cases[k].antialias},
                       {"out", "o" + std::to_string(k) + ".u8"}});
  }
  json req = {{"dir", dir_path.string()}, {"seeds", json::array()}, {"rrc", json::array()},
              {"crop", json::array()},       {"flip_p", 0.5},          {"degrees", 0.0},
              {"jitter", json::array()},     {"pipelines", json::array()}, {"resize", resizes}};
  QVERIFY2(askPython(req).is_object(), "the torchvision reference did not answer");
  for (size_t k = 0; k < cases.size(); ++k) {
    const at::Tensor ref = readRaw(dir_path / ("o" + std::to_string(k) + ".u8"),
                                   mine[k].sizes(), at::kByte);
    QVERIFY(ref.defined());
    const double diff = (ref.to(at::kInt) - mine[k].to(at::kInt)).abs().max().item<double>();
    QVERIFY2(diff == 0, qPrintable(QString("resize case %1: max |difference| %2 of 255")
                                       .arg(k).arg(diff)));
  }
}

void TstAugment::describeNamesTransformsInOrder() {
  AugmentConfig a;
  QVERIFY(Augmentation(a, {1, 28, 28}).describe().empty());
  QVERIFY(Augmentation(a, {1, 28, 28}).empty());
  a.hflip = 0.5;
  a.crop_padding = 4;
  a.rotation = 15;
  a.color_jitter = {0.4, 0.3, 0, 0.1};
  const std::vector<std::string> want = {
      "T.RandomCrop(size=(32, 32), padding=4)", "T.RandomHorizontalFlip(p=0.5)",
      "T.RandomRotation(degrees=15.0)",
      "T.ColorJitter(brightness=0.4, contrast=0.3, saturation=0.0, hue=0.1)"};
  QCOMPARE(Augmentation(a, {3, 32, 32}).describe(), want);
  a = AugmentConfig{};
  a.random_resized_crop = true;
  QCOMPARE(Augmentation(a, {3, 32, 32}).describe(),
           std::vector<std::string>{"T.RandomResizedCrop(size=(32, 32), scale=(0.08, 1.0), "
                                    "ratio=(0.75, 1.3333333333333333), antialias=True)"});
}

void TstAugment::refusesWhatImagesCannotTake() {
  AugmentConfig a;
  a.crop_padding = 28;
  try {
    Augmentation(a, {1, 28, 28});
    QFAIL("a padding as large as the image was accepted");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Config);
    QCOMPARE(QString::fromStdString(e.subject()), QString("data.augment.crop_padding"));
    QVERIFY2(std::string(e.what()).find("at most 27") != std::string::npos, e.what());
  }
  a.crop_padding = 27;
  QVERIFY(!Augmentation(a, {1, 28, 28}).empty());
  AugmentConfig b;
  b.hflip = 0.5;
  try {
    Augmentation(b, {2});
    QFAIL("augmentation of data without an image shape was accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("data.augment"));
  }
}

void TstAugment::batchGeneratorIsItsOwnStream() {
  auto draw = [](at::Generator g) { return at::rand({4}, g); };
  QVERIFY(at::equal(draw(batchGenerator(3, 1, 0, 5)), draw(batchGenerator(3, 1, 0, 5))));
  for (auto other : {batchGenerator(4, 1, 0, 5), batchGenerator(3, 2, 0, 5),
                     batchGenerator(3, 1, 1, 5), batchGenerator(3, 1, 0, 6)})
    QVERIFY(!at::equal(draw(batchGenerator(3, 1, 0, 5)), draw(other)));
  // The global generator is not drawn from
  at::manual_seed(11);
  const at::Tensor before = at::rand({3});
  at::manual_seed(11);
  AugmentConfig a;
  a.hflip = 0.5;
  a.random_resized_crop = true;
  a.color_jitter = {0.4, 0.4, 0.4, 0.1};
  auto gen = batchGenerator(1, 1, 0, 0);
  Augmentation(a, {3, 16, 16}).batch(pixelImages(4, 3, 16, 16, 1), gen);
  QVERIFY(at::equal(at::rand({3}), before));
}

void TstAugment::batchesAreSeededPerEpochAndBatch() {
  // The iterator's batches: the same (epoch, batch) gives the same pixels in two iterators;
  // another epoch over the same order gives other pixels; the labels follow the samples; a
  // sample's pixels are its own image moved (padding 3 and flips keep the pixel sum of the
  // central crop within the image).
  const TrainConfig c = augmentedConfig();
  const PreparedData data = loadData(c.data);
  auto aug = std::make_shared<const Augmentation>(c.data.augment, data.summary.image_shape);
  auto shuffled = [&](int64_t epoch) {
    BatchIterator it(data.train, 32, /*shuffle=*/true);
    it.setAugmentation(aug, 5);
    auto g = seeded(1);  // the same permutation every time
    it.startEpoch(g, epoch);
    return it;
  };
  const BatchIterator a = shuffled(1), b = shuffled(1), other = shuffled(2);
  QCOMPARE(a.batchesPerEpoch(), int64_t{8});  // 240 training samples
  for (int64_t i : {0, 7}) {
    const TensorPair pa = a.batch(i), pb = b.batch(i), po = other.batch(i);
    QVERIFY(at::equal(pa.x, pb.x));
    QVERIFY(at::equal(pa.y, po.y));
    QVERIFY(!at::equal(pa.x, po.x));
    QCOMPARE(pa.x.size(1), data.train.x.size(1));
    QVERIFY(pa.x.scalar_type() == at::kFloat);
  }
  // Without augmentation the same order gives the unaugmented inputs; with it, a batch's
  // images are those images augmented: undo the standardisation and compare pixel sets.
  BatchIterator plain(data.train, 32, true);
  auto g = seeded(1);
  plain.startEpoch(g, 1);
  const at::Tensor clean = plain.batch(0).x, augmented = a.batch(0).x;
  QVERIFY(!at::equal(clean, augmented));
  const double mean = data.train.x_offset / 255, sd = data.train.x_scale / 255;
  const at::Tensor values = (augmented * sd + mean).mul(255);
  // crops and flips move whole pixels: every value is a pixel value 0..255 (or padding, 0)
  QVERIFY((values - values.round()).abs().max().item<double>() < 1e-3);
  QVERIFY(values.min().item<double>() > -1e-3 && values.max().item<double>() < 255 + 1e-3);
  // and each image keeps most of its ink: at most 3 columns and 3 rows are cropped away
  const at::Tensor ink_clean = (clean * sd + mean).sum(1), ink_aug = (augmented * sd + mean).sum(1);
  QVERIFY(((ink_aug - ink_clean).abs() / ink_clean.clamp_min(1)).max().item<double>() < 0.6);
  // drop_last: 240 = 7 x 32 + 16 leaves 7 batches
  QCOMPARE(BatchIterator(data.train, 32, true, /*drop_last=*/true).batchesPerEpoch(), int64_t{7});
}

void TstAugment::runsRepeatAndResumeBitwise() {
  QTemporaryDir tmp;
  const fs::path root = tmp.path().toStdString();
  const TrainConfig c = augmentedConfig();
  QCOMPARE(runTo(c, root / "a").epochs_completed, int64_t{3});
  QCOMPARE(runTo(c, root / "b").epochs_completed, int64_t{3});
  // Same seed: the same batches, so the same losses bit for bit (the steps' columns other
  // than times)
  COMPARE_RUN_CSV(root / "a" / "steps.csv", root / "b" / "steps.csv");
  COMPARE_RUN_CSV(root / "a" / "metrics.csv", root / "b" / "metrics.csv");
  // Augmentation changes training: a run without it has other losses
  TrainConfig off = c;
  off.data.augment = AugmentConfig{};
  runTo(off, root / "off");
  QVERIFY(fileText(root / "off" / "steps.csv") != fileText(root / "a" / "steps.csv"));
  // Stopped mid-epoch 2 (step 8 + 3), resumed: the same rows as the uninterrupted run
  runTo(c, root / "half", {}, 11);
  const fs::path ckpt = root / "half" / "checkpoints" / "last.pt";
  torch::manual_seed(999);  // the resume must not depend on this process's global generator
  (void)torch::rand({10});
  TrainConfig rc = checkpointConfig(inspectCheckpoint(ckpt));
  QCOMPARE(runTo(rc, root / "resumed", ckpt).epochs_completed, int64_t{3});
  COMPARE_RUN_CSV(root / "a" / "steps.csv", root / "resumed" / "steps.csv");
  COMPARE_RUN_CSV(root / "a" / "metrics.csv", root / "resumed" / "metrics.csv");
  // run.json says what was applied, and to which splits
  const json run = json::parse(fileText(root / "a" / "run.json"));
  QCOMPARE(run["data"]["augmentation"]["transforms"],
           json({"T.RandomCrop(size=(28, 28), padding=3)", "T.RandomHorizontalFlip(p=0.5)"}));
  QCOMPARE(run["data"]["augmentation"]["applied_to"], json({"train"}));
  const json run_off = json::parse(fileText(root / "off" / "run.json"));
  QCOMPARE(run_off["data"]["augmentation"]["transforms"], json::array());
}

void TstAugment::tablesAreRefused() {
  TrainConfig c = resolveConfig("moons", {}, {});
  c.data.augment.rotation = 10;
  const std::string why = errorOf([&] { validate(c); });
  QVERIFY2(why.find("data.augment.rotation") != std::string::npos &&
               why.find("transforms images") != std::string::npos,
           why.c_str());
  c = augmentedConfig();
  c.data.augment.color_jitter = {0.1, 0.1, 0.1, 0.6};
  QVERIFY(errorOf([&] { validate(c); }).find("at most 0.5") != std::string::npos);
  c.data.augment.color_jitter = {0.1, 0.1};
  QVERIFY(errorOf([&] { validate(c); }).find("4 numbers") != std::string::npos);
  c = augmentedConfig();
  c.data.augment.random_resized_crop = true;
  QVERIFY(errorOf([&] { validate(c); }).find("use one") != std::string::npos);
  c = augmentedConfig();
  c.data.augment.scale = {0.9, 0.2};
  QVERIFY(errorOf([&] { validate(c); }).find("min <= max") != std::string::npos);
  // A crop padding the images cannot take is refused before the first step (a dry run too)
  c = augmentedConfig();
  c.data.augment.crop_padding = 28;
  const std::string padding = errorOf([&] { Trainer::check(c, TrainerOptions{}); });
  QVERIFY2(padding.find("data.augment.crop_padding") != std::string::npos, padding.c_str());
  // ... and by the dry run (train --dry-run), whose batch is the augmented first batch
  QVERIFY(errorOf([&] { shapeReport(c); }).find("data.augment.crop_padding") != std::string::npos);
  c.data.augment.crop_padding = 3;
  const ShapeReport augmented = shapeReport(c);
  QCOMPARE(augmented.augmentation.size(), size_t{2});
  c.data.augment = AugmentConfig{};
  const ShapeReport plain = shapeReport(c);
  QVERIFY(plain.augmentation.empty());
  QVERIFY(augmented.x.shape == plain.x.shape);
  // scale or ratio without random_resized_crop: nothing would read them
  c.data.augment.scale = {0.5, 1.0};
  QVERIFY(errorOf([&] { validate(c); }).find("nothing reads it") != std::string::npos);
}

void TstAugment::imageFolderResizeMatchesTorchvision() {
  // Issue 48's folder: 8x8 images resized to 5x5. torchvision's ImageFolder with Resize((5, 5))
  // (PIL images: antialiased bilinear, the default of data.image_folder.resize) is the
  // reference: mean |difference| <= 2/255 (PIL and ATen round differently); the tensor
  // backend's F.resize(antialias=True) on the same pixels is met exactly. RGB 13x9 -> 6x7 too.
  QTemporaryDir tmp;
  const char* script = R"PY(
import os, sys, json
import numpy as np
from PIL import Image
import torch
import torchvision.transforms as T
import torchvision.transforms.functional as F
from torchvision.datasets import ImageFolder
root, mode, h, w, ih, iw, ch = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]), int(sys.argv[6]), int(sys.argv[7])
rng = np.random.default_rng(3)
for c in ["a", "b"]:
    os.makedirs(os.path.join(root, c), exist_ok=True)
    for i in range(6):
        px = rng.integers(0, 256, size=(ih, iw) if ch == 1 else (ih, iw, 3), dtype=np.uint8)
        Image.fromarray(px).save(os.path.join(root, c, "%d.png" % i))
interp = T.InterpolationMode(mode)
conv = "L" if ch == 1 else "RGB"
pil = ImageFolder(root, transform=T.Compose([T.Lambda(lambda im: im.convert(conv)), T.Resize((h, w), interpolation=interp), T.PILToTensor()]))
ten = ImageFolder(root, transform=T.Compose([T.Lambda(lambda im: im.convert(conv)), T.PILToTensor(), T.Lambda(lambda t: F.resize(t, [h, w], interp, antialias=True))]))
out = {"pil": [pil[i][0].flatten().tolist() for i in range(len(pil))], "tensor": [ten[i][0].flatten().tolist() for i in range(len(ten))]}
print(json.dumps(out))
)PY";
  struct Case {
    int64_t h, w, ih, iw, channels;
  };
  for (const Case& k : {Case{5, 5, 8, 8, 1}, Case{6, 7, 13, 9, 3}}) {
    const fs::path root = fs::path(tmp.path().toStdString()) / ("f" + std::to_string(k.channels));
    const testpython::Result r = testpython::run(
        {"-c", script, QString::fromStdString(root.string()), "bilinear", QString::number(k.h),
         QString::number(k.w), QString::number(k.ih), QString::number(k.iw),
         QString::number(k.channels)});
    QVERIFY2(r.ok, qPrintable(r.why));
    const json ref = json::parse(r.out.toStdString());
    TrainConfig c = resolveConfig("", "", {"data.source=image-folder",
                                           "data.image_folder.path=" + root.string(),
                                           "data.image_folder.size=[" + std::to_string(k.h) + ", " +
                                               std::to_string(k.w) + "]",
                                           "data.image_folder.channels=" + std::to_string(k.channels),
                                           "data.standardize=false"});
    const PreparedData data = loadData(c.data);
    QCOMPARE(data.summary.preprocessing.resize, std::string("bilinear"));
    double sum = 0;
    int64_t count = 0;
    for (int64_t i = 0; i < data.train.size(); ++i) {
      const int64_t sample = data.split.train[i].item<int64_t>();  // ImageFolder's index
      const at::Tensor mine = data.train.x[i].to(at::kDouble);
      const at::Tensor pil = at::tensor(ref["pil"][sample].get<std::vector<double>>());
      const at::Tensor ten = at::tensor(ref["tensor"][sample].get<std::vector<double>>());
      QVERIFY2(at::equal(mine, ten), qPrintable(QString("image %1 differs from F.resize").arg(sample)));
      sum += (mine - pil).abs().sum().item<double>();
      count += mine.numel();
    }
    const double mad = sum / count;
    qInfo("%lldx%lld -> %lldx%lld, %lld channel(s): mean |TrainScope - torchvision Resize (PIL)| "
          "= %.3f of 255", (long long)k.ih, (long long)k.iw, (long long)k.h, (long long)k.w,
          (long long)k.channels, mad);
    QVERIFY2(mad <= 2.0, qPrintable(QString::number(mad)));
  }
}

TRAINSCOPE_TEST_MAIN(TstAugment)
}  // namespace tst_augment_suite
#include "tst_augment.moc"

// Config: defaults, presets, precedence, --set parsing, validation errors that name the key,
// a config file's base "preset", the key reference.
#include <QtTest/QtTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

#include "core/config/config_diff.h"
#include "core/config/config_file.h"
#include "core/config/config_json.h"
#include "core/config/live_settings.h"
#include "core/config/train_config.h"
#include "core/errors.h"

using namespace trainscope;
using json = nlohmann::json;

class TstConfig : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void defaultsRoundTrip();
  void presetsAreValidAndSeeded();
  void precedence();
  void setParsesJsonElseString();
  void invalidValuesNameTheKey_data();
  void invalidValuesNameTheKey();
  void fileErrorsNameTheFile();
  void saveAndReload();
  void validateTypedConfig_data();
  void validateTypedConfig();
  void presetConfigIsDefaultsPlusPreset();
  void numThreadsAcceptsAuto();
  void configChangesListDifferingKeys();
  void fileNamesItsBasePreset();
  void filePresetErrorsNameThePresets();
  void runConfigOfAPresetFileReloads();
  void dataPathNeedsAFileSource();
  void rnnNonlinearityNeedsAnRnnCell();
  void keyReferenceCoversEveryKey();
  void keyReferenceBoundsAreTheValidatedOnes();
  void liveSettingsAreTheKeysTheTrainerChanges();
};

namespace {

/// Writes `text` to `dir`/`name` and returns the path.
std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path().toStdString() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

/// "a.b.c" for every leaf of `j`, in order.
void leafKeys(const json& j, const std::string& prefix, std::vector<std::string>& out) {
  for (auto it = j.begin(); it != j.end(); ++it) {
    const std::string key = prefix.empty() ? it.key() : prefix + "." + it.key();
    if (it->is_object()) {
      leafKeys(*it, key, out);
    } else {
      out.push_back(key);
    }
  }
}

}  // namespace

void TstConfig::liveSettingsAreTheKeysTheTrainerChanges() {
  // The Trainer's live commands (setLearningRate, setClipping, setAmp; core/train/trainer.h)
  // change exactly these keys; the key table's .live() marks are what isLiveSetting, the
  // replay and `train --resume --set` go by.
  const std::vector<std::string> commanded = {"optimizer.lr", "training.amp",
                                              "training.clip.enabled", "training.clip.max_norm"};
  std::vector<std::string> marked;
  for (const ConfigKeyInfo& k : configKeyInfos()) {
    if (k.live) marked.push_back(k.key);
    QCOMPARE(isLiveSetting(k.key), k.live);
  }
  std::sort(marked.begin(), marked.end());
  QCOMPARE(marked, commanded);
  QVERIFY(!isLiveSetting("optimizer"));
  QVERIFY(!isLiveSetting("training.clip"));
  QVERIFY(!isLiveSetting("training.batch_size"));
  QVERIFY(changeableOnResume("training.amp"));
  QVERIFY(!changeableOnResume("training.batch_size"));
}

void TstConfig::defaultsRoundTrip() {
  TrainConfig c = configFromJson(json::object());
  QCOMPARE(configToJson(c), defaultConfigJson());
  QCOMPARE(c.data.val_fraction, 0.2);
  QCOMPARE(c.model.hidden, (std::vector<int64_t>{128, 128}));
  QVERIFY(!c.training.seed.has_value());
}

void TstConfig::presetsAreValidAndSeeded() {
  auto list = presets();
  QCOMPARE(list.front().name, defaultPresetName());
  QStringList names;
  for (const auto& p : list) {
    names << QString::fromStdString(p.name);
    QVERIFY(!p.description.empty());
    TrainConfig c = resolveConfig(p.name, {}, {});
    QVERIFY2(c.training.seed.has_value(), p.name.c_str());
    QCOMPARE(c.name, p.name);
  }
  QCOMPARE(names, (QStringList{"overfit-sine", "moons", "overfit-moons", "circles", "spirals",
                               "fashion-mnist-mlp", "fashion-mnist-cnn", "rnn-exploding", "exploding",
                               "flowers-csv", "housing-csv", "fashion-png"}));
  TrainConfig fm = resolveConfig("fashion-mnist-mlp", {}, {});
  QCOMPARE(fm.model.hidden, (std::vector<int64_t>{256, 128}));
  QCOMPARE(QString::fromStdString(fm.data.source), QString("fashion-mnist"));
  try {
    resolveConfig("nope", {}, {});
    QFAIL("unknown preset accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("preset"));
    QVERIFY(std::string(e.what()).find("nope") != std::string::npos);
  }
}

void TstConfig::precedence() {
  // defaults < preset < file < --set
  QTemporaryDir tmp;
  std::string file = tmp.path().toStdString() + "/partial.json";
  std::ofstream(file)
      << R"({"training": {"epochs": 7, "batch_size": 16}, "optimizer": {"lr": 0.5}})";
  TrainConfig c = resolveConfig("moons", file, {"training.epochs=9"});
  QCOMPARE(c.training.epochs, int64_t{9});       // --set beats the file
  QCOMPARE(c.training.batch_size, int64_t{16});  // file beats the preset (32)
  QCOMPARE(c.optimizer.lr, 0.5);
  QCOMPARE(QString::fromStdString(c.data.source), QString("moons"));  // preset beats defaults
  // A template file may leave a key for --set to fill in: it is checked after the overrides ...
  const std::string tmpl = tmp.path().toStdString() + "/template.json";
  std::ofstream(tmpl) << R"({"data": {"source": "csv"}, "training": {"epochs": 3}})";
  const TrainConfig filled = resolveConfig({}, tmpl, {"data.csv.path=table.csv"});
  QCOMPARE(*filled.data.csv.path, std::string("table.csv"));
  QCOMPARE(filled.training.epochs, int64_t{3});
  try {  // ... and without it the file is named, as before
    resolveConfig({}, tmpl, {"training.epochs=4"});
    QFAIL("a csv source without data.csv.path was accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("data.csv.path"));
    QVERIFY2(QString(e.what()).startsWith(QString::fromStdString(tmpl) + ": "), e.what());
  }
  try {  // a bad value --set gives is its own error, not the file's
    resolveConfig({}, tmpl, {"data.csv.path=t.csv", "training.epochs=0"});
    QFAIL("training.epochs=0 was accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("training.epochs"));
    QVERIFY2(!QString(e.what()).contains("template.json"), e.what());
  }
  QCOMPARE(c.model.dropout, 0.0);          // defaults where nobody says otherwise
  QCOMPARE(c.name, std::string("moons"));  // the preset's name (file has none)
  TrainConfig f = resolveConfig("", file, {});
  QCOMPARE(f.name, std::string("partial"));  // a file without name: its stem
  QCOMPARE(QString::fromStdString(f.data.source), QString("sine"));  // no preset: defaults
}

void TstConfig::setParsesJsonElseString() {
  json j = defaultConfigJson();
  applySet(j, "model.hidden=[256,128]");
  applySet(j, "training.seed=null");
  applySet(j, "optimizer.name=sgd");  // not JSON: a string
  applySet(j, "optimizer.lr=3e-4");
  applySet(j, "training.clip.enabled=true");
  TrainConfig c = configFromJson(j);
  QCOMPARE(c.model.hidden, (std::vector<int64_t>{256, 128}));
  QVERIFY(!c.training.seed);
  QCOMPARE(QString::fromStdString(c.optimizer.name), QString("sgd"));
  QCOMPARE(c.optimizer.lr, 3e-4);
  QVERIFY(c.training.clip.enabled);
}

void TstConfig::invalidValuesNameTheKey_data() {
  QTest::addColumn<QString>("assignment");
  QTest::addColumn<QString>("key");
  QTest::newRow("unknown key") << "training.bogus=1"
                               << "training.bogus";
  QTest::newRow("unknown section") << "nosuch.key=1"
                                   << "nosuch.key";
  QTest::newRow("batch size 0") << "training.batch_size=0"
                                << "training.batch_size";
  QTest::newRow("epochs not integer") << "training.epochs=2.5"
                                      << "training.epochs";
  QTest::newRow("negative lr") << "optimizer.lr=-1"
                               << "optimizer.lr";
  QTest::newRow("lr as text") << "optimizer.lr=fast"
                              << "optimizer.lr";
  QTest::newRow("unknown optimizer") << "optimizer.name=rmsprop"
                                     << "optimizer.name";
  QTest::newRow("unknown activation") << "model.activation=swish"
                                      << "model.activation";
  QTest::newRow("dropout 1") << "model.dropout=1"
                             << "model.dropout";
  QTest::newRow("hidden not a list") << "model.hidden=12"
                                     << "model.hidden";
  QTest::newRow("hidden zero width") << "model.hidden=[0]"
                                     << "model.hidden";
  QTest::newRow("val fraction 1") << "data.val_fraction=1"
                                  << "data.val_fraction";
  QTest::newRow("unknown source") << "data.source=imagenet"
                                  << "data.source";
  QTest::newRow("seed too large") << "training.seed=2147483648"
                                  << "training.seed";
  QTest::newRow("seed negative") << "training.seed=-1"
                                 << "training.seed";
  QTest::newRow("threads as text") << "training.num_threads=fast"
                                   << "training.num_threads";
  QTest::newRow("threads 0") << "training.num_threads=0"
                             << "training.num_threads";
  QTest::newRow("bad device") << "training.device=tpu"
                              << "training.device";
  QTest::newRow("bad non_finite") << "training.non_finite=ignore"
                                  << "training.non_finite";
  QTest::newRow("grad_accum_steps 0") << "training.grad_accum_steps=0"
                                      << "training.grad_accum_steps";
  QTest::newRow("amp not bool") << "training.amp=yes"
                                << "training.amp";
  QTest::newRow("deterministic not bool") << "training.deterministic=1"
                                          << "training.deterministic";
  QTest::newRow("max_norm 0") << "training.clip.max_norm=0"
                              << "training.clip.max_norm";
  QTest::newRow("max_norm negative") << "training.clip.max_norm=-1"
                                     << "training.clip.max_norm";
  QTest::newRow("max_norm nan") << "training.clip.max_norm=\"nan\""
                                << "training.clip.max_norm";
  QTest::newRow("max_norm text") << "training.clip.max_norm=abc"
                                 << "training.clip.max_norm";
  QTest::newRow("norm_type 0") << "training.clip.norm_type=0"
                               << "training.clip.norm_type";
  QTest::newRow("norm_type fro") << "training.clip.norm_type=fro"
                                 << "training.clip.norm_type";
  QTest::newRow("layer_stats_every negative") << "training.layer_stats_every=-1"
                                              << "training.layer_stats_every";
  QTest::newRow("clip enabled not bool") << "training.clip.enabled=1"
                                         << "training.clip.enabled";
  QTest::newRow("betas one value") << "optimizer.betas=[0.9]"
                                   << "optimizer.betas";
  QTest::newRow("no equals sign") << "training.epochs"
                                  << "training.epochs";
  QTest::newRow("name with newline") << "name=\"a\\nb\""
                                     << "name";
  QTest::newRow("name with slash") << "name=a/b"
                                   << "name";
  QTest::newRow("name dot-dot") << "name=.."
                                << "name";
  // Finite doubles that float32, the training dtype, cannot hold (FLT_MAX 3.4028235e38, the
  // smallest subnormal 1.4e-45): libtorch's "cannot be converted to type float" exit 1 before.
  QTest::newRow("lr 1e39") << "optimizer.lr=1e39"
                           << "optimizer.lr";
  QTest::newRow("lr 1e308") << "optimizer.lr=1e308"
                            << "optimizer.lr";
  QTest::newRow("lr 1e-50") << "optimizer.lr=1e-50"
                            << "optimizer.lr";
  QTest::newRow("max_norm 1e39") << "training.clip.max_norm=1e39"
                                 << "training.clip.max_norm";
}

void TstConfig::invalidValuesNameTheKey() {
  QFETCH(QString, assignment);
  QFETCH(QString, key);
  try {
    resolveConfig("overfit-sine", {}, {assignment.toStdString()});
    QFAIL("invalid value accepted");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Config);
    QCOMPARE(QString::fromStdString(e.subject()), key);
    QVERIFY2(QString(e.what()).contains(key), e.what());
  }
}

void TstConfig::fileErrorsNameTheFile() {
  QTemporaryDir tmp;
  std::string bad_json = tmp.path().toStdString() + "/broken.json";
  std::ofstream(bad_json) << "{\"training\": ";
  std::string bad_value = tmp.path().toStdString() + "/bad.json";
  std::ofstream(bad_value) << R"({"training": {"batch_size": -3}})";
  for (const std::string& f : {bad_json, bad_value, tmp.path().toStdString() + "/missing.json",
                               tmp.path().toStdString()}) {
    try {
      resolveConfig("", f, {});
      QFAIL("bad file accepted");
    } catch (const Error& e) {
      QVERIFY2(std::string(e.what()).find(f) != std::string::npos, e.what());
    }
  }
  try {
    resolveConfig("", bad_value, {});
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("training.batch_size"));
  }
}

void TstConfig::saveAndReload() {
  QTemporaryDir tmp;
  std::string f = tmp.path().toStdString() + "/saved.json";
  TrainConfig c = resolveConfig("fashion-mnist-mlp", {}, {"optimizer.lr=3e-4", "data.limit=500"});
  saveConfigFile(f, c);
  TrainConfig back = resolveConfig("", f, {});
  QCOMPARE(configToJson(back), configToJson(c));
}

void TstConfig::validateTypedConfig_data() {
  QTest::addColumn<int>("which");
  QTest::addColumn<QString>("key");
  QTest::newRow("batch size 0") << 0 << "training.batch_size";
  QTest::newRow("seed above 2^31-1") << 1 << "training.seed";
  QTest::newRow("lr 0") << 2 << "optimizer.lr";
  QTest::newRow("dropout 1") << 3 << "model.dropout";
  QTest::newRow("unknown activation") << 4 << "model.activation";
  QTest::newRow("hidden width 0") << 5 << "model.hidden";
  QTest::newRow("beta 1") << 6 << "optimizer.betas";
  QTest::newRow("device tpu") << 7 << "training.device";
  QTest::newRow("name with slash") << 8 << "name";
  QTest::newRow("lr nan") << 9 << "optimizer.lr";
}

void TstConfig::validateTypedConfig() {
  QFETCH(int, which);
  QFETCH(QString, key);
  validate(TrainConfig{});  // the defaults are valid
  TrainConfig c;
  switch (which) {
    case 0:
      c.training.batch_size = 0;
      break;
    case 1:
      c.training.seed = kMaxSeed + 1;
      break;
    case 2:
      c.optimizer.lr = 0;
      break;
    case 3:
      c.model.dropout = 1;
      break;
    case 4:
      c.model.activation = "swish";
      break;
    case 5:
      c.model.hidden = {64, 0};
      break;
    case 6:
      c.optimizer.betas = {0.9, 1.0};
      break;
    case 7:
      c.training.device = "tpu";
      break;
    case 8:
      c.name = "a/b";
      break;
    case 9:
      c.optimizer.lr = std::nan("");
      break;
  }
  try {
    validate(c);
    QFAIL("invalid config accepted");
  } catch (const Error& e) {
    QCOMPARE(e.code(), ErrorCode::Config);
    QCOMPARE(QString::fromStdString(e.subject()), key);
    QVERIFY2(QString(e.what()).startsWith(key + " must be"), e.what());
  }
}

// nn.LSTM / nn.GRU take no nonlinearity: relu there would be ignored, so it is refused.
void TstConfig::rnnNonlinearityNeedsAnRnnCell() {
  TrainConfig c;
  c.model.kind = "rnn";
  c.model.rnn.cell = "rnn";
  c.model.rnn.nonlinearity = "relu";
  validate(c);  // nn.RNN(nonlinearity="relu")
  c.model.rnn.cell = "lstm";
  try {
    validate(c);
    QFAIL("relu with an LSTM accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("model.rnn.nonlinearity"));
    QVERIFY2(QString(e.what()).contains("\"lstm\""), e.what());
  }
  c.model.rnn.nonlinearity = "tanh";
  validate(c);
}

void TstConfig::presetConfigIsDefaultsPlusPreset() {
  // presetConfig(name) == defaults merged with presetJson(name), converted.
  for (const auto& p : presets()) {
    json j = defaultConfigJson();
    mergeConfigJson(j, presetJson(p.name));
    QCOMPARE(configToJson(presetConfig(p.name)), configToJson(configFromJson(j)));
  }
  try {
    presetConfig("nope");
    QFAIL("unknown preset accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("preset"));
  }
}

void TstConfig::numThreadsAcceptsAuto() {
  // "auto" is the default; it reads as an unset count and is written back as "auto".
  QCOMPARE(defaultConfigJson()["training"]["num_threads"], json("auto"));
  TrainConfig c = configFromJson(json{{"training", {{"num_threads", "auto"}}}});
  QVERIFY(!c.training.num_threads.has_value());
  QCOMPARE(configToJson(c)["training"]["num_threads"], json("auto"));
  // null (config files written before "auto" existed) still loads, as "auto".
  c = configFromJson(json{{"training", {{"num_threads", nullptr}}}});
  QVERIFY(!c.training.num_threads.has_value());
  // An explicit count stays an integer.
  c = configFromJson(json{{"training", {{"num_threads", 3}}}});
  QCOMPARE(c.training.num_threads.value_or(0), int64_t{3});
  QCOMPARE(configToJson(c)["training"]["num_threads"], json(3));
  json j = defaultConfigJson();
  applySet(j, "training.num_threads=auto");
  QCOMPARE(j["training"]["num_threads"], json("auto"));
  try {
    configFromJson(json{{"training", {{"num_threads", "many"}}}});
    QFAIL("num_threads \"many\" accepted");
  } catch (const Error& e) {
    QCOMPARE(QString::fromStdString(e.subject()), QString("training.num_threads"));
    QVERIFY2(std::string(e.what()).find("must be an integer or \"auto\", got \"many\"") !=
                 std::string::npos,
             e.what());
  }
  // An integer-or-null key says so (data.limit: null = every sample).
  try {
    configFromJson(json{{"data", {{"limit", 1.5}}}});
    QFAIL("data.limit 1.5 accepted");
  } catch (const Error& e) {
    QVERIFY2(std::string(e.what()).find("data.limit must be an integer or null, got 1.5") != std::string::npos,
             e.what());
  }
  // The presets leave the count to "auto", except the two tiny models (see presets.cpp).
  QVERIFY(!resolveConfig("fashion-mnist-mlp", {}, {}).training.num_threads.has_value());
}

void TstConfig::configChangesListDifferingKeys() {
  TrainConfig a = presetConfig("moons");
  TrainConfig b = a;
  QVERIFY(configChanges(a, b).empty());
  b.name = "other";  // names only the run folder
  QVERIFY(configChanges(a, b).empty());
  b.model.dropout = 0.3;
  b.model.hidden = {64, 8};
  b.training.seed.reset();
  const std::vector<ConfigChange> c = configChanges(a, b);
  QCOMPARE(c.size(), size_t{3});
  // Sorted by key.
  QCOMPARE(c[0].key, std::string("model.dropout"));
  QCOMPARE(c[0].before, std::string("0.0"));
  QCOMPARE(c[0].after, std::string("0.3"));
  QCOMPARE(c[1].key, std::string("model.hidden"));
  QCOMPARE(c[1].after, std::string("[64,8]"));
  QCOMPARE(c[2].key, std::string("training.seed"));
  QCOMPARE(c[2].before, std::to_string(*a.training.seed));
  QCOMPARE(c[2].after, std::string("null"));
}

void TstConfig::fileNamesItsBasePreset() {
  // A teacher's two-line lesson file: moons with a larger learning rate. Expected: the moons
  // preset (its JSON merged over the defaults here), lr replaced, named after the file.
  QTemporaryDir tmp;
  const std::string lesson =
      writeFile(tmp, "lesson1.json", R"({"preset": "moons", "optimizer": {"lr": 0.1}})");
  json expected = defaultConfigJson();
  mergeConfigJson(expected, presetJson("moons"));
  expected["optimizer"]["lr"] = 0.1;
  expected["name"] = "lesson1";
  QCOMPARE(configToJson(resolveConfig("", lesson, {})), configToJson(configFromJson(expected)));
  // moons' values, not the defaults' ({128, 128}, 200)
  QCOMPARE(resolveConfig("", lesson, {}).model.hidden, (std::vector<int64_t>{32, 32}));
  QCOMPARE(resolveConfig("", lesson, {}).data.n_samples, int64_t{1000});
  // --set still beats the file; --preset naming the same preset is fine.
  TrainConfig c = resolveConfig("moons", lesson, {"optimizer.lr=0.2"});
  QCOMPARE(c.optimizer.lr, 0.2);
  QCOMPARE(c.data.source, std::string("moons"));
  QCOMPARE(c.name, std::string("moons"));  // --preset given: named after it (file has no name)
  // The GUI's reading of the same file: configFileJson gives the same config.
  QCOMPARE(configToJson(configFromJson(configFileJson(lesson))),
           configToJson(configFromJson(expected)));
  // --preset X --config Y (no "preset" in Y) layers Y on X.
  const std::string plain = writeFile(tmp, "plain.json", R"({"training": {"epochs": 3}})");
  c = resolveConfig("circles", plain, {});
  QCOMPARE(c.data.source, std::string("circles"));
  QCOMPARE(c.training.epochs, int64_t{3});
  QCOMPARE(c.model.hidden, (std::vector<int64_t>{16, 16}));  // circles'
}

void TstConfig::filePresetErrorsNameThePresets() {
  QTemporaryDir tmp;
  const std::string lesson = writeFile(tmp, "lesson.json", R"({"preset": "moons"})");
  const std::string unknown = writeFile(tmp, "unknown.json", R"({"preset": "moonz"})");
  const std::string number = writeFile(tmp, "number.json", R"({"preset": 3})");
  struct Case {
    std::string preset, file;
    std::vector<std::string> mentions;
  };
  for (const Case& k :
       {Case{"circles", lesson, {"circles", "moons", lesson}},
        Case{"", unknown, {"moonz", unknown, "overfit-sine"}}, Case{"", number, {number, "3"}}}) {
    try {
      resolveConfig(k.preset, k.file, {});
      QFAIL(("accepted: " + k.file).c_str());
    } catch (const Error& e) {
      QCOMPARE(e.code(), ErrorCode::Config);
      QCOMPARE(QString::fromStdString(e.subject()), QString("preset"));
      for (const auto& m : k.mentions)
        QVERIFY2(std::string(e.what()).find(m) != std::string::npos, e.what());
    }
  }
}

void TstConfig::runConfigOfAPresetFileReloads() {
  // config.json of a run (saveConfigFile) is fully resolved: no "preset", every key, and
  // loading it gives the same config.
  QTemporaryDir tmp;
  const std::string lesson =
      writeFile(tmp, "lesson.json", R"({"preset": "spirals", "training": {"epochs": 4}})");
  const TrainConfig c = resolveConfig("", lesson, {});
  const std::string saved = tmp.path().toStdString() + "/config.json";
  saveConfigFile(saved, c);
  const json on_disk = readConfigFile(saved);
  QVERIFY(!on_disk.contains("preset"));
  std::vector<std::string> a, b;
  leafKeys(on_disk, "", a);
  leafKeys(defaultConfigJson(), "", b);
  QCOMPARE(a, b);
  QCOMPARE(configToJson(resolveConfig("", saved, {})), configToJson(c));
  QCOMPARE(c.data.source, std::string("spirals"));
}

void TstConfig::dataPathNeedsAFileSource() {
  for (const char* source : {"sine", "moons", "circles", "spirals"}) {
    try {
      configFromJson(json{{"data", {{"source", source}, {"path", "/tmp/data"}}}});
      QFAIL(source);
    } catch (const Error& e) {
      QCOMPARE(QString::fromStdString(e.subject()), QString("data.path"));
      QVERIFY2(std::string(e.what()).find(source) != std::string::npos, e.what());
    }
  }
  // fashion-mnist reads its files from data.path.
  const TrainConfig c =
      configFromJson(json{{"data", {{"source", "fashion-mnist"}, {"path", "/tmp/data"}}}});
  QCOMPARE(c.data.path.value_or(""), std::string("/tmp/data"));
}

void TstConfig::keyReferenceCoversEveryKey() {
  // Every leaf of the defaults, once, with its default and a help text.
  const std::vector<ConfigKeyInfo> keys = configKeyInfos();
  std::vector<std::string> expected, listed;
  leafKeys(defaultConfigJson(), "", expected);
  for (const auto& k : keys) listed.push_back(k.key);
  std::sort(expected.begin(), expected.end());
  std::sort(listed.begin(), listed.end());
  QCOMPARE(listed, expected);
  for (const auto& k : keys) {
    json node = defaultConfigJson();
    std::stringstream path(k.key);
    for (std::string part; std::getline(path, part, '.');) node = node.at(part);
    QVERIFY2(k.default_value == node, k.key.c_str());
    QVERIFY2(k.help.size() > 5 && !k.type.empty(), k.key.c_str());
  }
  auto find = [&](const std::string& name) {
    for (const auto& k : keys)
      if (k.key == name) return k;
    qFatal("no key %s", name.c_str());
    return keys.front();
  };
  QCOMPARE(find("training.batch_size").allowed, std::string("1 <= x <= 16777216"));  // 2^24
  QCOMPARE(find("training.batch_size").type, std::string("integer"));
  QCOMPARE(find("data.val_fraction").allowed, std::string("0 < x < 1"));
  QCOMPARE(find("optimizer.lr").allowed, std::string("x > 0"));
  QCOMPARE(find("optimizer.name").choices, (std::vector<std::string>{"sgd", "adam", "adamw"}));
  QCOMPARE(find("optimizer.name").allowed, std::string("sgd, adam, adamw"));
  QCOMPARE(find("model.hidden").allowed, std::string("each 1 <= x <= 65536"));
  QCOMPARE(find("training.num_threads").type, std::string("integer or \"auto\""));
  QCOMPARE(find("training.device").allowed, std::string("auto, cpu, cuda or cuda:N"));
  QCOMPARE(find("data.path").type, std::string("string or null"));
}

void TstConfig::keyReferenceBoundsAreTheValidatedOnes() {
  // A second method for the bounds: configFromJson accepts a bound that is inclusive and
  // refuses it when exclusive, and refuses a value just outside.
  for (const auto& k : configKeyInfos()) {
    const bool integral = k.type.rfind("integer", 0) == 0 || k.type == "list of integers";
    const bool list = k.type.rfind("list", 0) == 0;
    auto accepted = [&](double v) {
      json value = integral ? json(static_cast<int64_t>(v)) : json(v);
      // data.image_folder.size is [height, width]: two values.
      const bool pair = k.type == "list of 2 numbers" || k.key == "data.image_folder.size";
      if (list) value = pair ? json{value, value} : json{value};
      // data.augment.color_jitter is [brightness, contrast, saturation, hue]: four values.
      if (k.key == "data.augment.color_jitter") value = json{v, v, v, std::min(v, 0.5)};
      json patch = value;
      std::vector<std::string> parts;
      std::stringstream path(k.key);
      for (std::string part; std::getline(path, part, '.');) parts.push_back(part);
      for (auto it = parts.rbegin(); it != parts.rend(); ++it) patch = json{{*it, patch}};
      // Augmentation transforms images: the keys are tried on an image source.
      if (k.key.rfind("data.augment.", 0) == 0) patch["data"]["source"] = "fashion-mnist";
      // scale and ratio are read by random_resized_crop alone
      if (k.key == "data.augment.scale" || k.key == "data.augment.ratio")
        patch["data"]["augment"]["random_resized_crop"] = true;
      try {
        configFromJson(patch);
        return true;
      } catch (const Error&) {
        return false;
      }
    };
    const double step = integral ? 1 : 1e-9;
    if (k.min) {
      QVERIFY2(accepted(*k.min) == !k.min_exclusive, k.key.c_str());
      QVERIFY2(!accepted(*k.min - std::max(step, std::fabs(*k.min) * 1e-9)), k.key.c_str());
    }
    if (k.max) {
      QVERIFY2(accepted(*k.max) == !k.max_exclusive, k.key.c_str());
      QVERIFY2(!accepted(*k.max + std::max(step, std::fabs(*k.max) * 1e-9)), k.key.c_str());
    }
  }
}

QTEST_GUILESS_MAIN(TstConfig)
#include "tst_config.moc"

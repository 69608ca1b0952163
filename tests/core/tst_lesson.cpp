// Lesson files: the built-in lessons parse, have every text in English and
// Chinese and start from the config their file names; bad lesson files are refused with the
// file and the place in it named; a lesson round-trips through lessonToJson.
#include <sys/stat.h>

#include <QtTest/QtTest>
#include <fstream>
#include <regex>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/errors.h"
#include "core/sweep/sweep_file.h"
#include "core/train/teaching/lesson.h"

using namespace trainscope;
using nlohmann::json;

namespace {

const std::filesystem::path kLessons =
    std::filesystem::path(TRAINSCOPE_SOURCE_DIR) / "resources" / "lessons";

/// True when `s` holds a character of the CJK Unified Ideographs block (U+4E00..U+9FFF).
bool hasChinese(const std::string& s) {
  for (size_t i = 0; i + 2 < s.size(); ++i) {
    const auto c0 = static_cast<unsigned char>(s[i]), c1 = static_cast<unsigned char>(s[i + 1]);
    if (c0 >= 0xE4 && c0 <= 0xE9 && (c1 & 0xC0) == 0x80) return true;
  }
  return false;
}

std::string refusal(const json& j) {
  try {
    lessonFromJson(j, "bad.tslesson");
  } catch (const Error& e) {
    return e.what();
  }
  return "(accepted)";
}

json minimal() {
  return json::parse(R"({"preset": "moons", "lesson": {"title": {"en": "T", "zh_CN": "题"},
                         "steps": [{"text": {"en": "A", "zh_CN": "甲"}}]}})");
}

}  // namespace

class TstLesson : public QObject {
  Q_OBJECT
 private Q_SLOTS:
  void builtInLessonsAreComplete();
  void baseConfigIsTheFilesConfig();
  void badLessonsAreRefusedByPlace();
  void roundTrip();
};

void TstLesson::builtInLessonsAreComplete() {
  const std::vector<std::string> names = {"device",      "seeds",    "train-eval",
                                          "clipping",    "amp",      "checkpoint",
                                          "overfitting", "nan-loss", "loss-not-decreasing",
                                          "experiment-log", "learning-rate", "what-it-learned"};
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kLessons))
    files += entry.path().extension() == ".tslesson";
  QCOMPARE(files, names.size());
  for (const std::string& name : names) {
    const Lesson l = readLesson(kLessons / (name + ".tslesson"));
    QVERIFY2(l.steps.size() >= 3, name.c_str());
    auto both = [&](const LessonText& t, const std::string& what) {
      const std::string where = name + ": " + what;
      QVERIFY2(t.by_language.count("en") && t.by_language.count("zh_CN"), where.c_str());
      QVERIFY2(hasChinese(t.in("zh_CN")) && !hasChinese(t.in("en")), where.c_str());
      // Short enough to read aloud and to fit the panel at 1024x768 in presentation mode.
      QVERIFY2(t.in("en").size() <= 240, where.c_str());
    };
    both(l.title, "title");
    bool acts = false;
    for (size_t i = 0; i < l.steps.size(); ++i) {
      both(l.steps[i].text, "step " + std::to_string(i + 1));
      if (!l.steps[i].question.empty()) both(l.steps[i].question, "question " + std::to_string(i + 1));
      acts = acts || !l.steps[i].actions.empty();
    }
    QVERIFY2(acts, name.c_str());  // every lesson shows something happen
    // a sweep action is a sweep file the dashboard can start: parseSweep of the lesson's
    // config with the action's fields (errors name the key)
    for (const LessonStep& s : l.steps)
      for (const LessonAction& a : s.actions)
        if (a.kind == LessonAction::Kind::Sweep) {
          try {
            const SweepSpec spec = parseSweep(a.settings, kLessons / "lesson.sweep.json", &l.config);
            QVERIFY2(!spec.parameters.empty(), name.c_str());
          } catch (const std::exception& e) {
            QFAIL((name + ": " + e.what()).c_str());
          }
        }
    QVERIFY2(!l.steps.back().question.empty(), name.c_str());  // and ends with a question
  }
}

void TstLesson::baseConfigIsTheFilesConfig() {
  // The seeds lesson: overfit-sine with 200 epochs and seed 42, as its file says.
  std::ifstream in(kLessons / "seeds.tslesson");
  const json file = json::parse(in);
  const Lesson l = readLesson(kLessons / "seeds.tslesson");
  QCOMPARE(l.config["training"]["epochs"].get<int>(), file["training"]["epochs"].get<int>());
  QCOMPARE(l.config["training"]["seed"].get<int>(), 42);
  json preset = defaultConfigJson();
  mergeConfigJson(preset, presetJson("overfit-sine"));
  QCOMPARE(l.config["data"], configToJson(configFromJson(preset))["data"]);
  QVERIFY(l.file.is_absolute());
  // Its last step turns the seed off: a Set of null.
  const auto& last = l.steps.back().actions.front();
  QVERIFY(last.kind == LessonAction::Kind::Set && last.settings["training.seed"].is_null());
  // A text in one language is shown in the other too.
  LessonText t;
  t.by_language["en"] = "only";
  QCOMPARE(t.in("zh_CN"), std::string("only"));
}

void TstLesson::badLessonsAreRefusedByPlace() {
  auto refused = [](json j, const std::string& expect) {
    const std::string m = refusal(j);
    QVERIFY2(m.find("bad.tslesson") != std::string::npos && m.find(expect) != std::string::npos,
             (m + "  [expected: " + expect + "]").c_str());
  };
  QCOMPARE(refusal(minimal()), std::string("(accepted)"));
  json j = minimal();
  j.erase("lesson");
  refused(j, "has no \"lesson\" section");
  j = minimal();
  j["lesson"]["steps"][0]["actions"] = json::array({"strat"});
  refused(j, "lesson.steps[0].actions[0]: unknown action \"strat\"");
  j["lesson"]["steps"][0]["actions"] = json::array({json{{"start", 1}}});
  refused(j, "\"start\" takes no value");
  j["lesson"]["steps"][0]["actions"] = json::array({json{{"run_until_epoch", 0}}});
  refused(j, "lesson.steps[0].actions[0].run_until_epoch: must be a whole number of at least 1");
  j["lesson"]["steps"][0]["actions"] = json::array({json{{"run_until_epoch", 31}}});  // moons: 30
  refused(j, "31 is past the run's last epoch (training.epochs is 30 at this step)");
  j["lesson"]["steps"][0]["actions"] =
      json::array({json{{"set", {{"training.epochs", 40}}}}, json{{"run_until_epoch", 31}}});
  QCOMPARE(refusal(j), std::string("(accepted)"));  // the step's own set comes first
  j["lesson"]["steps"][0]["actions"] = json::array({json{{"set", {{"optimizer.lr", -1}}}}});
  refused(j, "lesson.steps[0].actions[0].set.optimizer.lr");
  j["lesson"]["steps"][0]["actions"] = json::array({json{{"set", {{"optimizer.lrr", 1}}}}});
  refused(j, "optimizer.lrr");
  j["lesson"]["steps"][0]["actions"] = json::array({json{{"open_view", "plots"}}});
  refused(j, "unknown view \"plots\"");
  j = minimal();
  j["lesson"]["steps"][0]["look_at"] = "lossplot";
  refused(j, "lesson.steps[0].look_at: unknown view");
  j = minimal();
  j["lesson"]["steps"][0]["text"] = {{"fr", "bonjour"}};
  refused(j, "unknown language \"fr\"");
  j = minimal();
  j["lesson"]["steps"][0].erase("text");
  refused(j, "lesson.steps[0]: has no \"text\"");
  j = minimal();
  j["lesson"]["steps"][0]["hide"] = {"settings", "plots"};
  refused(j, "lesson.steps[0].hide[1]: unknown name \"plots\"");
  j = minimal();
  j["lesson"]["steps"][0]["sound"] = true;
  refused(j, "unknown key \"sound\"");
  j = minimal();
  j["lesson"]["steps"] = json::array();
  refused(j, "lesson.steps: must be a non-empty list");
  j = minimal();
  j["preset"] = "moon";
  refused(j, "the base config");
  j = minimal();
  j["training"] = {{"batch_size", 0}};
  refused(j, "training.batch_size");
  // A later step's settings are checked over the earlier ones: epochs set, then an lr refused.
  j = minimal();
  j["lesson"]["steps"].push_back(
      {{"text", "B"}, {"actions", {json{{"set", {{"training.epochs", 5}}}}}}});
  j["lesson"]["steps"].push_back(
      {{"text", "C"}, {"actions", {json{{"set", {{"optimizer.lr", "fast"}}}}}}});
  refused(j, "lesson.steps[2].actions[0].set.optimizer.lr");
  // Files: missing, a folder, not JSON.
  QTemporaryDir tmp;
  const std::filesystem::path dir = tmp.path().toStdString();
  auto fileRefusal = [](const std::filesystem::path& p) -> std::string {
    try {
      readLesson(p);
    } catch (const Error& e) {
      return e.what();
    }
    return "(accepted)";
  };
  QVERIFY(fileRefusal(dir / "none.tslesson").find("none.tslesson does not exist") != std::string::npos);
  QVERIFY(fileRefusal(dir).find("is a folder") != std::string::npos);
  std::ofstream(dir / "broken.tslesson") << "{\"lesson\": ";
  QVERIFY(fileRefusal(dir / "broken.tslesson").find("broken.tslesson: not JSON") != std::string::npos);
  // Issue 44 items 5, 6, 8: nested 100,000 deep (a stack overflow), a FIFO (the open blocked the
  // dashboard), a 10 MB step text and 10,000 steps (froze it): refused, naming the file and place
  std::ofstream(dir / "deep.tslesson") << "{\"lesson\": " << std::string(100000, '[')
                                       << std::string(100000, ']') << "}";
  QVERIFY2(fileRefusal(dir / "deep.tslesson").find("nested deeper than 256") != std::string::npos,
           fileRefusal(dir / "deep.tslesson").c_str());
  const std::filesystem::path fifo = dir / "pipe.tslesson";
  QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
  QVERIFY2(fileRefusal(fifo).find("FIFO") != std::string::npos, fileRefusal(fifo).c_str());
  json big = minimal();
  big["lesson"]["steps"][0]["text"] = {{"en", std::string(10'000'000, 'a')}};
  refused(big, "lesson.steps[0].text.en: is 10000000 bytes");
  big = minimal();
  big["lesson"]["steps"][0]["text"] = std::string(4001, 'a');
  refused(big, "lesson.steps[0].text: is 4001 bytes");
  big = minimal();
  big["lesson"]["steps"] = json::array();
  for (int i = 0; i < 10000; ++i) big["lesson"]["steps"].push_back({{"text", "step"}});
  refused(big, "lesson.steps: has 10000 steps");
  std::ofstream(dir / "huge.tslesson") << std::string(2 << 20, ' ');
  QVERIFY(fileRefusal(dir / "huge.tslesson").find("larger than 1 MiB") != std::string::npos);
}

void TstLesson::roundTrip() {
  for (const auto& entry : std::filesystem::directory_iterator(kLessons)) {
    const Lesson a = readLesson(entry.path());
    const json written = lessonToJson(a);
    const Lesson b = lessonFromJson(written, entry.path());
    QCOMPARE(lessonToJson(b).dump(), written.dump());
    QCOMPARE(b.steps.size(), a.steps.size());
    QCOMPARE(b.config, a.config);
  }
}

QTEST_GUILESS_MAIN(TstLesson)
#include "tst_lesson.moc"

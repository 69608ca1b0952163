// Interoperability with Python PyTorch (Debian's python3-torch, TRAINSCOPE_TEST_PYTHON): a
// TrainScope checkpoint opens with torch.load, its model_state_dict loads into the equivalent
// nn.Sequential with strict=True and gives TrainScope's outputs on the same input (within
// 1e-6), and its optimizer_state_dict loads into torch.optim.Adam with the saved buffers and
// learning rate.
#include <ATen/CPUGeneratorImpl.h>
#include <torch/serialize.h>
#include <torch/torch.h>

#include <QtTest/QtTest>
#include <fstream>

#include "core/config/config_json.h"
#include "core/config/train_config.h"
#include "core/train/state/checkpoint.h"
#include "core/model/model.h"
#include "core/optim/optimizer_factory.h"
#include "core/train/state/train_state_io.h"
#include "core/train/trainer.h"
#include "python_runner.h"
#include "test_util.h"
#include "test_main.h"

// Its own namespace: core_tests compiles suites in unity batches (tests/common/test_main.h).
namespace tst_checkpoint_python_suite {

using namespace trainscope;
namespace fs = std::filesystem;

namespace {

// Reads the checkpoint and the C++ outputs; prints one line "OK <max abs difference>" or
// raises. Model: moons (2 inputs, 2 classes), hidden [16, 16], tanh, dropout 0.2.
const char* kScript = R"PY(
import sys, torch
ckpt = torch.load(sys.argv[1])
ref = torch.load(sys.argv[2])
assert isinstance(ckpt, dict), type(ckpt)
assert ckpt["format"] == "trainscope.checkpoint"
nn = torch.nn
model = nn.Sequential(nn.Linear(2, 16), nn.Tanh(), nn.Dropout(0.2),
                      nn.Linear(16, 16), nn.Tanh(), nn.Dropout(0.2), nn.Linear(16, 2))
model.load_state_dict(ckpt["model_state_dict"], strict=True)
model.eval()
with torch.no_grad():
    out = model(ref["x"])
diff = (out - ref["y"]).abs().max().item()
assert diff <= 1e-6, diff
opt = torch.optim.Adam(model.parameters(), lr=0.5)
opt.load_state_dict(ckpt["optimizer_state_dict"])
group = opt.param_groups[0]
assert group["lr"] == 0.01, group["lr"]
assert group["betas"] == (0.9, 0.999), group["betas"]
first = next(iter(model.parameters()))
state = opt.state[first]
assert torch.equal(state["exp_avg"], ckpt["optimizer_state_dict"]["state"][0]["exp_avg"])
assert float(state["step"]) == ckpt["global_step"], (state["step"], ckpt["global_step"])
for p in model.parameters():
    p.grad = torch.ones_like(p)
opt.step()  # the loaded state is usable
assert ckpt["epoch"] == 2 and ckpt["batch_in_epoch"] == 0
h = ckpt["history"]  # format_version 2: columns
assert ckpt["format_version"] == 2 and h["epoch"].tolist() == [1, 2] and h["epoch"].dtype == torch.int64
assert h["val_loss"].dtype == torch.float64 and h["val_loss"].shape == (2,)
assert h["present"]["val_accuracy"].tolist() == [True, True] and 0 <= float(h["val_accuracy"][1]) <= 1
assert h["present"]["val_r2"].tolist() == [False, False] and torch.isnan(h["val_r2"]).all()
assert ckpt["monitor"] == "val_loss" and ckpt["best_loss"] == float(h["val_loss"].min())
assert isinstance(ckpt["config"], str) and ckpt["rng_state"]["torch_cpu"].dtype == torch.uint8
print("OK", diff)
)PY";

}  // namespace

class TstCheckpointPython : public QObject {
  Q_OBJECT

 private Q_SLOTS:
  void pythonLoadsTheCheckpoint();
};

void TstCheckpointPython::pythonLoadsTheCheckpoint() {
  QTemporaryDir tmp;
  QVERIFY(tmp.isValid());
  const fs::path root = tmp.path().toStdString();
  TrainConfig c = resolveConfig("moons", {}, {});
  c.model.hidden = {16, 16};
  c.model.dropout = 0.2;
  c.training.epochs = 2;
  TrainerOptions o;
  o.run_dir = root / "run";
  Trainer trainer(c, o);
  COMPARE_REASON(trainer.run().stop_reason, StopReason::Completed);
  const fs::path file = o.run_dir / "checkpoints" / "last.pt";

  // TrainScope's outputs: the checkpoint loaded into a model built by TrainScope, eval mode.
  TrainState s;
  s.model = buildModel(c.model, 2, 2);
  s.params = s.model->parameters();
  s.optimizer = makeOptimizer(c.optimizer, s.params);
  s.shuffle_gen = at::make_generator<at::CPUGeneratorImpl>(1);
  loadCheckpoint(s, "adam", file);
  s.model->eval();
  torch::NoGradGuard no_grad;
  at::Tensor x = torch::linspace(-2, 2, 40).reshape({20, 2});
  at::Tensor y = s.model->forward(x);
  c10::impl::GenericDict ref(c10::StringType::get(), c10::AnyType::get());
  ref.insert("x", x);
  ref.insert("y", y);
  const fs::path ref_file = root / "ref.pt";
  std::vector<char> bytes = torch::pickle_save(c10::IValue(ref));
  std::ofstream(ref_file, std::ios::binary).write(bytes.data(), bytes.size());

  const testpython::Result py = testpython::script(
      kScript, {QString::fromStdString(file.string()), QString::fromStdString(ref_file.string())});
  QVERIFY2(py.finished, qPrintable(py.why));
  const QByteArray &out = py.out, &err = py.err;
  QVERIFY2(py.exit_code == 0, (out + err).constData());
  QVERIFY2(out.startsWith("OK "), (out + err).constData());
}

TRAINSCOPE_TEST_MAIN(TstCheckpointPython)
}  // namespace tst_checkpoint_python_suite
#include "tst_checkpoint_python.moc"

// "Show me the PyTorch code": a config written as a plain torch 1.13 script (python_script.h):
// the header and settings, the pieces of python_script_parts.h, then the training loop as
// core/train/loop/trainer_loop.cpp and core/train/step/step.cpp run it.
#include "core/train/teaching/python_script.h"

#include <algorithm>

#include "core/config/kinds.h"
#include "core/config/mistakes.h"
#include "core/config/train_config.h"
#include "core/train/teaching/python_script_parts.h"

namespace trainscope {

using namespace python_script;

std::string pythonScript(const TrainConfig& c, const PythonScriptSource& source) {
  const DataFacts f = source.own_data ? ownDataFacts(*source.own_data) : dataFacts(c.data);
  // The modules the data source's row asks for (DataSourceKind::python_modules).
  const DataSourceKind* data_kind = findDataSource(c.data.source);
  auto imports = [data_kind](const std::string& module) {
    return data_kind && std::find(data_kind->python_modules.begin(),
                                  data_kind->python_modules.end(),
                                  module) != data_kind->python_modules.end();
  };
  const ModelKind* model_kind = findModelKind(c.model.kind);
  const bool torchscript = model_kind && model_kind->architecture_from_file;  // a TorchScript file
  const Mistakes mistakes = parseMistakes(c.teaching.mistakes);
  const TrainingConfig& t = c.training;
  const std::string loss_fn = !f.classification                   ? "F.mse_loss"
                              : t.class_weights.mode != "none" ? "weighted_cross_entropy"
                                                               : "F.cross_entropy";
  const bool clip = t.clip.enabled;
  const std::string non_finite = t.non_finite.value_or("stop");
  const int64_t accum = t.grad_accum_steps;
  std::ostringstream o;

  o << kPythonScriptMarker << " (trainscope-cli export-python): " << c.name
    << " as plain PyTorch.\n"
       "\"\"\"" << c.name << ", written as a plain PyTorch 1.13 script.\n\n"
       "From " << source.description << ". Trains the way TrainScope trains it: the data, the\n"
       "split and the model are built in TrainScope's order, so with the same seed the weights\n"
       "start equal and, on the CPU, every step's loss equals TrainScope's steps.csv, bit for\n"
       "bit (elsewhere to about 1e-6).\n\n";
  for (const std::string& caveat : source.caveats) o << "NOTE: " << caveat << "\n";
  if (!source.caveats.empty()) o << "\n";
  o << 
       "    python3 SCRIPT.py --out DIR    also writes DIR/steps.csv (step, loss), DIR/metrics.csv\n"
       "                                   and DIR/checkpoints/last.pt (and best.pt)\n"
       "\"\"\"\n"
       "import argparse\n"
       "import csv\n";
  if (f.own) o << "import hashlib\n";
  if (f.images || imports("gzip")) o << "import gzip\n";
  if (f.own) o << "import json\n";
  o << "import math\n"
       "import os\n";
  if (!t.seed) o << "import random\n";
  o << "\n";
  if (imports("cv2"))
    o << "import cv2  # OpenCV (Debian: python3-opencv; pip: opencv-python), as TrainScope decodes\n";
  if (f.images || f.own) o << "import numpy as np\n";
  if (imports("pandas")) o << "import pandas as pd\n";
  o << "import torch\n"
       "import torch.nn.functional as F\n";
  if (f.images && c.data.augment.any())
    o << "import torchvision.transforms as T  # data.augment (Debian: python3-torchvision)\n";
  o << ""
       "from torch import nn\n\n"
       "# The settings, under TrainScope's config keys\n";
  if (t.seed)
    o << "SEED = " << *t.seed << "  # training.seed: initial weights, dropout, shuffling\n";
  else
    o << "SEED = random.SystemRandom().randrange(2**31)  # training.seed null: drawn\n"
         "print(f\"seed {SEED} (set SEED = {SEED} above to repeat this run)\")\n";
  o << "DATA_SEED = " << c.data.seed << "  # data.seed: samples, data.limit, the split\n"
       "EPOCHS = " << t.epochs << "  # training.epochs\n"
       "BATCH_SIZE = " << t.batch_size << "  # training.batch_size\n";
  if (accum > 1) o << "GRAD_ACCUM_STEPS = " << accum << "  # training.grad_accum_steps\n";
  o << "LR = " << py(c.optimizer.lr);
  if (mistakes.lr_factor != 1.0)
    o << " * " << py(mistakes.lr_factor) << "  # optimizer.lr  <- MISTAKE teaching.mistakes "
      << (mistakes.lr_factor > 1 ? "lr_x1000" : "lr_x1e-6") << ": a slipped exponent\n";
  else
    o << "  # optimizer.lr\n";
  if (clip)
    o << "MAX_NORM = " << py(t.clip.max_norm) << "  # training.clip.max_norm\n";
  o << "NUM_THREADS = " << t.num_threads.value_or(1) << "  # training.num_threads\n"
       "DEVICE = torch.device(";
  if (t.device == "auto")
    o << "\"cuda\" if torch.cuda.is_available() else \"cpu\")  # training.device auto\n";
  else
    o << pyStr(t.device) << ")  # training.device\n";
  if (t.amp)
    o << "# training.amp: autocast in bfloat16 on the CPU; float16 with a GradScaler on CUDA\n"
         "AMP_DTYPE = torch.float16 if DEVICE.type == \"cuda\" else torch.bfloat16\n";
  o << "\nparser = argparse.ArgumentParser(description=__doc__.splitlines()[0])\n"
       "parser.add_argument(\"--out\", help=\"a folder for steps.csv, metrics.csv and checkpoints/\")\n"
       "parser.add_argument(\"--epochs\", type=int, default=EPOCHS)\n"
       "args = parser.parse_args()\n\n"
       "# The data is prepared on one thread, as TrainScope prepares it: the order of a float\n"
       "# sum depends on the thread count.\n"
       "torch.set_num_threads(1)\n\n";
  if (source.own_data)
    writeOwnData(o, c, *source.own_data, f);
  else
    writeData(o, c.data, f);
  writeStandardize(o, c.data, f, torchscript);
  if (mistakes.shuffled_labels)
    o << "\n# MISTAKE teaching.mistakes shuffled_labels: the training labels shuffled against their\n"
         "# inputs (validation keeps its own): nothing learned carries over\n"
         "y_train = y_train[torch.randperm(len(y_train), generator=torch.Generator().manual_seed(SEED ^ 0x1ABE15))]\n";
  const bool weighted_loss = f.classification && t.class_weights.mode != "none";
  const bool weighted_sampler = f.classification && c.data.sampler == "weighted";
  if (weighted_loss || weighted_sampler)
    o << "\ncounts = torch.bincount(y_train, minlength=" << f.outputs << ").double()\n";
  if (weighted_loss && t.class_weights.mode == "balanced")
    o << "# training.class_weights \"balanced\": n_samples / (n_classes * count), as scikit-learn's\n"
         "# compute_class_weight(\"balanced\"); the training loss only (validation stays unweighted)\n"
         "CLASS_WEIGHTS = (len(y_train) / (" << f.outputs << " * counts)).float().to(DEVICE)\n";
  else if (weighted_loss)
    o << "# training.class_weights: the training loss only (validation stays unweighted)\n"
         "CLASS_WEIGHTS = torch.tensor(" << pyFloats(t.class_weights.weights)
      << ", dtype=torch.float64).float().to(DEVICE)\n";
  if (weighted_loss)
    o << "\n\ndef weighted_cross_entropy(out, y):\n"
         "    return F.cross_entropy(out, y, weight=CLASS_WEIGHTS)  # CrossEntropyLoss(weight=...)\n\n\n";
  if (weighted_sampler)
    o << "# data.sampler \"weighted\": WeightedRandomSampler(1 / count of the sample's class,\n"
         "# replacement=True): classes drawn equally often\n"
         "SAMPLE_WEIGHTS = counts.reciprocal()[y_train]\n";
  o << "print(f\"data: {len(x_train)} train / {len(x_val)} val samples\")\n\n"
       "# The model: torch.manual_seed first, then the layers in order, so the initial weights\n"
       "# are TrainScope's\n"
       "torch.manual_seed(SEED)\n";
  writeModel(o, c.model, c.data, f);
  o << "model = model.to(DEVICE)\n";
  writeOptimizer(o, c.optimizer);
  const std::string scheduler = schedulerCode(c.scheduler);
  o << scheduler;
  const bool plateau = c.scheduler.name == "ReduceLROnPlateau";
  if (t.amp) o << "scaler = torch.cuda.amp.GradScaler(enabled=DEVICE.type == \"cuda\")\n";
  writeGradientHelpers(o, t.clip);
  o << "torch.set_num_threads(NUM_THREADS)\n"
       "# The batches' order: its own generator of the training seed (dropout draws from the\n"
       "# global one)\n"
       "shuffle = torch.Generator().manual_seed(SEED ^ 0x5DEECE66D)\n\n"
       "steps_csv = metrics_csv = None\n"
       "if args.out and os.path.exists(os.path.join(args.out, \"run.json\")):\n"
       "    # A TrainScope run folder: its steps.csv is the record to compare with, never replaced\n"
       "    raise SystemExit(f\"{args.out} is a TrainScope run folder; give --out a folder of its own\")\n"
       "if args.out:\n"
       "    os.makedirs(os.path.join(args.out, \"checkpoints\"), exist_ok=True)\n"
       "    steps_csv = csv.writer(open(os.path.join(args.out, \"steps.csv\"), \"w\", newline=\"\", buffering=1))\n"
       "    steps_csv.writerow([\"step\", \"loss\"])\n"
       "    metrics_csv = csv.writer(open(os.path.join(args.out, \"metrics.csv\"), \"w\", newline=\"\", buffering=1))\n"
       "    metrics_csv.writerow([\"epoch\", \"step\", \"train_loss\", \"val_loss\""
    << (f.classification ? ", \"val_accuracy\"" : "") << "])\n\n\n";

  // Validation (core/train/step/step.cpp evaluateSums): chunks of max(batch, 1024), summed.
  const bool augment_val = mistakes.augment_validation && f.images && c.data.augment.any();
  o << (augment_val ? "def evaluate(x, y, epoch=None):\n" : "def evaluate(x, y):\n")
    << "    \"\"\"Mean loss" << (f.classification ? " and accuracy" : "")
    << " over a split, in eval mode without gradients.\"\"\"\n";
  if (mistakes.eval_in_train_mode)
    o << "    model.train()  # MISTAKE teaching.mistakes eval_in_train_mode: model.eval() forgotten\n";
  else
    o << "    model.eval()\n";
  std::string ind = "    ";
  if (mistakes.val_with_grad) {
    o << "    # MISTAKE teaching.mistakes val_with_grad: no torch.no_grad(), every chunk's graph\n"
         "    # is built and kept until the end (more memory and time, the same numbers)\n"
         "    kept = []\n";
  } else {
    o << "    with torch.no_grad():\n";
    ind = "        ";
  }
  o << ind << "total, correct = 0.0, 0\n"
    << ind << "chunk = max(BATCH_SIZE, 1024)\n"
    << ind << "for start in range(0, len(x), chunk):\n"
    << ind << "    xb = " << (f.images ? "to_inputs(x[start:start + chunk])" : "x[start:start + chunk]")
    << ".to(DEVICE)\n";
  if (augment_val)
    o << ind << "    if epoch is not None:  # MISTAKE teaching.mistakes augment_validation: the\n"
      << ind << "        # validation images through the training transforms (draws of their own)\n"
      << ind << "        xb = augment(x[start:start + chunk], epoch, start // chunk, SEED ^ 0x76616C).to(DEVICE)\n";
  o
    << ind << "    yb = y[start:start + chunk].to(DEVICE)\n"
    << ind << "    out = model(xb)\n";
  if (mistakes.val_with_grad) o << ind << "    kept.append(out)\n";
  if (f.classification)
    o << ind << "    total += F.cross_entropy(out, yb, reduction=\"sum\").item()\n"
      << ind << "    correct += (out.argmax(1) == yb).sum().item()\n"
      << ind << "return total / len(x), correct / len(x)\n\n\n";
  else
    o << ind << "    # per sample, the mean over its targets\n"
      << ind << "    total += F.mse_loss(out, yb, reduction=\"sum\").item() / (out.numel() / len(xb))\n"
      << ind << "return total / len(x), None\n\n\n";

  // The training loop (core/train/loop/trainer_loop.cpp, core/train/step/step.cpp).
  const std::string forward =
      t.amp ? "with torch.autocast(DEVICE.type, dtype=AMP_DTYPE):\n{I}    out = model(xb)\n"
              "{I}loss = " + loss_fn + "(out.float(), yb)\n"
            : "loss = " + loss_fn + "(model(xb), yb)\n";
  auto indent = [](std::string text, const std::string& in) {
    for (std::size_t p = text.find("{I}"); p != std::string::npos; p = text.find("{I}"))
      text.replace(p, 3, in);
    return in + text;
  };
  const std::string backward = t.amp ? "scaler.scale(loss).backward()" : "loss.backward()";
  const std::string update = t.amp ? "scaler.step(optimizer)\n{I}scaler.update()\n"
                                   : "optimizer.step()\n";
  const std::string unscale = t.amp ? "scaler.unscale_(optimizer)  # real gradients before measuring\n" : "";

  o << "step = 0\n"
       "stopped = False\n"
       "best_val = float(\"inf\")\n";
  if (t.early_stopping.enabled) o << "bad_epochs = 0  # training.early_stopping\n";
  if (mistakes.step_before_backward)
    o << "for p in model.parameters():  # the first step() meets zero gradients, as in TrainScope\n"
         "    p.grad = torch.zeros_like(p)\n";
  o << "for epoch in range(1, args.epochs + 1):\n"
       "    model.train()\n"
       << (weighted_sampler
               ? "    order = torch.multinomial(SAMPLE_WEIGHTS, len(x_train), True, generator=shuffle)\n"
               : "    order = torch.randperm(len(x_train), generator=shuffle)\n")
    << "    loss_sum = 0.0\n";
  std::string in = "        ";
  const std::string clip_call =
      clip ? "clip_gradients(grad_norm)  # training.clip. In your own code the two halves are one\n" +
                 in + "    # call: grad_norm = nn.utils.clip_grad_norm_(model.parameters(), MAX_NORM)\n"
           : "";
  const std::string end = t.drop_last ? "len(order) - len(order) % BATCH_SIZE" : "len(order)";
  if (t.drop_last)
    o << "    # training.drop_last: a last batch smaller than BATCH_SIZE is left out (DataLoader's "
         "drop_last=True)\n";
  if (accum > 1) {
    o << "    batches = [order[i:i + BATCH_SIZE] for i in range(0, " << end << ", BATCH_SIZE)]\n"
         "    for first in range(0, len(batches), GRAD_ACCUM_STEPS):\n"
         "        group = batches[first:first + GRAD_ACCUM_STEPS]  # training.grad_accum_steps\n";
  } else {
    o << "    for start in range(0, " << end << ", BATCH_SIZE):\n"
         "        batch = order[start:start + BATCH_SIZE]\n";
  }
  const std::string zero =
      mistakes.no_zero_grad
          ? "# optimizer.zero_grad()  <- MISTAKE teaching.mistakes no_zero_grad: forgotten, so every\n" +
                in + "# backward() adds to the gradients of all the steps before\n"
          : "optimizer.zero_grad()\n";
  const bool augment = f.images && c.data.augment.any();
  const std::string x_of =
      !f.images ? "x_train[batch]"
      : augment ? (accum == 1 ? "to_inputs(x_train[batch], epoch, start // BATCH_SIZE)"
                              : "to_inputs(x_train[batch], epoch, first + k)")
                : "to_inputs(x_train[batch])";
  auto writeMicroBatches = [&]() {
    if (accum == 1) {
      o << in << "xb, yb = " << x_of << ".to(DEVICE), y_train[batch].to(DEVICE)\n"
        << indent(forward, in) << in << backward << "\n"
        << in << "loss_value = loss.item()\n"
        << in << "loss_sum += loss_value * len(batch)\n";
      return;
    }
    o << in << "losses = []\n"
      << in << (augment ? "for k, batch in enumerate(group):\n" : "for batch in group:\n")
      << in << "    xb, yb = " << x_of << ".to(DEVICE), y_train[batch].to(DEVICE)\n"
      << indent(forward, in + "    ");
    o << in << "    losses.append(loss.item())\n"
      << in << "    loss_sum += loss.item() * len(batch)\n";
    o << in << "    if len(group) > 1:\n" << in << "        loss = loss / len(group)\n";
    o << in << "    " << backward << "\n"
      << in << "loss_value = sum(losses) / len(losses) if len(losses) > 1 else losses[0]\n";
  };
  if (mistakes.step_before_backward) {
    o << in << "# MISTAKE teaching.mistakes step_before_backward: optimizer.step() before backward():\n"
      << in << "# each update uses the previous batch's gradients, one step late\n"
      << in << "grad_norm = total_grad_norm()\n"
      << in << "finite = math.isfinite(grad_norm)\n"
      << in << "if finite:\n";
    if (clip) o << in << "    " << clip_call;
    o << indent(update, in + "    ") << in << zero;
    writeMicroBatches();
  } else {
    o << in << zero;
    writeMicroBatches();
    if (!unscale.empty()) o << in << unscale;
    o << in << "grad_norm = total_grad_norm()  # what clip_grad_norm_ returns\n"
      << in << "finite = math.isfinite(loss_value) and math.isfinite(grad_norm)\n"
      << in << "if finite:  # a non-finite loss or norm would poison the weights: no update\n";
    if (clip) o << in << "    " << clip_call;
    o << indent(update, in + "    ");
  }
  o << in << "step += 1\n"
    << in << "if steps_csv:\n"
    << in << "    steps_csv.writerow([step, loss_value])\n";
  {
    if (non_finite == "skip")
      o << in << "if not finite:\n"
        << in << "    print(f\"step {step}: non-finite loss or gradient, update skipped "
                 "(training.non_finite skip)\")\n";
    else
      o << in << "if not finite:\n"
        << in << "    stopped = True  # training.non_finite " << non_finite << ": the run stops\n"
        << in << "    break\n";
  }
  o << "    if stopped:  # no validation of a broken epoch\n"
       "        print(f\"stopped: a non-finite value at step {step}\")\n"
       "        break\n"
       "    train_loss = loss_sum / len(x_train)\n"
       "    val_loss, val_accuracy = evaluate(x_val, y_val"
    << (augment_val ? ", epoch" : "") << ")\n"
       "    lr = optimizer.param_groups[0][\"lr\"]\n"
       "    print(f\"epoch {epoch}/{args.epochs}  step {step}  train_loss {train_loss:.4f}  \"\n"
       "          f\"val_loss {val_loss:.4f}"
    << (f.classification ? "  val_accuracy {val_accuracy:.4f}" : "") << "  lr {lr:.4g}\")\n"
       "    if metrics_csv:\n"
       "        metrics_csv.writerow([epoch, step, train_loss, val_loss"
    << (f.classification ? ", val_accuracy" : "") << "])\n"
       "    improved = val_loss < best_val\n"
       "    if args.out:  # checkpoints, as torch.save writes them\n"
       "        state = {\"epoch\": epoch, \"global_step\": step, \"model_state_dict\": model.state_dict(),\n"
       "                 \"optimizer_state_dict\": optimizer.state_dict()}\n"
       "        torch.save(state, os.path.join(args.out, \"checkpoints\", \"last.pt\"))\n"
       "        if improved:\n"
       "            torch.save(state, os.path.join(args.out, \"checkpoints\", \"best.pt\"))\n";
  if (t.early_stopping.enabled) {
    o << "    # training.early_stopping: patience " << t.early_stopping.patience << ", min_delta "
      << py(t.early_stopping.min_delta) << "\n"
         "    if math.isfinite(val_loss) and val_loss + " << py(t.early_stopping.min_delta)
      << " < best_val:\n"
         "        bad_epochs = 0\n"
         "    else:\n"
         "        bad_epochs += 1\n";
  }
  o << "    best_val = min(best_val, val_loss)\n";
  if (!scheduler.empty())
    o << "    scheduler.step(" << (plateau ? "val_loss" : "") << ")  # once per epoch, after validation\n";
  if (t.early_stopping.enabled)
    o << "    if bad_epochs >= " << t.early_stopping.patience << ":\n"
         "        print(f\"early stop after epoch {epoch}\")\n"
         "        break\n";
  if (f.test)
    o << "\ntest_loss, test_accuracy = evaluate(x_test, y_test)\n"
         "print(f\"test_loss {test_loss:.4f}  test_accuracy {test_accuracy:.4f}\")\n";
  return o.str();
}

}  // namespace trainscope

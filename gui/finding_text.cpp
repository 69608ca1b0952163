#include "gui/finding_text.h"

#include <cmath>

#include "gui/event_text.h"
#include "gui/tr.h"

namespace trainscope {

namespace {

/// values[i] as text, or "?" when the engine sent fewer values than the code lists.
QString num(const Finding& f, size_t i) {
  return i < f.values.size() ? EventText::number(f.values[i]) : QStringLiteral("?");
}

/// values[i] as a whole number (steps, epochs, counts).
qlonglong whole(const Finding& f, size_t i) {
  return i < f.values.size() ? static_cast<qlonglong>(f.values[i]) : 0;
}

QString cause(const Finding& f) {
  const std::string& c = f.code;
  if (c == "lr_high")
    return Tr::tr("The learning rate %1 is high for %2: try 10x lower.")
        .arg(num(f, 0), QString::fromStdString(f.name));
  if (c == "lr_perhaps_high")
    return Tr::tr("The learning rate %1 is perhaps too high for this model: try 10x lower.")
        .arg(num(f, 0));
  if (c == "clip_off") return Tr::tr("Gradient clipping is off: turning it on bounds each update.");
  if (c == "clip_cannot_fix")
    return Tr::tr(
               "Clipping is on (max norm %1) but cannot rescale an inf or nan gradient: the "
               "weights were already bad; roll back to an earlier snapshot.")
        .arg(num(f, 0));
  if (c == "clip_drift")
    return Tr::tr(
               "Clipping is on (max norm %1), so the weights drifted over many steps: lower "
               "the learning rate or the max norm.")
        .arg(num(f, 0));
  if (c == "targets_scaled")
    return Tr::tr("The targets are scaled by %1: large targets give large losses and gradients.")
        .arg(num(f, 0));
  if (c == "inputs_raw") return Tr::tr("The inputs are not standardised.");
  return {};
}

QString evidence(const Finding& f) {
  const std::string& c = f.code;
  if (c == "non_finite_steps")
    return Tr::tr("%n non-finite step(s), the first at step %1 (loss %2).", nullptr,
                  static_cast<int>(whole(f, 0)))
        .arg(whole(f, 1))
        .arg(num(f, 2));
  if (c == "loss_exploded")
    return Tr::tr(
               "The training loss reached %1, over %2x the initial loss %3 (mean of the "
               "first %4 steps).")
        .arg(num(f, 0), num(f, 1), num(f, 2))
        .arg(whole(f, 3));
  if (c == "divergence_detected") return Tr::tr("A finite divergence was detected.");
  if (c == "grad_norm_growing")
    return Tr::tr(
               "The gradient norm grew quarter after quarter of the %1 steps (medians %2, %3, "
               "%4, %5): %6x that of the first steps, %7.")
        .arg(whole(f, 6))
        .arg(num(f, 1), num(f, 2), num(f, 3), num(f, 4), num(f, 5), num(f, 0));
  if (c == "initial_loss")
    return Tr::tr("Initial loss %1 (mean of the first %2 steps).").arg(num(f, 0)).arg(whole(f, 1));
  if (c == "initial_loss_from_epoch")
    return Tr::tr(
               "Initial loss %1 (the first epoch's training loss: the checkpoint holds no "
               "initial loss).")
        .arg(num(f, 0));
  if (c == "loss_above_chance")
    return (f.name == "mse" ? Tr::tr(
                                  "The training loss %1 (mean of the last %2 epochs) is over %3x "
                                  "the chance loss %4 (the variance of the targets: the loss of "
                                  "always predicting their mean).")
                            : Tr::tr(
                                  "The training loss %1 (mean of the last %2 epochs) is over %3x "
                                  "the chance loss %4 (ln of the number of classes: the loss of "
                                  "a constant, uniform prediction)."))
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2), num(f, 3));
  if (c == "val_loss_above_chance")
    return Tr::tr(
               "The validation loss %1 (mean of the last %2 epochs) is over %3x the chance loss "
               "%4 (ln of the number of classes), and the training loss %5 is above chance too: "
               "confident wrong answers.")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2), num(f, 3), num(f, 4));
  if (c == "val_at_chance")
    return Tr::tr(
               "The validation accuracy %1% (mean of the last %2 epochs) is within %4 points of "
               "chance, %3% (the share of the largest class).")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2), num(f, 3));
  if (c == "train_loss_at_chance")
    return Tr::tr(
               "The training loss %1 (mean of the last %2 epochs) has not fallen below the chance "
               "loss %3: the model fits its training labels no better than a constant "
               "prediction.")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2));
  if (c == "update_ratio")
    return Tr::tr(
               "The weights move by %1 of their size per step (median update-to-weight ratio of "
               "the recent steps; healthy is around 0.001).")
        .arg(num(f, 0));
  if (c == "val_loss_at_chance")
    return Tr::tr(
               "The validation loss %1 is not %3% below the chance loss %2 and has not improved "
               "for %4 epochs.")
        .arg(num(f, 0), num(f, 1), num(f, 2))
        .arg(whole(f, 3));
  if (c == "val_rising" && f.values.size() >= 7)
    return Tr::tr(
               "Validation loss %1 at epoch %2 (mean of the last %3 epochs: %4), up from its "
               "lowest such mean %7 (best epoch %6: %5).")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(whole(f, 2))
        .arg(num(f, 3), num(f, 4))
        .arg(whole(f, 5))
        .arg(num(f, 6));
  if (c == "val_rising")
    return Tr::tr(
               "Validation loss %1 at epoch %2 (mean of the last %3 epochs: %4), up from its "
               "minimum %5 at epoch %6.")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(whole(f, 2))
        .arg(num(f, 3), num(f, 4))
        .arg(whole(f, 5));
  if (c == "train_fell")
    return Tr::tr("Meanwhile the training loss fell from %1 to %2.").arg(num(f, 0), num(f, 1));
  if (c == "best_train_loss" && f.values.size() >= 4)
    return Tr::tr("Lowest mean training loss over %4 consecutive epochs %1 (%2% of the initial "
                  "loss) after %3 epochs.")
        .arg(num(f, 0), num(f, 1))
        .arg(whole(f, 2))
        .arg(whole(f, 3));
  if (c == "best_train_loss")
    return Tr::tr("Best epoch training loss %1 (%2% of the initial loss) after %3 epochs.")
        .arg(num(f, 0), num(f, 1))
        .arg(whole(f, 2));
  if (c == "train_stalled" && f.values.size() >= 6) {
    const bool better = f.values[4] >= 0;
    const QString text =
        better ? Tr::tr("Mean training loss %1 over the %6 epochs to epoch %2, %3 over the %6 "
                        "epochs to epoch %4 (%5% better).")
               : Tr::tr("Mean training loss %1 over the %6 epochs to epoch %2, %3 over the %6 "
                        "epochs to epoch %4 (%5% worse).");
    return text.arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2))
        .arg(whole(f, 3))
        .arg(EventText::number(std::abs(f.values[4])))
        .arg(whole(f, 5));
  }
  if (c == "train_stalled")
    return Tr::tr("Training loss %1 at epoch %2, %3 at epoch %4 (%5% better).")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2))
        .arg(whole(f, 3))
        .arg(num(f, 4));
  if (c == "last_losses")
    return Tr::tr("Training loss %1 at epoch %2, validation loss %3.")
        .arg(num(f, 0))
        .arg(whole(f, 1))
        .arg(num(f, 2));
  if (c == "clip_share")
    return Tr::tr("Clipping cut %1% of the last %2 updates.").arg(num(f, 0)).arg(whole(f, 1));
  return {};
}

QString check(const Finding& f) {
  const std::string& c = f.code;
  if (c == "lower_lr_10x") return Tr::tr("Lower the learning rate 10x.");
  if (c == "clip_on") return Tr::tr("Turn on gradient clipping.");
  if (c == "lower_max_norm") return Tr::tr("Lower the clipping max norm.");
  if (c == "standardise_and_scale")
    return Tr::tr("Standardise the inputs and bring the targets to a smaller scale.");
  if (c == "check_init") return Tr::tr("Check the weight initialisation.");
  if (c == "keep_best")
    return Tr::tr("Keep the best epoch's checkpoint (checkpoints/best.pt) or stop earlier.");
  if (c == "regularise") return Tr::tr("Add regularisation: weight decay or dropout.");
  if (c == "regularise_more")
    return Tr::tr("Regularise more: raise the weight decay (now %1) or the dropout (now %2).")
        .arg(num(f, 0), num(f, 1));
  if (c == "more_data") return Tr::tr("Get more training data.");
  if (c == "smaller_model") return Tr::tr("Use a smaller model.");
  if (c == "clip_bound")
    return Tr::tr(
        "Clipping cuts nearly every update, so each step moves the weights by at most "
        "learning rate x max norm: raise the max norm, or bring the targets to a "
        "smaller scale.");
  if (c == "raise_lr") return Tr::tr("Raise the learning rate (it may be too small).");
  if (c == "standardise_inputs") return Tr::tr("Standardise the inputs.");
  if (c == "check_labels") return Tr::tr("Check that the labels are aligned with their inputs.");
  if (c == "check_label_order")
    return Tr::tr(
        "Check that the inputs and the labels are read in the same order (shuffling, sorting or "
        "filtering one without the other gives exactly this).");
  if (c == "fit_tiny_subset")
    return Tr::tr("Check that the model can fit a tiny subset of the data.");
  if (c == "lr_schedule")
    return Tr::tr("Lower the learning rate (a scheduler) to settle into the minimum.");
  if (c == "other_optimizer") return Tr::tr("Try another optimizer (Adam) or momentum.");
  if (c == "try_momentum") return Tr::tr("Try momentum (optimizer.momentum 0.9) or Adam.");
  if (c == "try_adam") return Tr::tr("Try the Adam optimizer.");
  if (c == "more_capacity")
    return Tr::tr("Give the model more capacity (wider or more hidden layers).");
  if (c == "check_saturation")
    return Tr::tr("Check for a bottleneck: saturated activations (sigmoid, tanh).");
  if (c == "zero_grad")
    return Tr::tr(
        "Call optimizer.zero_grad() before each backward(): without it every step adds its "
        "gradient to those of all the steps before.");
  if (c == "check_accumulation")
    return Tr::tr(
        "If the accumulation is on purpose, step and zero the gradients every k batches "
        "(gradient accumulation).");
  if (c == "nothing_urgent")
    return Tr::tr("Nothing urgent; watch the validation loss for overfitting.");
  return {};
}

}  // namespace

QString FindingText::text(const Finding& f) {
  QString t = cause(f);
  if (t.isEmpty()) t = evidence(f);
  if (t.isEmpty()) t = check(f);
  return t.isEmpty() ? QString::fromStdString(f.text) : t;
}

QString FindingText::joinSentences(const QStringList& sentences) {
  QString out;
  for (const QString& s : sentences) {
    if (s.isEmpty()) continue;
    const char16_t c = out.isEmpty() ? 0 : out.back().unicode();
    // CJK punctuation (U+3000-U+303F) and full-width forms (U+FF00-U+FFEF) take no space.
    const bool wide = (c >= 0x3000 && c < 0x3040) || c >= 0xFF00;
    if (!out.isEmpty() && !wide) out += QLatin1Char(' ');
    out += s;
  }
  return out;
}

QString FindingText::diagnosisSummary(const Diagnosis& d) {
  if (d.kind == "diverging") {
    bool exploded = false, above = false;
    for (const Finding& f : d.evidence) {
      exploded = exploded || f.code == "non_finite_steps" || f.code == "loss_exploded" ||
                 f.code == "divergence_detected";
      above = above || f.code == "loss_above_chance" || f.code == "val_loss_above_chance";
    }
    if (above && !exploded)
      return Tr::tr(
          "The loss stays above chance: a constant prediction would do better. The updates are "
          "too large (the learning rate is too high).");
  }
  return diagnosisSummary(d.kind);
}

QString FindingText::diagnosisSummary(const std::string& kind) {
  if (kind == "accumulating")
    return Tr::tr(
        "The gradient norm grows step after step: the gradients add up across steps, as when "
        "optimizer.zero_grad() is missing.");
  if (kind == "diverging")
    return Tr::tr(
        "The loss grows without bound or is no longer a number: the updates are too "
        "large (exploding gradients).");
  if (kind == "no_signal")
    return Tr::tr(
        "Accuracy and loss stay at chance: the labels carry no information the model can "
        "find. Check that the labels are aligned with their inputs.");
  if (kind == "flat") return Tr::tr("The loss is flat from the start: the model is not learning.");
  if (kind == "plateau") return Tr::tr("The loss fell, then stalled at a plateau.");
  if (kind == "overfitting")
    return Tr::tr("The training loss falls while the validation loss rises.");
  if (kind == "healthy") return Tr::tr("The training loss falls and the validation loss follows.");
  return Tr::tr("Too early to tell: fewer than 3 epochs.");
}

}  // namespace trainscope

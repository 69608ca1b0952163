<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en_US">
<context>
    <name>TrainScope</name>
    <message>
        <source>TrainScope – %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TrainScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open config...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load settings from a JSON config file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save config...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the current settings as a JSON config file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open &amp;run folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the current run&apos;s folder in the file manager.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose runs &amp;location...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the folder under which every run gets its own folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close TrainScope.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;About TrainScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>About TrainScope</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;TrainScope %1&lt;/b&gt;&lt;p&gt;Train neural networks with libtorch %2 and watch losses and gradients live.&lt;/p&gt;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Config files (*.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save config</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose where runs are saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New runs are saved under %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Non-finite value at step %1 – see Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run could not start – see Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop training?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run is still in progress. Stop it and close TrainScope?

The files written so far are kept and summary.json records that the run was stopped.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>completed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped on a non-finite value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>early stopping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>failed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Paused after step %1 (epoch %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resumed at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stopped at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint saved at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting changed at step %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Out of GPU memory at step %1; the run is paused. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run needs about %1 MB of memory, more than is available: it may swap or be killed. Lower the batch size (with gradient accumulation to keep the effective batch) or use a smaller model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error at step %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run started: %1 epoch(s) of %2 batch(es) of up to %3 samples, seed %4, on %5 with %6 CPU thread(s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n optimizer update(s) skipped because of non-finite values.</source>
        <translation>
            <numerusform>%n optimizer update skipped because of a non-finite value.</numerusform>
            <numerusform>%n optimizer updates skipped because of non-finite values.</numerusform>
        </translation>
    </message>
    <message>
        <source>Test accuracy: %1 %.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test loss: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Invalid setting &quot;%1&quot;. Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The dataset could not be loaded from &quot;%1&quot;. Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The checkpoint &quot;%1&quot; could not be used. Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not write &quot;%1&quot;. Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try &apos;trainscope --help&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TrainScope: train a neural network with libtorch and watch it learn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start with the built-in preset &lt;name&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start with the settings of the config file &lt;file&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start training as soon as the window opens.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start training, stop after &lt;n&gt; epochs and quit (exit code 0).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>n</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save a picture of the window to &lt;file&gt; just before quitting. Alone, it starts training and quits when the run ends.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Create run folders under &lt;dir&gt;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>dir</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unexpected argument: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--quit-after-epochs needs a whole number of at least 1, got &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--preset needs a name.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The hardware and libraries this computer trains with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>libtorch:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>available, %n device(s)</source>
        <translation>
            <numerusform>available, %n device</numerusform>
            <numerusform>available, %n devices</numerusform>
        </translation>
    </message>
    <message>
        <source>CUDA lets libtorch train on an NVIDIA GPU; without it training runs on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The device the run trains on (&quot;auto&quot; picks CUDA when available).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trains on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n logical core(s))</source>
        <translation>
            <numerusform>%1 (%n logical core)</numerusform>
            <numerusform>%1 (%n logical cores)</numerusform>
        </translation>
    </message>
    <message>
        <source>Threads libtorch uses for the math of one training step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The linear-algebra library (BLAS) doing the matrix products.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The linear-algebra library (BLAS) doing the matrix products: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BLAS:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Events</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What happened during the run. Repeated events are folded into one line; every event is in the run folder&apos;s events.jsonl.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>(steps %1–%2, %n time(s))</source>
        <translation>
            <numerusform>(steps %1–%2, %n time)</numerusform>
            <numerusform>(steps %1–%2, %n times)</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start a new training run with the settings above.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pa&amp;use</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pause training after the current batch; press again to resume.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step &amp;batch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train exactly one batch, then pause. Without a run, starts a new run and pauses after its first batch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step &amp;epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train to the end of the current epoch (validation included), then pause.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>End the run now. Its files (metrics, summary) are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data and model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the current run learns from and the network it trains. Filled in when a run starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples used for training, for validation after every epoch, and for the final test.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Number of trainable numbers (weights and biases) in the model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train / val / test:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>classification</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>regression</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2, %n input(s) per sample)</source>
        <translation>
            <numerusform>%1 (%2, %n input per sample)</numerusform>
            <numerusform>%1 (%2, %n inputs per sample)</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none (regression)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(starts with the run)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How much of the run is done (steps done of all planned steps).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time so far (pauses excluded), and the estimated time left.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where this run&apos;s files are written: config, metrics, steps, events and summary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(created when a run starts)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the run folder in the file manager.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No file manager could be started. The run folder is:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The epoch being trained (or the last one), of the planned epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer steps (batches) done so far.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The random seed of this run; put it in the settings to repeat the run exactly. You can select and copy it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1/%2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch –</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step –</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation accuracy %1 % · lr %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation loss %1 · lr %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>– samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed –</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A ready-made experiment: dataset, model and training settings. Choosing one loads its values into the fields below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(from a config file)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the current settings came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Source:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Learning rate:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many samples are used for each optimizer step. Larger batches give smoother but fewer steps per epoch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch si&amp;ze:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many full passes over the training data the run makes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ep&amp;ochs:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On: use the seed on the right, so the same settings give exactly the same run again. Off: draw a new random seed for every run (it is shown in the status bar and saved with the run).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The random seed: it decides the initial weights and the order of the batches.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>See&amp;d:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient clipping: when the total gradient norm exceeds the maximum on the right, the gradient is scaled down to it. Protects against exploding gradients.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The largest gradient norm allowed when clipping is on. It is drawn as a line on the gradient norm plot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Clipping:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>built-in preset &quot;%1&quot;</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown preset &quot;%1&quot;. %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config file &quot;%1&quot; was not loaded: the setting &quot;%2&quot; is outside what the dashboard can set (%3). Use trainscope-cli for such values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The previous settings are kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>config file %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config file &quot;%1&quot; was not loaded: the setting &quot;%2&quot; is invalid.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The config file &quot;%1&quot; was not loaded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not save the config to &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nan</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>+inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>-inf</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
step %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>non-finite value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training loss (epoch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation loss (epoch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Logarithmic value axis: shows both large early values and small late ones. Zero and negative values are left out of the range.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>full speed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How fast the run goes, so it can be watched and explained: from one step per second to full speed. It only paces the training loop; every number of the run stays the same.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Legend</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN (default: the one chosen in the Language menu, else the system&apos;s).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>language</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--lang must be en or zh_CN, got &quot;%1&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training throughput of the last epoch; when the run has ended, its mean over all epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>mean %1 samples/s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; was not accepted: the value must be between %2 and %3. The previous value %4 is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (modified)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1 trained at %2 samples/s, under a third of the rate measured at the start: another program is probably using the cores. A smaller training.num_threads may be faster next time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint not saved at step %1; the run goes on. Details: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint saved at step %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continuing from checkpoint %2 at step %1 (epoch %3 completed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run folder of checkpoint %1 was not found: the per-step curves before step %2 are missing (the per-epoch curves come from the checkpoint).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the whole training state (model, optimizer, random generators, curves) at the current step: a running run waits while you choose the file, then continues.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue a saved run from its checkpoint, paused at the step it was saved at.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs completed: %1 (step %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved in the middle of epoch %1, after batch %2: training continues with the next batch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best validation loss: %1 (epoch %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best validation loss: none yet</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load checkpoint?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train until epoch:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The paused run ends here (its files are kept). The checkpoint continues in a new run folder, paused at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The checkpoint continues in a new run folder, paused at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoints (*.pt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint not saved</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The checkpoint could not be saved: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoints (*.pt);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoint not loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1

The current run is unchanged.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open the checkpoint &lt;file&gt;: its run waits paused at the step it was saved at, with its curves; Start (or --autostart) continues it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use only one of --preset, --config and --checkpoint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&quot;%1&quot; was not accepted: hidden sizes are whole numbers from 1 to 65536 separated by commas, e.g. 64, 64. The previous value %2 is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>all</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model, data and device</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer, layer sizes, dropout, weight decay, data size, validation share, device and threads.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden layers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dropout:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Applies when the next run starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torch.optim.SGD, Adam or AdamW.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Widths of the hidden layers, e.g. 64, 64. Bigger layers fit more, and overfit more.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Probability of zeroing each hidden unit during training (torch.nn.Dropout). Shrinks the gap between training and validation loss.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>L2 penalty on the weights (AdamW: decoupled). Another way to fight overfitting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many samples the synthetic dataset has before the validation split. More data, less overfitting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fraction of the samples held out to measure validation loss.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>auto</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the run trains: auto takes the first CUDA GPU when there is one, else the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Intra-op CPU threads. auto measures 1, 2, 4, ... on a few real steps at the start and keeps the fastest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>same settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Remove the dashed curves of the previous run, kept to show what the new settings change.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Previous run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dashed: the previous run, %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Import weights...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the next runs from weights saved by Python&apos;s torch.save (a state_dict) or from a checkpoint.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Initial weights imported from %1 (%n tensor(s)).</source>
        <translation>
            <numerusform>Initial weights imported from %1 (%n tensor).</numerusform>
            <numerusform>Initial weights imported from %1 (%n tensors).</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start the next runs from fresh random weights again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next runs start from the weights in %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PyTorch files (*.pt *.pth);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights not imported</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Import weights?</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1 holds %n tensor(s):</source>
        <translation>
            <numerusform>%1 holds %n tensor:</numerusform>
            <numerusform>%1 holds %n tensors:</numerusform>
        </translation>
    </message>
    <message>
        <source>The next runs start from these weights instead of random ones. Names and shapes must match the model of the settings (as PyTorch&apos;s load_state_dict with strict=True); a mismatch is reported when the run starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the loss is flat from the start</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the loss fell, then stalled at a plateau</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overfitting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training looks healthy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too early to tell</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped: the training diverged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run diverged at epoch %1: validation accuracy (%2) has stayed at chance level for 3 epochs. Lower the learning rate.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run diverged at epoch %1: the training loss (%2) is over 10,000 times the first epoch&apos;s. Lower the learning rate or turn on gradient clipping.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient clipping never fires: for 200 steps every gradient norm stayed under a tenth of max_norm (largest %1). Lower max_norm to act on spikes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient clipping fired on %1 % of the last 100 steps, so it acts as a fixed step size. Try a lower learning rate or a larger max_norm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnosis at epoch %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No snapshot to roll back to: nothing was restored.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rolled back to the snapshot at step %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP switched on after step %1: mixed precision from step %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP switched off after step %1: float32 from step %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On CUDA, fp16 autocast runs the matrix products on tensor cores and a GradScaler keeps small gradients from underflowing. Small models are limited by kernel launches more than by arithmetic, so they gain less.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>On the CPU, autocast computes the matrix products of the forward pass in bf16, while weights, gradients and optimizer state stay float32: every step also converts weights and activations between float32 and bf16.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This CPU multiplies bf16 in hardware (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This CPU has no bf16 instructions (avx512_bf16, amx_bf16): bf16 is converted to float32 around each multiply-accumulate, so there is little to gain.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>libtorch&apos;s oneDNN kernels do the bf16 matrix products; the float32 ones run on the optimized BLAS (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This libtorch has no oneDNN: bf16 matrix products use generic kernels while float32 ones use the optimized BLAS (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss difference is bf16 rounding: 8 bits of mantissa instead of float32&apos;s 24.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP A/B comparison</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 steps with float32, then with AMP (%2), from seed %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bf16 autocast</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>fp16 autocast with loss scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max |Δloss|:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean |Δloss|:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Speed-up:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1, %n thread(s)</source>
        <translation>
            <numerusform>%1, %n thread</numerusform>
            <numerusform>%1, %n threads</numerusform>
        </translation>
    </message>
    <message>
        <source>this libtorch was built without CUDA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no NVIDIA driver is loaded</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no CUDA device was found</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA is not available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU: bf16 autocast, native (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU: bf16 autocast, emulated (no avx512_bf16 or amx_bf16)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CUDA: fp16 autocast with loss scaling</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Native: the CPU multiplies bf16 numbers in hardware. Emulated: each bf16 multiply-accumulate is converted to float32 and back, so AMP saves memory traffic at best and may run slower than float32.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resident memory: the RAM this process (the dashboard and its run) occupies now. On a CUDA device also the GPU memory held by tensors (allocated), kept by libtorch&apos;s caching allocator (reserved) and the device&apos;s total. Updated every second while a run is active.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>cpu (auto uses the CPU: %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU: %1 allocated, %2 reserved of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>GPU: no figures (this build has no CUDA runtime, TRAINSCOPE_CUDA off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>unknown (/proc/self/statm unreadable)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reproducibility and precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps per run:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer steps each of the two runs of a check trains.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Verify reproducibility</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trains the current settings twice from the same seed and compares every loss and the final weights bit for bit. With a fixed seed they should be identical.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP &amp;A/B</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trains the current settings twice from the same seed, with float32 and with mixed precision (AMP), and compares the losses and the speed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Available when no run is active: a check trains on the same cores.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The check could not run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The check could not run with the current settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reproducibility check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run %1 of 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: step %2 of %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The seed is off: each run drew its own seed (%1 and %2), so the initial weights, the batch order and dropout differ. Turn on a fixed seed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deterministic algorithms are off (training.deterministic): some kernels may add up in a different order each time (atomics on CUDA, index_add, scatter).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP is on: reduced-precision kernels may choose different algorithms between runs. Compare with AMP off.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Both runs used %n threads: parallel floating-point sums can split the work differently. Compare with training.num_threads = 1.</source>
        <translation>
            <numerusform>Both runs used %n thread: parallel floating-point sums can split the work differently. Compare with training.num_threads = 1.</numerusform>
            <numerusform>Both runs used %n threads: parallel floating-point sums can split the work differently. Compare with training.num_threads = 1.</numerusform>
        </translation>
    </message>
    <message>
        <source>Steps compared:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 per run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Max |Δweight|:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seeds:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2 (fixed)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 and %2 (drawn: the seed is off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>off</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1, %n thread(s), AMP %2, deterministic algorithms %3</source>
        <translation>
            <numerusform>%1, %n thread, AMP %2, deterministic algorithms %3</numerusform>
            <numerusform>%1, %n threads, AMP %2, deterministic algorithms %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Likely causes:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Bitwise identical: the %n step(s) of both runs had the same losses and ended with the same weights, bit for bit.</source>
        <translation>
            <numerusform>Bitwise identical: the %n step of both runs had the same loss and ended with the same weights, bit for bit.</numerusform>
            <numerusform>Bitwise identical: the %n steps of both runs had the same losses and ended with the same weights, bit for bit.</numerusform>
        </translation>
    </message>
    <message>
        <source>Differs by %1 (max |Δloss| %2, max |Δweight| %3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples per optimizer step: the batch size times the gradient accumulation steps (micro-batches whose gradients are added before one step).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch per step:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples (%2 × %3 accumulated micro-batches)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Mixed precision:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Automatic mixed precision: the forward pass computes in bf16 on the CPU (fp16 with loss scaling on a CUDA GPU); weights, gradients and optimizer state stay float32. Can be switched while a run is running or paused: it applies from the next step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss scale (GradScaler)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skipped step (inf/NaN gradient)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>With AMP on a CUDA GPU, the GradScaler&apos;s loss scale and the steps it skips appear here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No loss scaling on the CPU: AMP computes in bf16 there, which has float32&apos;s exponent range, so small gradients do not underflow and no GradScaler is needed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP is off: no loss scale. Tick AMP to train in fp16 with loss scaling.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Waiting for the first step with AMP...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP off</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Non-finite %1 (%2) at step %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run diverged at epoch %1: the training loss (%2) is over 10,000 times the first epoch&apos;s although clipping is on (max norm %3). Lower the learning rate or max_norm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Overfitting since epoch %1 (seen at epoch %2): the validation loss has risen since then while the training loss falls.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnosis: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to check, most likely first</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layers</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Diagnosis</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipping was not changed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipped: %1 % of the last 100 steps, %2 % of the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Share of the steps whose gradients clipping scaled down, counted while clipping is on. A change of max_norm starts the last-100 window afresh.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower the learning rate 10× and continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back to the newest snapshot before this step and continue with a learning rate 10 times lower.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn clipping on and continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Go back to the newest snapshot before this step and continue with gradient clipping on (max norm as set).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue anyway</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run diverged at epoch %1 (step %2) and is paused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Non-finite %1 at step %2 (epoch %3): the run is paused, the weights are those before this step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Total gradient norm: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First non-finite gradient in: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Largest gradient in: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Likely causes (most likely first):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How big a step the optimizer takes on each batch. Too high and the loss jumps around or becomes NaN; too low and training crawls. Type values like 3e-4 or 0.001. It can be changed while a run trains or is paused.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Find…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning-rate range test: trains a copy of the model with the current settings while the learning rate grows from 1e-7 to 10, and suggests the learning rate where the loss falls fastest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best: epoch %1 (%2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overfitting →</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>early stop</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lr → %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>early stop at epoch %1 if no improvement</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipped steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raw</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>EMA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing of the per-step training loss (the raw values stay drawn faintly; with fewer than 4 steps per epoch there is nothing to smooth). EMA: exponential moving average with debiasing, as TensorBoard; the value is its weight (0 = none, 0.99 = strong). Window: the mean of the last N steps; it never lags behind more than N steps.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per-layer gradient norms and update ratios appear here during a run (training.layer_stats_every; 0 turns them off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer gradient norm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Update / weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training accuracy (epoch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation accuracy (epoch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate (per step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>suggested %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning-rate range test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate (log scale)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss per step</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothed loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this learning rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training a copy of the model with the current settings while the learning rate grows from 1e-7 to 10 over 100 steps…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The range test failed: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Suggested learning rate: %1, where the smoothed loss falls fastest. Loss rises again where the learning rate is too large.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too few steps for a suggestion.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T-shirt/top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trouser</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pullover</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dress</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Coat</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sandal</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sneaker</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bag</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ankle boot</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>prediction (red) through the training points (filled); hollow: validation points; dashed: the true function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>decision regions (shading: probability of each class); filled points: training, hollow: validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 validation images classified wrongly (red frame)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After epoch %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What the model does appears here at the end of each epoch.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x₀</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>x₁</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>y</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training, class %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation, class %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation points</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>True function</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accumulation:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> micro-batches</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient accumulation: the batch size&apos;s worth of samples is run this many times before one optimizer step, so the step sees batch size × this many samples with the memory of one batch. 4 × 32 trains like a batch of 128.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trained %1 · ETA %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time so far (pauses and the speed limit&apos;s waiting not counted) and the time left at the current speed.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Before clipping</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Used (after clipping)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max_norm %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>max_norm (clipping now off)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Likely causes: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The learning rate %1 is high for %2: try 10x lower.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The learning rate %1 is perhaps too high for this model: try 10x lower.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient clipping is off: turning it on bounds each update.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipping is on (max norm %1) but cannot rescale an inf or nan gradient: the weights were already bad; roll back to an earlier snapshot.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipping is on (max norm %1), so the weights drifted over many steps: lower the learning rate or the max norm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The targets are scaled by %1: large targets give large losses and gradients.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The inputs are not standardised.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n non-finite step(s), the first at step %1 (loss %2).</source>
        <translation>
            <numerusform>%n non-finite step, at step %1 (loss %2).</numerusform>
            <numerusform>%n non-finite steps, the first at step %1 (loss %2).</numerusform>
        </translation>
    </message>
    <message>
        <source>The training loss reached %1, over %2x the initial loss %3 (mean of the first %4 steps).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A finite divergence was detected.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Initial loss %1 (mean of the first %2 steps).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation loss %1 at epoch %2 (mean of the last %3 epochs: %4), up from its minimum %5 at epoch %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Meanwhile the training loss fell from %1 to %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best epoch training loss %1 (%2% of the initial loss) after %3 epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training loss %1 at epoch %2, %3 at epoch %4 (%5% better).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training loss %1 at epoch %2, validation loss %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipping cut %1% of the last %2 updates.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower the learning rate 10x.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Turn on gradient clipping.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower the clipping max norm.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standardise the inputs and bring the targets to a smaller scale.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check the weight initialisation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the best epoch&apos;s checkpoint (checkpoints/best.pt) or stop earlier.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add regularisation: weight decay or dropout.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Get more training data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a smaller model.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clipping cuts nearly every update, so each step moves the weights by at most learning rate x max norm: raise the max norm, or bring the targets to a smaller scale.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Raise the learning rate (it may be too small).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standardise the inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the labels are aligned with their inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the model can fit a tiny subset of the data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lower the learning rate (a scheduler) to settle into the minimum.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try another optimizer (Adam) or momentum.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Give the model more capacity (wider or more hidden layers).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check for a bottleneck: saturated activations (sigmoid, tanh).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Nothing urgent; watch the validation loss for overfitting.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss grows without bound or is no longer a number: the updates are too large (exploding gradients).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss is flat from the start: the model is not learning.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss fell, then stalled at a plateau.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training loss falls while the validation loss rises.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training loss falls and the validation loss follows.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Too early to tell: fewer than 3 epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every %1 steps, and at a non-finite step. Left: the gradient norm of each layer – the first line to leave the others is the layer that explodes first. Right: update / weight per layer; the green band (1e-4 to 1e-2, log10 -4 to -2) is the healthy range: above it the learning rate is too high for that layer, below it too low.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show a &amp;past run...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw a finished run from its folder: its curves, events and diagnosis. Nothing is trained and no folder is created.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the data carries no signal (labels misaligned?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run finished (%1): %2 epoch(s), %3 step(s) in %4 s (wall clock, pauses included).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Initial loss %1 (the first epoch&apos;s training loss: the checkpoint holds no initial loss).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training loss %1 (mean of the last %2 epochs) is over %3x the chance loss %4 (the variance of the targets: the loss of always predicting their mean).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training loss %1 (mean of the last %2 epochs) is over %3x the chance loss %4 (ln of the number of classes: the loss of a constant, uniform prediction).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The validation accuracy %1% (mean of the last %2 epochs) is within %4 points of chance, %3% (the share of the largest class).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The validation loss %1 is not %3% below the chance loss %2 and has not improved for %4 epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check that the inputs and the labels are read in the same order (shuffling, sorting or filtering one without the other gives exactly this).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Accuracy and loss stay at chance: the labels carry no information the model can find. Check that the labels are aligned with their inputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A few dozen noisy samples of a sine and a large MLP: validation loss turns upward within seconds (overfitting).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two interleaving half circles (2-D, two classes) and a small MLP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Few noisy moons points and a big MLP: the decision boundary wraps around single noisy points while validation loss climbs. Watch the gap open and the model view; then set model.dropout 0.3, optimizer.weight_decay 1e-3 or more data.n_samples and restart.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two concentric noisy circles (2-D, two classes) and a small MLP.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two interleaved spirals (2-D, two classes): a harder boundary that needs a wider MLP and more epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fashion-MNIST (real 28x28 clothing images, 10 classes) with an MLP 784-256-128-10.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exploding gradients: a sine regression with targets scaled x50 and SGD at lr 0.1. Without clipping the loss overflows within a few steps (watch the gradient norm climb and the non-finite marker); with training.clip.enabled=true (max_norm 1) it converges.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the finished run in the folder &lt;dir&gt;: its curves, events and diagnosis. Nothing is trained; with --screenshot, the picture is saved and TrainScope quits.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--open-run shows a finished run: use it without --preset, --config, --checkpoint, --autostart and --quit-after-epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>too small to time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run is too small to time: fewer than %1 steps could be timed (the first step of each epoch follows a validation and is not timed). Compare more steps or a larger dataset; the loss difference is still measured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue with the same settings: the run pauses again at the next step whose loss or gradient is NaN or Inf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep going, skip bad steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue and skip every later step whose loss or gradient is NaN or Inf without pausing again (the weights stay those before the bad step; the skipped steps are marked on the plots). Sets &quot;When NaN/Inf&quot; in the settings to &quot;skip&quot;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time %1 (pauses excluded)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation result of the last finished epoch and the learning rate in force.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>checkpoint %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>When NaN/Inf:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pause and show why</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stop the run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>skip the step, keep going</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What a step whose loss or gradient norm is NaN or Inf does (training.non_finite; a divergence too). Its update is never applied. Pause: the run waits and shows the evidence; stop: the run ends; skip: the step is left out and the run goes on. Can be changed while a run is running or paused: it applies from the next step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Early stopping:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Patience:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs without an improvement of the validation loss before early stopping ends the run (training.early_stopping.patience). The overfitting watch uses it too.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Min. delta:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A fall of the validation loss by more than this counts as an improvement (training.early_stopping.min_delta; 0 = any fall).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dashed: the previous run (%1), %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient norm, step %1:
before clipping %2 → after %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1
learning rate %2: %3</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show a past run: choose its folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show a past run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This folder cannot be shown as a run:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run was read back from its folder, which keeps no picture of the model: it is drawn only while a run trains. Start a run to see it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--%1 needs a value, not an empty one.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your own table, the way it works: a CSV of 300 flowers (4 measurements, species as text) written by the build; 3 outputs named by the species, a stratified split and the confusion matrix in the Evaluation tab.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regression on a table: house prices (in 100k) from area, rooms, age, distance and the district, a text column one-hot encoded; the Evaluation tab plots predicted against true prices.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder of images per class (torchvision&apos;s ImageFolder layout): 6,000 Fashion-MNIST images written as PNG files by the build, with a test folder beside them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate a saved checkpoint without training: loss, accuracy, confusion matrix, precision and recall per class.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate checkpoint</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples used:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How many of the data&apos;s samples the run uses before the validation split (all: every one, e.g. Fashion-MNIST&apos;s 60,000).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train on your own data: a CSV table, a folder of images per class, NumPy arrays or IDX files. Shows what was read (samples, classes, warnings) before training.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No picture of the model for this data: it is drawn for regression on one input, two classes on two inputs, and images. The Evaluation tab shows how the model does on the validation samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>true %1, predicted %2: %n sample(s) (%3 of the class)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on the %2 split: %3 samples, loss %4, accuracy %5. Rows: true class; columns: predicted class.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 on the %2 split: %3 samples, mean squared error %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>True</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>P(true)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After each epoch this tab shows how the model does on the validation samples: for classes a confusion matrix and the samples it gets most wrong, for numbers its predictions against the true values.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation after epoch %1: predicted against true value of %2 samples (first output); on the dashed line the prediction is exact. R² = %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sine curve (built-in, regression)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two moons (built-in, 2 classes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two circles (built-in, 2 classes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Two spirals (built-in, 2 classes)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fashion-MNIST clothing images</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Image folder (one folder per class)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy arrays (.npz or .npy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IDX files (MNIST format)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tables (*.csv *.tsv *.txt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>NumPy files (*.npz *.npy)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>IDX files (*-ubyte *-ubyte.gz *.idx *.gz)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the data file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the last column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This data cannot be used:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The settings keep the previous data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 training, %2 validation, %3 test samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Read from: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input shape per sample: [%1], stored as %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task: classification into %1 classes (cross-entropy loss)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task: regression of %1 value(s) (mean squared error)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Standardisation: %1 (statistics of the training split)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Memory: %1 MB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>train</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>val</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first training rows, as the file holds them:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>target</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first images of each class:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Labels file:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Targets file (.npy):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Target column:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>automatic (from the target&apos;s values)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grayscale (1 channel)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>RGB (3 channels)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Resize to (height, width):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>first image&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stratified split (each class keeps the validation fraction)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One row per sample with a header row; the target column holds the class names or the numbers to predict. Every other column is a feature.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder with one subfolder per class holding its images (PNG, JPEG, BMP), or train/, val/ and test/ folders each laid out so.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An .npz file with arrays x and y (and x_val, y_val, x_test, y_test), or an .npy file of inputs with an .npy file of targets.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>An IDX file of inputs and one of labels, as MNIST, KMNIST or EMNIST ship them (plain or .gz).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Built-in data: nothing to choose.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose the data, then click &quot;Check data&quot; to see what training will get: samples, classes, warnings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Split:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluating %1 on the %2 split…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot evaluate: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>D&amp;ata…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data of the next run: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted class →</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true class ↓</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample %1: true %2, predicted %3; the model gives the true class p = %4 (loss %5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>Class &quot;%1&quot; has only %n training sample(s): the model can hardly learn it.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Class &quot;%1&quot; has no validation sample: its errors go unmeasured.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The classes are imbalanced %1:1 (largest / smallest training class): accuracy favours the largest.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n training sample(s) repeat an earlier one (same inputs and target).</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n validation sample(s) also occur in the training split: validation loss is then too optimistic.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n feature(s) constant in the training split (%1): they carry nothing.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Memory: %1 kB</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Fashion-MNIST with a small CNN: two conv blocks (Conv2d 3x3 with 32 and 64 channels, BatchNorm2d, ReLU, MaxPool2d(2)) and a linear output, Adam with the learning rate x0.3 after epoch 1 (StepLR); above 0.90 validation accuracy in 2 epochs, where the MLP stays below.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Class &quot;%1&quot; has no training sample: the model cannot learn it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>First layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The first convolution layer: above, each filter&apos;s weights (the mean over the input channels; RGB for colour images), each scaled from its lowest weight (black) to its highest (white); below, what each filter gives for the first image of the Predictions page after batch norm and the activation, before pooling (white: the strongest response).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 filters %2x%3 (bright: large weight)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Feature maps of the first image (bright: strong)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The validation loss %1 (mean of the last %2 epochs) is over %3x the chance loss %4 (ln of the number of classes), and the training loss %5 is above chance too: confident wrong answers.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Check s&amp;hapes...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shape first: run one batch of the data through the model before training and show every layer&apos;s output shape and parameters; a model that does not fit the data is named with both shapes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 %2 on %3, values %4 .. %5</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shapes of %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Running one batch through the model…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Layer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output (batch first)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model does not fit the data: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data: %1 training / %2 validation / %3 test samples, %4 outputs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Images %1 (C, H, W).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch x: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch y: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (+%2 frozen)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output: %1. The model takes the data&apos;s batches and gives one row of %2 per sample; %3 trainable parameters.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Conv channels:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output channels of each convolution block (model.cnn.channels), e.g. 32, 64: one block per number. More channels see more patterns, and cost more time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a &amp;TorchScript model...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train your own PyTorch module: a file saved in Python with torch.jit.script(model).save(...). Shows what it holds and runs one batch of the data through it first.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Exploding gradients in a recurrent net: a plain tanh RNN (nn.RNN, 64 units) predicting the next value of a noisy sine from the last 100, SGD at lr 0.5. Without clipping the gradient norm climbs from about 1 to thousands within a few steps and the loss overflows; with training.clip.enabled=true (max_norm 1) the same run trains steadily. The reason the seeds clip the gradients of RNNs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Recurrent layers:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Hidden size of each stacked recurrent layer (model.rnn.hidden_size and num_layers), e.g. 64, 64: two layers of 64. The layers share one size, the first number.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The TorchScript file fixes the layers: change them in Python and script the model again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>set by the TorchScript file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use a TorchScript model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TorchScript files (*.pt *.pth *.ts);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: TorchScript made by %2 (class %3), saved in %4 mode.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>eval</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 trainable and %2 frozen parameters in %3 tensors, %4 buffers, %5 submodules; %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parameters: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Use this model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This file cannot be trained: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>R&amp;uns...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every run in the runs folder in one table: status, settings, best and final metrics, anomalies, notes. Sort, filter, compare settings, show a run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Started</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Status</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epochs done</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best val loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final val loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final train loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best val accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final val accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Duration (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TrainScope version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>libtorch version</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reason</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>running</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>stopped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>diverged</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>crashed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>not a run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add a folder of runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Add folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Reload</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter: text in any column, or key=text (status=diverged, optimizer.name=sgd)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings that differ among the selected runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Notes on the selected run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tags, separated by commas</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save notes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the run in the training view from its files (no folder is created).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Continue the run from its last checkpoint (checkpoints/last.pt) in a new run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load the run&apos;s settings (config.json, seed included) to run it again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move to trash...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the run folder into the trash folder inside the runs folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (does not exist yet)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Runs in: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Select two or more runs to see the settings that differ</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings that differ among the %1 selected runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The notes were not saved:
%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Rename run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New folder name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A folder name cannot contain &apos;/&apos; or start with &apos;.&apos;.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 was not renamed: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move to trash</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Move the run %1 into %2?
Its files are kept there until you delete them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the current run before showing another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the current run before loading other settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw the curves of the 2 to 10 selected runs on one plot, one of them the baseline.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training loss (epoch mean)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learning rate (per epoch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>samples per second</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training loss (per step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>gradient norm (per step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clipped gradient norm (per step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>learning rate (per step)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>samples seen</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 left out: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TensorBoard&apos;s smoothing: a debiased exponential moving average of each run&apos;s points (0: none).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Against:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Baseline:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, last and best value; in brackets the difference from the baseline:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (baseline)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Following %1: another process is training it; new steps appear as they are written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Following %1: stalled, nothing written for %2 s (the run is paused, in a long epoch or validation, or hung).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 stopped without finishing: its process ended (killed or crashed).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 has finished.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the current run before replaying another.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Replay</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Beside the live run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dashed: the chosen run %1, %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 step(s) skipped</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>non-finite x%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>diverged at epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>rolled back x%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>overfitting from epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>early stop at epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>slowdown x%1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>clip warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>memory warning</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>, </source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train the run again in a new run with every change it recorded (learning rate, clipping, AMP) at the same step, and the same stop.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Draw this run&apos;s epoch losses dashed on the training view&apos;s loss plot, beside the runs you start, until you clear it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Forget optimizer.zero_grad()</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call optimizer.step() before backward()</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate without model.eval()</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validate without torch.no_grad()</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Shuffle the labels against the inputs</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate x1000</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Learning rate x1e-6</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TEACHING – mistakes on purpose: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the gradients accumulate step after step (zero_grad missing?)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The gradient norm grew quarter after quarter of the %1 steps (medians %2, %3, %4, %5): %6x that of the first steps, %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Call optimizer.zero_grad() before each backward(): without it every step adds its gradient to those of all the steps before.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>If the accumulation is on purpose, step and zero the gradients every k batches (gradient accumulation).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The gradient norm grows step after step: the gradients add up across steps, as when optimizer.zero_grad() is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inject a mistake (teaching)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Inject a mistake (teaching): %1 on</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For the classroom: each switch puts a classic training-loop bug into the next run, so the class can watch what it does. The run is marked.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classic PyTorch training-loop bugs, injected on purpose (teaching.mistakes).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss doctor reads the run&apos;s loss curves after a few epochs and names one of: gradients accumulating, diverging, no signal in the data, flat from the start, stalled at a plateau, overfitting, or healthy – with its evidence and what to check.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>TEACHING: %n mistake(s) on</source>
        <translation>
            <numerusform>TEACHING: %n mistake on</numerusform>
            <numerusform>TEACHING: %n mistakes on</numerusform>
        </translation>
    </message>
    <message>
        <source>Mistakes (teaching)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Presentation &amp;scale</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For a projector: large texts and thick lines in colours that survive a washed-out screen, the settings and events hidden, the loss plot in focus. Space starts or pauses, Right trains one batch, Shift+Right one epoch, Esc leaves.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the &amp;gradient plots in presentation mode</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Keep the gradient norm, layer, learning-rate and loss-scale plots under the loss plot in presentation mode.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start in presentation mode (View &gt; Presentation mode, F5), in the window&apos;s size.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save image (PNG, SVG, PDF)...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save data as CSV...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the file name must end in .png, .svg or .pdf (the format).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is a folder; choose a file name in it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: the picture could not be drawn.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>curve %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the plot as an image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Choose...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>File (.png, .svg or .pdf):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> px</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Width:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Height:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the plot&apos;s data as CSV</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show or hide the names of the curves above the plot. Right-click a plot to save it as an image or its data as CSV.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot open the lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lessons (*.tslesson *.json);;All files (*)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save as lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Title of the lesson:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Lessons (*.tslesson)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot save the lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TrainScope – Lesson: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Open lesson file...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a lesson (.tslesson, or a .json with a &quot;lesson&quot; section): its settings and its steps, shown one by one above the plots.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save as lesson...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the current settings (and the open lesson&apos;s steps) as a lesson file to hand to students.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>name-or-file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run is in progress: stop it before opening the lesson %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Back</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The previous step (Page Up). Its actions are not run again.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Next</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The next step and what it does (Page Down).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Close lesson</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Question for the class: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The built-in lesson %1 is missing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--lesson brings its own settings and runs: use it without --preset, --config, --checkpoint, --open-run, --autostart and --quit-after-epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--lesson is given %1 times: open one lesson at a time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no lesson file and no built-in lesson is called &quot;%1&quot; (built-in: %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>; did you mean %1?</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run report</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Web page, plots inside (*.html);;PDF (*.pdf)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: name an .html or .pdf file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the P&amp;yTorch code...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The current settings as a plain PyTorch script: the data, the model, the optimizer and the training loop, to read or copy into your own code. On the CPU it gives the same losses as TrainScope, step for step.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export run re&amp;port...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the shown run as one file to hand in: its result, diagnosis, plots, settings, device, data, model and events (HTML or PDF).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Write the run report of the run folder &lt;dir&gt; to --report-file and quit, without a window (trainscope-cli report runs this).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The report&apos;s file: .html (one file, plots inside) or .pdf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--report and --report-file go together: the run folder and the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--report writes a file and opens no window: use it only with --report-file and --lang.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loss (training per step, validation per epoch)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>no summary yet: still training, or ended without one</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Error</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final training loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final validation loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final validation accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best validation loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (epoch %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Steps not applied (non-finite values)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training time</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss doctor has no reading for this run.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>after epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What to check</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>CPU</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>BLAS</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mixed precision (AMP)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Deterministic algorithms</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Processes (ranks)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Versions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computer</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Task</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 training, %2 validation, %3 test</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Input shape (one sample)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Classes</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trainable parameters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Event</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No events.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>... and %1 more events (events.jsonl holds them all).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Run report: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written by TrainScope on %1 from the run folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Result</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Plots</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No steps recorded yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Unknown report format &quot;%1&quot;: html or pdf.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot read the run in %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The PyTorch code of these settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>These settings cannot be written as a plain PyTorch script: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;Save as...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the PyTorch script</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation without torch.no_grad(): %1 s and %2 MB more memory while every batch&apos;s graph is kept; the same pass under torch.no_grad(): %3 s and %4 MB. Same numbers, more time and memory.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation without torch.no_grad(): %1 s and %2 MB more memory while every batch&apos;s graph is kept.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Checkpoints saved: %1 (each is in events.jsonl).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The training loss %1 (mean of the last %2 epochs) has not fallen below the chance loss %3: the model fits its training labels no better than a constant prediction.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The weights move by %1 of their size per step (median update-to-weight ratio of the recent steps; healthy is around 0.001).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation loss %1 at epoch %2 (mean of the last %3 epochs: %4), up from its lowest such mean %7 (best epoch %6: %5).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean training loss %1 over the %6 epochs to epoch %2, %3 over the %6 epochs to epoch %4 (%5% better).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Mean training loss %1 over the %6 epochs to epoch %2, %3 over the %6 epochs to epoch %4 (%5% worse).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try momentum (optimizer.momentum 0.9) or Adam.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Try the Adam optimizer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model was saved by torch.jit.trace: it replays the operations recorded for one example input, so Python if/for on the data were not recorded, and dropout or batch norm keep the mode it was traced in. Save it with torch.jit.script to train it as written.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%n parameter value(s) of the model have requires_grad=False: they stay as they are (frozen), as in Python.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Lowest mean training loss over %4 consecutive epochs %1 (%2% of the initial loss) after %3 epochs.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>between %1× and %2× over %3 rounds: the machine was busy (spread %4%, over 20%), so no single figure holds; close other programs and compare again</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1× (AMP samples/s ÷ float32 samples/s; median of %2 rounds, %3× to %4×, spread %5%)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1× (AMP samples/s ÷ float32 samples/s; one round, no spread measured)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AMP run, round %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>float32 run, round %1 of %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data: line 1 of %1 was read as the header (the column names); if it is a data row, set data.csv.header=no.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data: %1 has no header: line 1 was read as data (the columns are named &quot;column 1&quot;, &quot;column 2&quot; ...); if line 1 names the columns, set data.csv.header=yes.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sine sequences (built-in, regression, for recurrent models)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Data: %1 changed since the source run read it (allowed with --allow-changed-data): the splits and metrics may differ from that run&apos;s.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Test: the best checkpoint&apos;s weights, epoch %1.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Test: the last weights.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: validation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: training</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best checkpoint (epoch %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test loss, last weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Test accuracy, last weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>last epoch (%1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best val R²</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final val R²</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final val MAE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final val RMSE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final validation R²</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final validation MAE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Final validation RMSE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Chosen run</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show %1 as a column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The setting %1 of each run&apos;s config.json</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Settings as columns</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another setting...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Setting as a column</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Config key (as in trainscope-cli config --keys):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 is not a config key (see trainscope-cli config --keys).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the validation accuracy</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the validation R²</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the validation MAE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the validation RMSE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the validation loss</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Early stopping at epoch %1: %2 stopped improving.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Stop the run when the metric under Best by (the validation loss unless chosen) has not improved for the number of epochs below (training.early_stopping). Applies when the next run starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best by:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss (lower)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation accuracy (higher)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation R² (higher)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation MAE (lower)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation RMSE (lower)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The validation metric that picks the best epoch: best.pt, early stopping and the test&apos;s best weights (training.monitor). Accuracy is for classes; R², MAE and RMSE for a regression target. Applies when the next run starts.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss %1, accuracy %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss %1, R² %2, MAE %3, RMSE %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>validation loss %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1: %2.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A run&apos;s files keep its metrics, not its predictions: Evaluate... under Checkpoints draws them for a checkpoint such as best.pt.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Predicted against true values (validation split, %1): R² %2, MAE %3, RMSE %4</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No plot of predicted against true values: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The device this run trains on (training.device; &quot;auto&quot; takes a GPU when there is one) and its intra-op threads on the CPU.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Device –</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>CPU, %n thread(s)</source>
        <translation>
            <numerusform>CPU, %n thread</numerusform>
            <numerusform>CPU, %n threads</numerusform>
        </translation>
    </message>
    <message>
        <source>As shown (%1 x %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>16:9 slide (%1 x %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>4:3 (%1 x %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Other (width and height below)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Size:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>For a projector (texts and lines sized for the picture)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick labels about 1/36 of a 16:9 picture&apos;s height (25 px on 1600 x 900), thick lines, projector colours.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>What TrainScope does with these settings, written as a plain PyTorch script in the usual training loop. Run it with python3 FILE --out DIR: on the CPU every step&apos;s loss equals the steps.csv of a run started with these settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run shown was changed while it trained (%1): the script trains with the settings from the start, so its losses differ from that run&apos;s after step %2 (trainscope-cli train --replay repeats the changes).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All settings…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every setting of the next run in one table, as config files and trainscope-cli train --set name them: model kinds and their layers, scheduler, split, checkpoints, ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation fraction:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The share of the samples held out for validation (data.val_fraction); not used where the data has its own validation file or folder.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best epoch %2 (validation loss %1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>All settings</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Every setting of the next run, as config files and trainscope-cli train --set name them. Values are JSON: numbers, true or false, null, [lists]; text as it is.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter, e.g. scheduler or cnn</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Value</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Default</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lr ÷10, continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clip, continue</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Skip bad steps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot write %1: the disk is full or a file size limit was reached; nothing was written</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Your own data is read as the run shown read it (%1): the samples its split.json lists, with the settings that run started with.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The lesson loads a model file</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This lesson trains the model file %1. A TorchScript file is a program, like a pickle: it can read and write your files. Open the lesson only if you trust where the file came from.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not opened: you chose not to load the model file %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s code reads or writes files: a TorchScript file is a program. It was loaded because model.torchscript.allow_file_access is on (%1).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The model&apos;s code calls print(): what it prints goes to the log (stderr), never into the CLI&apos;s --json output.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The run ended without finishing (killed or crashed: no summary.json): %1 epoch(s) and %2 step(s) recorded.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>T-shirt-top</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pruned by its sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>pruned</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>S&amp;weeps...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The sweeps in the runs folder: each trial&apos;s state live, parallel coordinates of the values tried and the objective, the objective against each setting, which settings matter, the best trial.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>&amp;New sweep...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Train the current settings many times, varying the settings you choose (a grid, random draws or Optuna&apos;s TPE), and rank the runs by an objective.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweeps</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sweep:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open folder...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Objective against:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Objective vs parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importance</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in training view</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a sweep folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(no sweep in %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sweep tries many settings as a queue of runs. Start one with File &gt; New sweep..., or with trainscope-cli sweep FILE.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best: trial %1, %2 %3 (%4)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best: none yet (no trial has a value for %1)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2 trials (%3 running, %4 queued, %5 completed, %6 pruned, %7 failed) · method %8 · objective %9 (%10) · %11</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>higher is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>lower is better</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on Slurm</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>on this machine</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trials</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>best trial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>parameter</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Spearman&apos;s rho with the objective</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trials counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>- (too few trials)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>queued</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (retry)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trial</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>state</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seconds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>run folder</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each line is a trial, crossing each axis at its value; its colour is the objective (dark: best). Drag along an axis to keep only the trials in that range; double-click the axis to clear it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No trials yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source> (log)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 of %2 trials shown · colour: the objective, dark is best · drag along an axis to filter, double-click to clear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A sweep trains the current settings many times, varying the keys you tick, and ranks the runs by an objective. Tick a key, choose how it varies and give its values (choices, separated by commas) or its range (low, high).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Filter keys (e.g. lr, hidden, dropout)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>vary</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>key</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>now</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>how</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>values or range</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Name:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>grid: every combination</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>random: seeded draws</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>tpe: Optuna&apos;s TPE, learns from the trials so far</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Method:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Trials (random, tpe):</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>At once:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Seeds each:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>none: every trial runs to its end</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>median: stop a trial worse than the median at the same epoch</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>successive halving: keep the best third at epochs 1, 3, 9, ...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Early stopping of trials:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Tick at least one key to vary.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up to %1 trials, each asked of Optuna&apos;s TPE when a slot frees.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 trials, %2 at a time.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>trainscope-cli was not found beside the dashboard or on PATH: a sweep runs its trials with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cannot create the runs folder %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Over seeds</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best configuration over its seeds: %1 %2 ± %3 over %4 seeds (%5)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>configuration</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 mean ± std</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>seeds counted</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>- (choices without an order)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>- (one value only)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Pruned by its sweep at step %1: its objective so far was worse than the other trials&apos; (the rule and its numbers are in events.jsonl).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Importance here is Spearman&apos;s rank correlation (rho) between each parameter and the objective over the finished trials: rho near +1 or -1, the objective rises or falls steadily with the parameter; near 0, no steady trend. An effect with an optimum in the middle (a learning rate too small or too large) can show a rho near 0: look at the scatter.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Preview…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Augmentation transforms images; this data is a table.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One training image and 16 variants of it, as the training batches draw them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Set data.augment.* in All settings: horizontal flips, random crops, colour jitter, rotation.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training only: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>torchvision transforms of the training images; validation and test images are not augmented:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Augmentation:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Loading the training images as a run loads them…</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Augmentation preview</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>One training image and %1 variants of it, drawn as the training batches draw them. Only training images are augmented: validation and test images are shown to the model as they are.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Original:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>New draws</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Another image</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No preview: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No augmentation is on: every variant is the image itself. Set data.augment.* (hflip, crop_padding, random_resized_crop, color_jitter, rotation) in All settings.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training image %1 of %2; %3 variants made in %4 ms.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1 waited for its batches %2 % of its training time: the data loader, not the model, sets the pace. Use more workers (data.workers) or cache the data.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1, %2 % waiting for data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Augmentation</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training and validation (teaching mistake)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>training only</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bilinear</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>nearest</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>bicubic</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>area</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>How images are resized to the size (data.image_folder.resize): bilinear with antialiasing is torchvision&apos;s Resize default.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Augment the validation images too</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation went through the training augmentation: validation loss %1 against %2 on the clean images, accuracy %3% against %4%. Each epoch draws other crops and flips, so this validation loss is noisy and too high. Validate with the deterministic transforms only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation went through the training augmentation: validation loss %1 against %2 on the clean images. Each epoch draws other crops and flips, so this validation loss is noisy and too high. Validate with the deterministic transforms only.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>System</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Show the worst samples</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluate keeps no samples: the Evaluation tab of a training run shows them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>The %n validation sample(s) with the highest loss, worst first (click a cell of the matrix for its samples):</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>True %1, predicted %2: no validation sample.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>True %1, predicted %2: %3 sample(s); evaluate keeps none of them.</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>True %1, predicted %2 (the class of the highest probability): the first %n of %3 sample(s) in the validation split.</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>Threshold 0.50: %1 when its probability is the higher one (the model&apos;s decision). Move the slider to trade precision (%2) against recall (%3).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threshold %1: %2 when its probability is at least %1; precision %3, recall %4.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROC curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Click to see these samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Per class against the rest: precision (of the samples predicted as the class, the share that is right), recall (of the class&apos;s samples, the share found), F1 (their harmonic mean), AP (the area under the precision-recall curve) and ROC AUC (the chance that a sample of the class scores higher than one of another class; 0.5 is guessing).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>F1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>AP</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROC AUC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (AUC %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 (AP %2)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROC curves: for each class against the rest, the share of its samples found (true positive rate) against the share of other samples wrongly taken for it (false positive rate) as the threshold on its probability falls; the dashed line is guessing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision-recall curves: for each class against the rest, precision against recall as the threshold on its probability falls; a curve near the top right is a class the model separates well.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>(Curves thinned to 1,000 points.)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>false positive rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>recall</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>true positive rate</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>precision</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>core %1: %2% busy</source>
        <translation type="unfinished"></translation>
    </message>
    <message numerus="yes">
        <source>%1% of all %n core(s)</source>
        <translation type="unfinished">
            <numerusform></numerusform>
            <numerusform></numerusform>
        </translation>
    </message>
    <message>
        <source>%1 resident, %2 available</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 torch (intra-op), %2 in the process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 in the process</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 samples/s, %2% of the time waiting for data</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>– (no training steps in the last second)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1 torch threads x %2 training processes ask for more than the %3 cores: they take turns and each run is slower. Give each run fewer threads (training.num_threads) or run fewer at once.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>kernel %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>A generic kernel on a CPU with %1: starting TrainScope with %2 selects its kernels, for faster matrix products (results then differ from other runs in the last bits). TrainScope never sets it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This process and this machine, read once a second while this tab is shown (a run&apos;s folder keeps the same figures in system.csv).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Cores:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Training:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This process&apos;s CPU time (all its threads) as a share of all cores: 100% is every core busy with it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Load of each core (any process)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>After each epoch of a classification run: the validation samples as the network sees them just before its last layer, flattened onto the two directions along which they differ most (PCA). Classes that separate here are easy for the last layer.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Sample %1: %2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bring the view &lt;key&gt; to the front: %1.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>--view %1: no such view (one of %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Evaluation after epoch %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open in a window</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This epoch&apos;s evaluation in a window of its own, large enough for the curves; training goes on here.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each class against the rest; the dashed line is guessing.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each class against the rest; near the top right is good.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grad-CAM</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Where the network looks: the last convolution&apos;s feature maps, each weighted by how much the class score grows with it (Grad-CAM), laid over the image.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>signed</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Signed: red where the image speaks for the class, blue where it speaks against it; unticked (the usual Grad-CAM) only the red part.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>predicted class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>class %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The worst samples, or a clicked cell&apos;s</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision, recall, F1, AP and ROC AUC per class</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PR</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Precision-recall curves</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ROC</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PC 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Samples</source>
        <comment>tab</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1: %2 validation samples, the %3 features before the last layer on their two principal components (%4% of the variance).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Up to 5,000 validation samples, stratified by class, as the network sees them just before its last layer, projected by PCA onto the two directions along which they differ most. Hover a point for its sample and class.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Validation after epoch %1: %2 of %3 samples right (%4).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCA</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t-SNE</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t-SNE 1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>t-SNE 2</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Computing t-SNE: iteration %1 of %2...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Epoch %1: t-SNE of %2 validation samples (perplexity 30, KL divergence %3). Near neighbours stay near; the distances between clusters mean little.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1: %2%</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1: half of the weights of %2 lie between %3 and %4; all of them between %5 and %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1: half of the gradients of %2 lie between %3 and %4; all of them between %5 and %6.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Step %1: half of the outputs of layer %2 on %3 validation samples lie between %4 and %5; all of them between %6 and %7.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>%1% of its units are dead: 0 for every one of those samples.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Dead ReLU units per layer: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Activations</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Bands, from light to dark: all values, 7-93%, 16-84% and 31-69% of them; the line is the median.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Grad norm</source>
        <comment>tab</comment>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>PCA: the two directions along which the points differ most (exact, computed every epoch). t-SNE: a map that keeps each point&apos;s near neighbours near; distances between clusters mean little (computed on request, up to 1,000 points).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>No distributions for this run: training.distributions_every is 0 (off).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weight</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Each layer&apos;s weights, gradients and activations appear here while a run trains (every training.distributions_every steps; by default at step 10, every 500 steps and at the end).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export &amp;model...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Save the shown run&apos;s trained model as ONNX or TorchScript, to run outside TrainScope (OpenCV, onnxruntime, PyTorch), with a model card describing it.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export model</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX (OpenCV, onnxruntime, ...)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TorchScript (torch.jit.load)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Format:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Best (lowest validation loss)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Last (the final weights)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Include the run&apos;s preprocessing (inputs as stored: pixels 0-255)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Output probabilities (softmax) instead of logits</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Export</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>This run has no checkpoint to export yet.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX (opset 13) is written for MLP and CNN models; a model card (.model-card.md and .json) is written beside the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TorchScript is written for every model kind; a model card (.model-card.md and .json) is written beside the file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>ONNX model (*.onnx)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>TorchScript module (*.pt)</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Written: %1 (epoch %2), with its model card %3.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Open a lesson: a built-in one by name (%1) or a lesson file.</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>The loss stays above chance: a constant prediction would do better. The updates are too large (the learning rate is too high).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>Regularise more: raise the weight decay (now %1) or the dropout (now %2).</source>
        <translation type="unfinished"></translation>
    </message>
    <message>
        <source>the loss is diverging: the updates are too large</source>
        <translation type="unfinished"></translation>
    </message>
</context>
</TS>

<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>TrainScope</name>
    <message>
        <source>TrainScope – %1</source>
        <translation>TrainScope – %1</translation>
    </message>
    <message>
        <source>TrainScope</source>
        <translation>TrainScope</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open config...</source>
        <translation>打开配置(&amp;O)...</translation>
    </message>
    <message>
        <source>Load settings from a JSON config file.</source>
        <translation>从 JSON 配置文件加载设置。</translation>
    </message>
    <message>
        <source>&amp;Save config...</source>
        <translation>保存配置(&amp;S)...</translation>
    </message>
    <message>
        <source>Save the current settings as a JSON config file.</source>
        <translation>把当前设置保存为 JSON 配置文件。</translation>
    </message>
    <message>
        <source>Open &amp;run folder</source>
        <translation>打开运行文件夹(&amp;R)</translation>
    </message>
    <message>
        <source>Open the current run&apos;s folder in the file manager.</source>
        <translation>在文件管理器中打开当前运行的文件夹。</translation>
    </message>
    <message>
        <source>Choose runs &amp;location...</source>
        <translation>选择运行保存位置(&amp;L)...</translation>
    </message>
    <message>
        <source>Choose the folder under which every run gets its own folder.</source>
        <translation>选择一个文件夹，每次运行都会在其中创建自己的子文件夹。</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>Close TrainScope.</source>
        <translation>关闭 TrainScope。</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About TrainScope</source>
        <translation>关于 TrainScope(&amp;A)</translation>
    </message>
    <message>
        <source>About TrainScope</source>
        <translation>关于 TrainScope</translation>
    </message>
    <message>
        <source>&lt;b&gt;TrainScope %1&lt;/b&gt;&lt;p&gt;Train neural networks with libtorch %2 and watch losses and gradients live.&lt;/p&gt;</source>
        <translation>&lt;b&gt;TrainScope %1&lt;/b&gt;&lt;p&gt;使用 libtorch %2 训练神经网络，实时观察损失和梯度。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>Open config</source>
        <translation>打开配置</translation>
    </message>
    <message>
        <source>Config files (*.json);;All files (*)</source>
        <translation>配置文件 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Cannot open config</source>
        <translation>无法打开配置</translation>
    </message>
    <message>
        <source>Loaded %1</source>
        <translation>已加载 %1</translation>
    </message>
    <message>
        <source>Save config</source>
        <translation>保存配置</translation>
    </message>
    <message>
        <source>Cannot save config</source>
        <translation>无法保存配置</translation>
    </message>
    <message>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <source>Choose where runs are saved</source>
        <translation>选择运行的保存位置</translation>
    </message>
    <message>
        <source>New runs are saved under %1</source>
        <translation>新的运行将保存在 %1 下</translation>
    </message>
    <message>
        <source>Training...</source>
        <translation>正在训练...</translation>
    </message>
    <message>
        <source>Paused</source>
        <translation>已暂停</translation>
    </message>
    <message>
        <source>Stopping...</source>
        <translation>正在停止...</translation>
    </message>
    <message>
        <source>Non-finite value at step %1 – see Events</source>
        <translation>第 %1 步出现 NaN/Inf（非有限值）– 请查看“事件”</translation>
    </message>
    <message>
        <source>The run could not start – see Events</source>
        <translation>运行无法开始 – 请查看“事件”</translation>
    </message>
    <message>
        <source>Stop training?</source>
        <translation>停止训练？</translation>
    </message>
    <message>
        <source>A run is still in progress. Stop it and close TrainScope?

The files written so far are kept and summary.json records that the run was stopped.</source>
        <translation>训练仍在进行。要停止训练并关闭 TrainScope 吗？

已写入的文件会保留，summary.json 会记录本次运行是被停止的。</translation>
    </message>
    <message>
        <source>loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>value</source>
        <translation>数值</translation>
    </message>
    <message>
        <source>completed</source>
        <translation>已完成</translation>
    </message>
    <message>
        <source>stopped by the user</source>
        <translation>被用户停止</translation>
    </message>
    <message>
        <source>stopped on a non-finite value</source>
        <translation>因出现 NaN/Inf（非有限值）而停止</translation>
    </message>
    <message>
        <source>early stopping</source>
        <translation>提前停止</translation>
    </message>
    <message>
        <source>interrupted</source>
        <translation>被中断</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>失败</translation>
    </message>
    <message>
        <source>Paused after step %1 (epoch %2).</source>
        <translation>已在第 %1 步后暂停（第 %2 轮）。</translation>
    </message>
    <message>
        <source>Resumed at step %1.</source>
        <translation>已在第 %1 步继续。</translation>
    </message>
    <message>
        <source>Stopped at step %1.</source>
        <translation>已在第 %1 步停止。</translation>
    </message>
    <message>
        <source>Checkpoint saved at step %1.</source>
        <translation>已在第 %1 步保存检查点。</translation>
    </message>
    <message>
        <source>Setting changed at step %1: %2</source>
        <translation>第 %1 步更改了设置：%2</translation>
    </message>
    <message>
        <source>Out of GPU memory at step %1; the run is paused. %2</source>
        <translation>第 %1 步 GPU 内存不足；运行已暂停。%2</translation>
    </message>
    <message>
        <source>This run needs about %1 MB of memory, more than is available: it may swap or be killed. Lower the batch size (with gradient accumulation to keep the effective batch) or use a smaller model.</source>
        <translation>此运行约需 %1 MB 内存，超过可用内存：可能会使用交换空间或被终止。请减小批次大小（并用梯度累积保持有效批次），或使用更小的模型。</translation>
    </message>
    <message>
        <source>Error at step %1: %2</source>
        <translation>第 %1 步出错：%2</translation>
    </message>
    <message>
        <source>Run started: %1 epoch(s) of %2 batch(es) of up to %3 samples, seed %4, on %5 with %6 CPU thread(s).</source>
        <translation>开始运行：共 %1 轮，每轮 %2 个批次（每批最多 %3 个样本），随机种子 %4，在 %5 上使用 %6 个 CPU 线程。</translation>
    </message>
    <message>
        <source>Run finished (%1): %2 epoch(s), %3 step(s) in %4 s (wall clock, pauses included).</source>
        <translation>训练结束（%1）：%2 轮，%3 步，用时 %4 秒（墙钟时间，含暂停）。</translation>
    </message>
    <message numerus="yes">
        <source>%n optimizer update(s) skipped because of non-finite values.</source>
        <translation>
            <numerusform>因出现 NaN/Inf（非有限值）跳过了 %n 次优化器更新。</numerusform>
        </translation>
    </message>
    <message>
        <source>Test accuracy: %1 %.</source>
        <translation>测试准确率：%1%。</translation>
    </message>
    <message>
        <source>Test loss: %1.</source>
        <translation>测试损失：%1。</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>The run failed: %1</source>
        <translation>运行失败：%1</translation>
    </message>
    <message>
        <source>Invalid setting &quot;%1&quot;. Details: %2</source>
        <translation>设置“%1”无效。详细信息：%2</translation>
    </message>
    <message>
        <source>The dataset could not be loaded from &quot;%1&quot;. Details: %2</source>
        <translation>无法从“%1”加载数据集。详细信息：%2</translation>
    </message>
    <message>
        <source>The checkpoint &quot;%1&quot; could not be used. Details: %2</source>
        <translation>无法使用检查点“%1”。详细信息：%2</translation>
    </message>
    <message>
        <source>Could not write &quot;%1&quot;. Details: %2</source>
        <translation>无法写入“%1”。详细信息：%2</translation>
    </message>
    <message>
        <source>Try &apos;trainscope --help&apos;.</source>
        <translation>请尝试 &apos;trainscope --help&apos;。</translation>
    </message>
    <message>
        <source>TrainScope: train a neural network with libtorch and watch it learn.</source>
        <translation>TrainScope：用 libtorch 训练神经网络，并观察它如何学习。</translation>
    </message>
    <message>
        <source>Start with the built-in preset &lt;name&gt;.</source>
        <translation>以内置预设 &lt;name&gt; 启动。</translation>
    </message>
    <message>
        <source>name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Start with the settings of the config file &lt;file&gt;.</source>
        <translation>以配置文件 &lt;file&gt; 中的设置启动。</translation>
    </message>
    <message>
        <source>file</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>Start training as soon as the window opens.</source>
        <translation>窗口打开后立即开始训练。</translation>
    </message>
    <message>
        <source>Start training, stop after &lt;n&gt; epochs and quit (exit code 0).</source>
        <translation>开始训练，训练 &lt;n&gt; 轮后停止并退出（退出码 0）。</translation>
    </message>
    <message>
        <source>n</source>
        <translation>n</translation>
    </message>
    <message>
        <source>Save a picture of the window to &lt;file&gt; just before quitting. Alone, it starts training and quits when the run ends.</source>
        <translation>退出前将窗口截图保存到 &lt;file&gt;。单独使用时会开始训练，并在运行结束时退出。</translation>
    </message>
    <message>
        <source>Create run folders under &lt;dir&gt;.</source>
        <translation>在 &lt;dir&gt; 下创建运行文件夹。</translation>
    </message>
    <message>
        <source>dir</source>
        <translation>目录</translation>
    </message>
    <message>
        <source>Unexpected argument: %1</source>
        <translation>意外的参数：%1</translation>
    </message>
    <message>
        <source>--quit-after-epochs needs a whole number of at least 1, got &quot;%1&quot;.</source>
        <translation>--quit-after-epochs 需要一个不小于 1 的整数，实际为“%1”。</translation>
    </message>
    <message>
        <source>--preset needs a name.</source>
        <translation>--preset 需要一个名称。</translation>
    </message>
    <message>
        <source>Device</source>
        <translation>设备</translation>
    </message>
    <message>
        <source>The hardware and libraries this computer trains with.</source>
        <translation>这台计算机用于训练的硬件和库。</translation>
    </message>
    <message>
        <source>libtorch:</source>
        <translation>libtorch：</translation>
    </message>
    <message numerus="yes">
        <source>available, %n device(s)</source>
        <translation>
            <numerusform>可用，%n 个设备</numerusform>
        </translation>
    </message>
    <message>
        <source>CUDA lets libtorch train on an NVIDIA GPU; without it training runs on the CPU.</source>
        <translation>CUDA 让 libtorch 能在 NVIDIA GPU 上训练；没有 CUDA 时在 CPU 上训练。</translation>
    </message>
    <message>
        <source>CUDA:</source>
        <translation>CUDA：</translation>
    </message>
    <message>
        <source>GPU:</source>
        <translation>GPU：</translation>
    </message>
    <message>
        <source>The device the run trains on (&quot;auto&quot; picks CUDA when available).</source>
        <translation>本次运行使用的训练设备（“auto”会在 CUDA 可用时选择 CUDA）。</translation>
    </message>
    <message>
        <source>Trains on:</source>
        <translation>训练设备：</translation>
    </message>
    <message>
        <source>CPU:</source>
        <translation>CPU：</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n logical core(s))</source>
        <translation>
            <numerusform>%1（%n 个逻辑核心）</numerusform>
        </translation>
    </message>
    <message>
        <source>Threads libtorch uses for the math of one training step.</source>
        <translation>libtorch 计算一个训练步时使用的线程数。</translation>
    </message>
    <message>
        <source>CPU threads:</source>
        <translation>CPU 线程：</translation>
    </message>
    <message>
        <source>unknown</source>
        <translation>未知</translation>
    </message>
    <message>
        <source>The linear-algebra library (BLAS) doing the matrix products.</source>
        <translation>执行矩阵乘法的线性代数库（BLAS）。</translation>
    </message>
    <message>
        <source>The linear-algebra library (BLAS) doing the matrix products: %1</source>
        <translation>执行矩阵乘法的线性代数库（BLAS）：%1</translation>
    </message>
    <message>
        <source>BLAS:</source>
        <translation>BLAS：</translation>
    </message>
    <message>
        <source>%1 in use</source>
        <translation>正在使用 %1 个</translation>
    </message>
    <message>
        <source>%1 (default)</source>
        <translation>%1（默认）</translation>
    </message>
    <message>
        <source>Events</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>What happened during the run. Repeated events are folded into one line; every event is in the run folder&apos;s events.jsonl.</source>
        <translation>训练过程中发生的事件。重复的事件合并为一行；全部事件记录在运行文件夹的 events.jsonl 中。</translation>
    </message>
    <message numerus="yes">
        <source>(steps %1–%2, %n time(s))</source>
        <translation>
            <numerusform>（第 %1–%2 步，共 %n 次）</numerusform>
        </translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>Start a new training run with the settings above.</source>
        <translation>用上面的设置开始一次新的训练。</translation>
    </message>
    <message>
        <source>Res&amp;ume</source>
        <translation>继续(&amp;U)</translation>
    </message>
    <message>
        <source>Continue training.</source>
        <translation>继续训练。</translation>
    </message>
    <message>
        <source>Pa&amp;use</source>
        <translation>暂停(&amp;U)</translation>
    </message>
    <message>
        <source>Pause training after the current batch; press again to resume.</source>
        <translation>在当前批次结束后暂停训练；再按一次继续。</translation>
    </message>
    <message>
        <source>Step &amp;batch</source>
        <translation>单步（1 个批次）(&amp;B)</translation>
    </message>
    <message>
        <source>Train exactly one batch, then pause. Without a run, starts a new run and pauses after its first batch.</source>
        <translation>只训练一个批次，然后暂停。没有运行时，会开始一次新的运行并在第一个批次后暂停。</translation>
    </message>
    <message>
        <source>Step &amp;epoch</source>
        <translation>跑完本轮(&amp;E)</translation>
    </message>
    <message>
        <source>Train to the end of the current epoch (validation included), then pause.</source>
        <translation>训练到本轮结束（包括验证），然后暂停。</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>End the run now. Its files (metrics, summary) are kept.</source>
        <translation>立即结束本次运行。已写入的文件（指标、摘要）会保留。</translation>
    </message>
    <message>
        <source>Data and model</source>
        <translation>数据和模型</translation>
    </message>
    <message>
        <source>What the current run learns from and the network it trains. Filled in when a run starts.</source>
        <translation>当前运行所用的数据和所训练的网络。运行开始时填写。</translation>
    </message>
    <message>
        <source>Samples used for training, for validation after every epoch, and for the final test.</source>
        <translation>用于训练、每轮结束后验证以及最终测试的样本数。</translation>
    </message>
    <message>
        <source>Number of trainable numbers (weights and biases) in the model.</source>
        <translation>模型中可训练参数（权重和偏置）的数量。</translation>
    </message>
    <message>
        <source>Dataset:</source>
        <translation>数据集：</translation>
    </message>
    <message>
        <source>Train / val / test:</source>
        <translation>训练 / 验证 / 测试：</translation>
    </message>
    <message>
        <source>Classes:</source>
        <translation>类别：</translation>
    </message>
    <message>
        <source>Parameters:</source>
        <translation>参数量：</translation>
    </message>
    <message>
        <source>Model:</source>
        <translation>模型：</translation>
    </message>
    <message>
        <source>classification</source>
        <translation>分类</translation>
    </message>
    <message>
        <source>regression</source>
        <translation>回归</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%2, %n input(s) per sample)</source>
        <translation>
            <numerusform>%1（%2，每个样本 %n 个输入）</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>none (regression)</source>
        <translation>无（回归）</translation>
    </message>
    <message>
        <source>(starts with the run)</source>
        <translation>（随运行开始填写）</translation>
    </message>
    <message>
        <source>How much of the run is done (steps done of all planned steps).</source>
        <translation>本次运行完成了多少（已完成步数占计划总步数的比例）。</translation>
    </message>
    <message>
        <source>Training time so far (pauses excluded), and the estimated time left.</source>
        <translation>到目前为止的训练时间（不含暂停），以及预计剩余时间。</translation>
    </message>
    <message>
        <source>Run folder:</source>
        <translation>运行文件夹：</translation>
    </message>
    <message>
        <source>Where this run&apos;s files are written: config, metrics, steps, events and summary.</source>
        <translation>本次运行文件的保存位置：配置、指标、每步记录、事件和摘要。</translation>
    </message>
    <message>
        <source>(created when a run starts)</source>
        <translation>（运行开始时创建）</translation>
    </message>
    <message>
        <source>Open folder</source>
        <translation>打开文件夹</translation>
    </message>
    <message>
        <source>Open the run folder in the file manager.</source>
        <translation>在文件管理器中打开运行文件夹。</translation>
    </message>
    <message>
        <source>Run folder</source>
        <translation>运行文件夹</translation>
    </message>
    <message>
        <source>No file manager could be started. The run folder is:
%1</source>
        <translation>无法启动文件管理器。运行文件夹位于：
%1</translation>
    </message>
    <message>
        <source>Copy path</source>
        <translation>复制路径</translation>
    </message>
    <message>
        <source>The epoch being trained (or the last one), of the planned epochs.</source>
        <translation>正在训练的轮（或最后一轮）/ 计划轮数。</translation>
    </message>
    <message>
        <source>Optimizer steps (batches) done so far.</source>
        <translation>到目前为止完成的优化步数（批次数）。</translation>
    </message>
    <message>
        <source>Validation result of the last finished epoch and the learning rate in force.</source>
        <translation>最近完成的一轮的验证结果，以及当前生效的学习率。</translation>
    </message>
    <message>
        <source>The random seed of this run; put it in the settings to repeat the run exactly. You can select and copy it.</source>
        <translation>本次运行的随机种子；把它填入设置即可完全重现本次运行。可以选中并复制。</translation>
    </message>
    <message>
        <source>Epoch %1/%2</source>
        <translation>第 %1/%2 轮</translation>
    </message>
    <message>
        <source>Epoch –</source>
        <translation>轮 –</translation>
    </message>
    <message>
        <source>Step %1</source>
        <translation>步数 %1</translation>
    </message>
    <message>
        <source>Step –</source>
        <translation>步数 –</translation>
    </message>
    <message>
        <source>Validation accuracy %1 % · lr %2</source>
        <translation>验证准确率 %1% · 学习率 %2</translation>
    </message>
    <message>
        <source>Validation loss %1 · lr %2</source>
        <translation>验证损失 %1 · 学习率 %2</translation>
    </message>
    <message>
        <source>%1 samples/s</source>
        <translation>%1 样本/秒</translation>
    </message>
    <message>
        <source>– samples/s</source>
        <translation>– 样本/秒</translation>
    </message>
    <message>
        <source>Seed %1</source>
        <translation>种子 %1</translation>
    </message>
    <message>
        <source>Seed –</source>
        <translation>种子 –</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>A ready-made experiment: dataset, model and training settings. Choosing one loads its values into the fields below.</source>
        <translation>现成的实验：包括数据集、模型和训练设置。选择后会把它的数值填入下面各项。</translation>
    </message>
    <message>
        <source>(from a config file)</source>
        <translation>（来自配置文件）</translation>
    </message>
    <message>
        <source>&amp;Preset:</source>
        <translation>预设(&amp;P)：</translation>
    </message>
    <message>
        <source>Where the current settings came from.</source>
        <translation>当前设置的来源。</translation>
    </message>
    <message>
        <source>Source:</source>
        <translation>来源：</translation>
    </message>
    <message>
        <source>&amp;Learning rate:</source>
        <translation>学习率(&amp;L)：</translation>
    </message>
    <message>
        <source>How many samples are used for each optimizer step. Larger batches give smoother but fewer steps per epoch.</source>
        <translation>每个优化步使用多少个样本。批次越大，每轮的步数越少，但每步更平稳。</translation>
    </message>
    <message>
        <source>Batch si&amp;ze:</source>
        <translation>批次大小(&amp;Z)：</translation>
    </message>
    <message>
        <source>How many full passes over the training data the run makes.</source>
        <translation>本次运行完整遍历训练数据的次数。</translation>
    </message>
    <message>
        <source>Ep&amp;ochs:</source>
        <translation>轮数(&amp;O)：</translation>
    </message>
    <message>
        <source>Fixed</source>
        <translation>固定</translation>
    </message>
    <message>
        <source>On: use the seed on the right, so the same settings give exactly the same run again. Off: draw a new random seed for every run (it is shown in the status bar and saved with the run).</source>
        <translation>开启：使用右侧的种子，相同的设置会得到完全相同的运行。关闭：每次运行随机抽取新的种子（显示在状态栏中，并随运行一起保存）。</translation>
    </message>
    <message>
        <source>The random seed: it decides the initial weights and the order of the batches.</source>
        <translation>随机种子：决定初始权重和批次的顺序。</translation>
    </message>
    <message>
        <source>See&amp;d:</source>
        <translation>随机种子(&amp;D)：</translation>
    </message>
    <message>
        <source>On</source>
        <translation>开启</translation>
    </message>
    <message>
        <source>Gradient clipping: when the total gradient norm exceeds the maximum on the right, the gradient is scaled down to it. Protects against exploding gradients.</source>
        <translation>梯度裁剪：当总梯度范数超过右侧的最大值时，把梯度按比例缩小到该值。可防止梯度爆炸。</translation>
    </message>
    <message>
        <source>The largest gradient norm allowed when clipping is on. It is drawn as a line on the gradient norm plot.</source>
        <translation>开启裁剪时允许的最大梯度范数。它在梯度范数图中显示为一条水平线。</translation>
    </message>
    <message>
        <source>&amp;Clipping:</source>
        <translation>梯度裁剪(&amp;C)：</translation>
    </message>
    <message>
        <source>built-in preset &quot;%1&quot;</source>
        <translation>内置预设“%1”</translation>
    </message>
    <message>
        <source>Unknown preset &quot;%1&quot;. %2</source>
        <translation>未知的预设“%1”。%2</translation>
    </message>
    <message>
        <source>The config file &quot;%1&quot; was not loaded: the setting &quot;%2&quot; is outside what the dashboard can set (%3). Use trainscope-cli for such values.</source>
        <translation>未加载配置文件“%1”：设置项“%2”超出了仪表盘可设置的范围（%3）。此类取值请使用 trainscope-cli。</translation>
    </message>
    <message>
        <source>The previous settings are kept.</source>
        <translation>之前的设置保持不变。</translation>
    </message>
    <message>
        <source>config file %1</source>
        <translation>配置文件 %1</translation>
    </message>
    <message>
        <source>The config file &quot;%1&quot; was not loaded: the setting &quot;%2&quot; is invalid.</source>
        <translation>未加载配置文件“%1”：设置“%2”无效。</translation>
    </message>
    <message>
        <source>The config file &quot;%1&quot; was not loaded.</source>
        <translation>未加载配置文件“%1”。</translation>
    </message>
    <message>
        <source>Could not save the config to &quot;%1&quot;.</source>
        <translation>无法把配置保存到“%1”。</translation>
    </message>
    <message>
        <source>nan</source>
        <translation>nan</translation>
    </message>
    <message>
        <source>+inf</source>
        <translation>+inf</translation>
    </message>
    <message>
        <source>-inf</source>
        <translation>-inf</translation>
    </message>
    <message>
        <source>%1
step %2: %3</source>
        <translation>%1
第 %2 步：%3</translation>
    </message>
    <message>
        <source>non-finite value</source>
        <translation>NaN/Inf（非有限值）</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Loss</source>
        <translation>损失</translation>
    </message>
    <message>
        <source>Training loss (epoch)</source>
        <translation>训练损失（每轮）</translation>
    </message>
    <message>
        <source>Validation loss (epoch)</source>
        <translation>验证损失（每轮）</translation>
    </message>
    <message>
        <source>Gradient norm</source>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>Log scale</source>
        <translation>对数坐标</translation>
    </message>
    <message>
        <source>Logarithmic value axis: shows both large early values and small late ones. Zero and negative values are left out of the range.</source>
        <translation>对数纵轴：早期的大数值和后期的小数值都能看清。零和负值不计入坐标范围。</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>%1 steps/s</source>
        <translation>每秒 %1 步</translation>
    </message>
    <message>
        <source>full speed</source>
        <translation>全速</translation>
    </message>
    <message>
        <source>How fast the run goes, so it can be watched and explained: from one step per second to full speed. It only paces the training loop; every number of the run stays the same.</source>
        <translation>训练的快慢，便于边看边讲解：从每秒一步到全速。它只控制训练循环的节奏，运行中的所有数值都保持不变。</translation>
    </message>
    <message>
        <source>Legend</source>
        <translation>图例</translation>
    </message>
    <message>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <source>Interface language: en or zh_CN (default: the one chosen in the Language menu, else the system&apos;s).</source>
        <translation>界面语言：en 或 zh_CN（默认：“语言”菜单中选过的语言，否则为系统语言）。</translation>
    </message>
    <message>
        <source>language</source>
        <translation>语言</translation>
    </message>
    <message>
        <source>--lang must be en or zh_CN, got &quot;%1&quot;.</source>
        <translation>--lang 只能是 en 或 zh_CN，收到的是“%1”。</translation>
    </message>
    <message>
        <source>Training time %1 (pauses excluded)</source>
        <translation>训练用时 %1（不含暂停）</translation>
    </message>
    <message>
        <source>Training throughput of the last epoch; when the run has ended, its mean over all epochs.</source>
        <translation>上一轮的训练吞吐量；运行结束后显示所有轮的平均值。</translation>
    </message>
    <message>
        <source>mean %1 samples/s</source>
        <translation>平均 %1 样本/秒</translation>
    </message>
    <message>
        <source>&quot;%1&quot; was not accepted: the value must be between %2 and %3. The previous value %4 is kept.</source>
        <translation>未接受“%1”：数值必须在 %2 到 %3 之间。保留原来的值 %4。</translation>
    </message>
    <message>
        <source>%1 (modified)</source>
        <translation>%1（已修改）</translation>
    </message>
    <message>
        <source>Epoch %1 trained at %2 samples/s, under a third of the rate measured at the start: another program is probably using the cores. A smaller training.num_threads may be faster next time.</source>
        <translation>第 %1 轮的训练速度为每秒 %2 个样本，不到开始时测得速度的三分之一：可能有其他程序在占用 CPU 核心。下次把 training.num_threads 设小一些可能会更快。</translation>
    </message>
    <message>
        <source>Checkpoint not saved at step %1; the run goes on. Details: %2</source>
        <translation>第 %1 步的检查点未能保存；训练继续进行。详情：%2</translation>
    </message>
    <message>
        <source>Checkpoint saved at step %1: %2</source>
        <translation>已在第 %1 步保存检查点：%2</translation>
    </message>
    <message>
        <source>Continuing from checkpoint %2 at step %1 (epoch %3 completed).</source>
        <translation>从检查点 %2 继续，位于第 %1 步（已完成 %3 轮）。</translation>
    </message>
    <message>
        <source>The run folder of checkpoint %1 was not found: the per-step curves before step %2 are missing (the per-epoch curves come from the checkpoint).</source>
        <translation>未找到检查点 %1 所属的运行文件夹：第 %2 步之前的逐步曲线缺失（每轮曲线来自检查点）。</translation>
    </message>
    <message>
        <source>Checkpoint</source>
        <translation>检查点</translation>
    </message>
    <message>
        <source>Save...</source>
        <translation>保存...</translation>
    </message>
    <message>
        <source>Save the whole training state (model, optimizer, random generators, curves) at the current step: a running run waits while you choose the file, then continues.</source>
        <translation>在当前步保存完整的训练状态（模型、优化器、随机数生成器、曲线）：选择文件期间，正在进行的训练会暂停等待，之后继续。</translation>
    </message>
    <message>
        <source>Load...</source>
        <translation>加载...</translation>
    </message>
    <message>
        <source>Continue a saved run from its checkpoint, paused at the step it was saved at.</source>
        <translation>从检查点继续一次已保存的运行，并暂停在保存时的那一步。</translation>
    </message>
    <message>
        <source>Epochs completed: %1 (step %2)</source>
        <translation>已完成轮数：%1（第 %2 步）</translation>
    </message>
    <message>
        <source>Saved in the middle of epoch %1, after batch %2: training continues with the next batch.</source>
        <translation>保存于第 %1 轮中途、第 %2 个批次之后：训练将从下一个批次继续。</translation>
    </message>
    <message>
        <source>Best validation loss: %1 (epoch %2)</source>
        <translation>最佳验证损失：%1（第 %2 轮）</translation>
    </message>
    <message>
        <source>Best validation loss: none yet</source>
        <translation>最佳验证损失：暂无</translation>
    </message>
    <message>
        <source>Settings: %1</source>
        <translation>设置：%1</translation>
    </message>
    <message>
        <source>Saved: %1</source>
        <translation>保存时间：%1</translation>
    </message>
    <message>
        <source>Load checkpoint?</source>
        <translation>加载检查点？</translation>
    </message>
    <message>
        <source>Train until epoch:</source>
        <translation>训练到第几轮：</translation>
    </message>
    <message>
        <source>The paused run ends here (its files are kept). The checkpoint continues in a new run folder, paused at step %1.</source>
        <translation>当前暂停的运行将在此结束（其文件会保留）。检查点将在新的运行文件夹中继续，并暂停在第 %1 步。</translation>
    </message>
    <message>
        <source>The checkpoint continues in a new run folder, paused at step %1.</source>
        <translation>检查点将在新的运行文件夹中继续，并暂停在第 %1 步。</translation>
    </message>
    <message>
        <source>Load</source>
        <translation>加载</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Save checkpoint</source>
        <translation>保存检查点</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt)</source>
        <translation>检查点 (*.pt)</translation>
    </message>
    <message>
        <source>Checkpoint not saved</source>
        <translation>检查点未保存</translation>
    </message>
    <message>
        <source>The checkpoint could not be saved: %1</source>
        <translation>无法保存检查点：%1</translation>
    </message>
    <message>
        <source>Load checkpoint</source>
        <translation>加载检查点</translation>
    </message>
    <message>
        <source>Checkpoints (*.pt);;All files (*)</source>
        <translation>检查点 (*.pt);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Checkpoint not loaded</source>
        <translation>检查点未加载</translation>
    </message>
    <message>
        <source>%1

The current run is unchanged.</source>
        <translation>%1

当前运行保持不变。</translation>
    </message>
    <message>
        <source>Open the checkpoint &lt;file&gt;: its run waits paused at the step it was saved at, with its curves; Start (or --autostart) continues it.</source>
        <translation>打开检查点 &lt;file&gt;：其运行暂停在保存时的那一步，并显示其曲线；点击“开始”（或使用 --autostart）继续。</translation>
    </message>
    <message>
        <source>Use only one of --preset, --config and --checkpoint.</source>
        <translation>--preset、--config 和 --checkpoint 只能使用其中一个。</translation>
    </message>
    <message>
        <source>&quot;%1&quot; was not accepted: hidden sizes are whole numbers from 1 to 65536 separated by commas, e.g. 64, 64. The previous value %2 is kept.</source>
        <translation>“%1”未被接受：隐藏层大小应为 1 到 65536 之间的整数，用逗号分隔，例如 64, 64。保留之前的值 %2。</translation>
    </message>
    <message>
        <source>all</source>
        <translation>全部</translation>
    </message>
    <message>
        <source>Model, data and device</source>
        <translation>模型、数据与设备</translation>
    </message>
    <message>
        <source>Optimizer, layer sizes, dropout, weight decay, data size, validation share, device and threads.</source>
        <translation>优化器、层大小、dropout、权重衰减、数据量、验证集比例、设备和线程数。</translation>
    </message>
    <message>
        <source>Optimizer:</source>
        <translation>优化器：</translation>
    </message>
    <message>
        <source>Hidden layers:</source>
        <translation>隐藏层：</translation>
    </message>
    <message>
        <source>Dropout:</source>
        <translation>Dropout：</translation>
    </message>
    <message>
        <source>Weight decay:</source>
        <translation>权重衰减：</translation>
    </message>
    <message>
        <source>Samples:</source>
        <translation>样本数：</translation>
    </message>
    <message>
        <source>Validation:</source>
        <translation>验证集比例：</translation>
    </message>
    <message>
        <source>Device:</source>
        <translation>设备：</translation>
    </message>
    <message>
        <source>Applies when the next run starts.</source>
        <translation>在下一次运行开始时生效。</translation>
    </message>
    <message>
        <source>torch.optim.SGD, Adam or AdamW.</source>
        <translation>torch.optim.SGD、Adam 或 AdamW。</translation>
    </message>
    <message>
        <source>Widths of the hidden layers, e.g. 64, 64. Bigger layers fit more, and overfit more.</source>
        <translation>各隐藏层的宽度，例如 64, 64。层越大，拟合能力越强，也越容易过拟合。</translation>
    </message>
    <message>
        <source>Probability of zeroing each hidden unit during training (torch.nn.Dropout). Shrinks the gap between training and validation loss.</source>
        <translation>训练时将每个隐藏单元置零的概率（torch.nn.Dropout）。可缩小训练损失与验证损失之间的差距。</translation>
    </message>
    <message>
        <source>L2 penalty on the weights (AdamW: decoupled). Another way to fight overfitting.</source>
        <translation>对权重的 L2 惩罚（AdamW：解耦形式）。另一种对抗过拟合的方法。</translation>
    </message>
    <message>
        <source>How many samples the synthetic dataset has before the validation split. More data, less overfitting.</source>
        <translation>划分验证集之前合成数据集的样本数。数据越多，过拟合越少。</translation>
    </message>
    <message>
        <source>Fraction of the samples held out to measure validation loss.</source>
        <translation>留出用于计算验证损失的样本比例。</translation>
    </message>
    <message>
        <source>auto</source>
        <translation>自动</translation>
    </message>
    <message>
        <source>Where the run trains: auto takes the first CUDA GPU when there is one, else the CPU.</source>
        <translation>训练所用的设备：自动模式下有 CUDA GPU 时使用第一个 GPU，否则使用 CPU。</translation>
    </message>
    <message>
        <source>Intra-op CPU threads. auto measures 1, 2, 4, ... on a few real steps at the start and keeps the fastest.</source>
        <translation>算子内 CPU 线程数。自动模式会在开始时用几个真实步骤测量 1、2、4……个线程，并选用最快的。</translation>
    </message>
    <message>
        <source>same settings</source>
        <translation>设置相同</translation>
    </message>
    <message>
        <source>Remove the dashed curves of the previous run, kept to show what the new settings change.</source>
        <translation>移除上一次运行的虚线曲线（保留它们是为了显示新设置带来的变化）。</translation>
    </message>
    <message>
        <source>Previous run</source>
        <translation>上一次运行</translation>
    </message>
    <message>
        <source>Dashed: the previous run, %1</source>
        <translation>虚线：上一次运行，%1</translation>
    </message>
    <message>
        <source>&amp;Import weights...</source>
        <translation>导入权重(&amp;I)...</translation>
    </message>
    <message>
        <source>Start the next runs from weights saved by Python&apos;s torch.save (a state_dict) or from a checkpoint.</source>
        <translation>之后的运行从 Python 的 torch.save 保存的权重（state_dict）或检查点开始。</translation>
    </message>
    <message numerus="yes">
        <source>Initial weights imported from %1 (%n tensor(s)).</source>
        <translation>
            <numerusform>已从 %1 导入初始权重（%n 个张量）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>清除</translation>
    </message>
    <message>
        <source>Start the next runs from fresh random weights again.</source>
        <translation>之后的运行重新从随机权重开始。</translation>
    </message>
    <message>
        <source>Next runs start from the weights in %1</source>
        <translation>之后的运行从 %1 中的权重开始</translation>
    </message>
    <message>
        <source>Import weights</source>
        <translation>导入权重</translation>
    </message>
    <message>
        <source>PyTorch files (*.pt *.pth);;All files (*)</source>
        <translation>PyTorch 文件 (*.pt *.pth);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Weights not imported</source>
        <translation>权重未导入</translation>
    </message>
    <message>
        <source>Import weights?</source>
        <translation>导入权重？</translation>
    </message>
    <message numerus="yes">
        <source>%1 holds %n tensor(s):</source>
        <translation>
            <numerusform>%1 包含 %n 个张量：</numerusform>
        </translation>
    </message>
    <message>
        <source>The next runs start from these weights instead of random ones. Names and shapes must match the model of the settings (as PyTorch&apos;s load_state_dict with strict=True); a mismatch is reported when the run starts.</source>
        <translation>之后的运行将从这些权重而不是随机权重开始。名称和形状必须与设置中的模型一致（与 PyTorch 的 load_state_dict(strict=True) 相同）；不一致会在运行开始时报告。</translation>
    </message>
    <message>
        <source>the loss is flat from the start</source>
        <translation>损失从一开始就没有下降</translation>
    </message>
    <message>
        <source>the loss fell, then stalled at a plateau</source>
        <translation>损失下降后停滞在平台期</translation>
    </message>
    <message>
        <source>overfitting</source>
        <translation>过拟合</translation>
    </message>
    <message>
        <source>training looks healthy</source>
        <translation>训练状况良好</translation>
    </message>
    <message>
        <source>too early to tell</source>
        <translation>现在判断还为时过早</translation>
    </message>
    <message>
        <source>stopped: the training diverged</source>
        <translation>已停止：训练发散</translation>
    </message>
    <message>
        <source>The run diverged at epoch %1: validation accuracy (%2) has stayed at chance level for 3 epochs. Lower the learning rate.</source>
        <translation>训练在第 %1 轮发散：验证准确率（%2）已连续 3 轮停留在随机猜测水平。请降低学习率。</translation>
    </message>
    <message>
        <source>The run diverged at epoch %1: the training loss (%2) is over 10,000 times the first epoch&apos;s. Lower the learning rate or turn on gradient clipping.</source>
        <translation>训练在第 %1 轮发散：训练损失（%2）超过第一轮的 10000 倍。请降低学习率或开启梯度裁剪。</translation>
    </message>
    <message>
        <source>Gradient clipping never fires: for 200 steps every gradient norm stayed under a tenth of max_norm (largest %1). Lower max_norm to act on spikes.</source>
        <translation>梯度裁剪从未生效：200 步内所有梯度范数都低于 max_norm 的十分之一（最大为 %1）。请调低 max_norm，使其能抑制尖峰。</translation>
    </message>
    <message>
        <source>Gradient clipping fired on %1 % of the last 100 steps, so it acts as a fixed step size. Try a lower learning rate or a larger max_norm.</source>
        <translation>最近 100 步中有 %1 % 触发了梯度裁剪，它相当于固定步长。请尝试降低学习率或增大 max_norm。</translation>
    </message>
    <message>
        <source>Diagnosis at epoch %1: %2</source>
        <translation>第 %1 轮的诊断：%2</translation>
    </message>
    <message>
        <source>No snapshot to roll back to: nothing was restored.</source>
        <translation>没有可回滚的快照：未恢复任何状态。</translation>
    </message>
    <message>
        <source>Rolled back to the snapshot at step %1.</source>
        <translation>已回滚到第 %1 步的快照。</translation>
    </message>
    <message>
        <source>AMP switched on after step %1: mixed precision from step %2.</source>
        <translation>第 %1 步后开启 AMP：从第 %2 步起使用混合精度。</translation>
    </message>
    <message>
        <source>AMP switched off after step %1: float32 from step %2.</source>
        <translation>第 %1 步后关闭 AMP：从第 %2 步起使用 float32。</translation>
    </message>
    <message>
        <source>On CUDA, fp16 autocast runs the matrix products on tensor cores and a GradScaler keeps small gradients from underflowing. Small models are limited by kernel launches more than by arithmetic, so they gain less.</source>
        <translation>在 CUDA 上，fp16 autocast 在张量核心上计算矩阵乘法，GradScaler 防止小梯度下溢。小模型受限于内核启动而非算术运算，因此收益较小。</translation>
    </message>
    <message>
        <source>On the CPU, autocast computes the matrix products of the forward pass in bf16, while weights, gradients and optimizer state stay float32: every step also converts weights and activations between float32 and bf16.</source>
        <translation>在 CPU 上，autocast 以 bf16 计算前向传播中的矩阵乘法，而权重、梯度和优化器状态仍为 float32：每一步还要在 float32 与 bf16 之间转换权重和激活值。</translation>
    </message>
    <message>
        <source>This CPU multiplies bf16 in hardware (%1).</source>
        <translation>此 CPU 以硬件执行 bf16 乘法（%1）。</translation>
    </message>
    <message>
        <source>This CPU has no bf16 instructions (avx512_bf16, amx_bf16): bf16 is converted to float32 around each multiply-accumulate, so there is little to gain.</source>
        <translation>此 CPU 没有 bf16 指令（avx512_bf16、amx_bf16）：每次乘加前后都要把 bf16 转换为 float32，因此收益很小。</translation>
    </message>
    <message>
        <source>libtorch&apos;s oneDNN kernels do the bf16 matrix products; the float32 ones run on the optimized BLAS (%1).</source>
        <translation>bf16 矩阵乘法由 libtorch 的 oneDNN 内核完成；float32 矩阵乘法在优化的 BLAS（%1）上运行。</translation>
    </message>
    <message>
        <source>This libtorch has no oneDNN: bf16 matrix products use generic kernels while float32 ones use the optimized BLAS (%1).</source>
        <translation>此 libtorch 没有 oneDNN：bf16 矩阵乘法使用通用内核，而 float32 矩阵乘法使用优化的 BLAS（%1）。</translation>
    </message>
    <message>
        <source>The loss difference is bf16 rounding: 8 bits of mantissa instead of float32&apos;s 24.</source>
        <translation>损失的差异来自 bf16 的舍入：尾数只有 8 位，而 float32 有 24 位。</translation>
    </message>
    <message>
        <source>AMP A/B comparison</source>
        <translation>AMP A/B 对比</translation>
    </message>
    <message>
        <source>%1 steps with float32, then with AMP (%2), from seed %3</source>
        <translation>从种子 %3 开始，先用 float32、再用 AMP（%2）各训练 %1 步</translation>
    </message>
    <message>
        <source>bf16 autocast</source>
        <translation>bf16 autocast</translation>
    </message>
    <message>
        <source>fp16 autocast with loss scaling</source>
        <translation>带损失缩放的 fp16 autocast</translation>
    </message>
    <message>
        <source>float32</source>
        <translation>float32</translation>
    </message>
    <message>
        <source>AMP</source>
        <translation>AMP</translation>
    </message>
    <message>
        <source>Max |Δloss|:</source>
        <translation>最大 |Δ损失|：</translation>
    </message>
    <message>
        <source>Mean |Δloss|:</source>
        <translation>平均 |Δ损失|：</translation>
    </message>
    <message>
        <source>float32:</source>
        <translation>float32：</translation>
    </message>
    <message>
        <source>AMP:</source>
        <translation>AMP：</translation>
    </message>
    <message>
        <source>Speed-up:</source>
        <translation>加速比：</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n thread(s)</source>
        <translation>
            <numerusform>%1，%n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>this libtorch was built without CUDA</source>
        <translation>此 libtorch 构建时未启用 CUDA</translation>
    </message>
    <message>
        <source>no NVIDIA driver is loaded</source>
        <translation>未加载 NVIDIA 驱动</translation>
    </message>
    <message>
        <source>no CUDA device was found</source>
        <translation>未找到 CUDA 设备</translation>
    </message>
    <message>
        <source>CUDA is not available</source>
        <translation>CUDA 不可用</translation>
    </message>
    <message>
        <source>%1 MB</source>
        <translation>%1 MB</translation>
    </message>
    <message>
        <source>not available: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>CPU: bf16 autocast, native (%1)</source>
        <translation>CPU：bf16 autocast，原生支持（%1）</translation>
    </message>
    <message>
        <source>CPU: bf16 autocast, emulated (no avx512_bf16 or amx_bf16)</source>
        <translation>CPU：bf16 autocast，模拟执行（无 avx512_bf16 或 amx_bf16）</translation>
    </message>
    <message>
        <source>CUDA: fp16 autocast with loss scaling</source>
        <translation>CUDA：带损失缩放的 fp16 autocast</translation>
    </message>
    <message>
        <source>Native: the CPU multiplies bf16 numbers in hardware. Emulated: each bf16 multiply-accumulate is converted to float32 and back, so AMP saves memory traffic at best and may run slower than float32.</source>
        <translation>原生：CPU 以硬件执行 bf16 乘法。模拟：每次 bf16 乘加都要转换为 float32 再转回，因此 AMP 最多只能节省内存带宽，可能比 float32 更慢。</translation>
    </message>
    <message>
        <source>Resident memory: the RAM this process (the dashboard and its run) occupies now. On a CUDA device also the GPU memory held by tensors (allocated), kept by libtorch&apos;s caching allocator (reserved) and the device&apos;s total. Updated every second while a run is active.</source>
        <translation>常驻内存：本进程（仪表盘及其训练）当前占用的内存。在 CUDA 设备上还显示张量占用的显存（已分配）、libtorch 缓存分配器保留的显存（已保留）以及设备总显存。训练进行时每秒更新一次。</translation>
    </message>
    <message>
        <source>Memory:</source>
        <translation>内存：</translation>
    </message>
    <message>
        <source>cpu (auto uses the CPU: %1)</source>
        <translation>cpu（auto 使用 CPU：%1）</translation>
    </message>
    <message>
        <source>GPU: %1 allocated, %2 reserved of %3</source>
        <translation>GPU：已分配 %1，已保留 %2，共 %3</translation>
    </message>
    <message>
        <source>GPU: no figures (this build has no CUDA runtime, TRAINSCOPE_CUDA off)</source>
        <translation>GPU：无数据（此构建不含 CUDA 运行时，TRAINSCOPE_CUDA 关闭）</translation>
    </message>
    <message>
        <source>%1 resident</source>
        <translation>常驻 %1</translation>
    </message>
    <message>
        <source>unknown (/proc/self/statm unreadable)</source>
        <translation>未知（无法读取 /proc/self/statm）</translation>
    </message>
    <message>
        <source>Reproducibility and precision</source>
        <translation>可复现性与精度</translation>
    </message>
    <message>
        <source>Steps per run:</source>
        <translation>每次运行步数：</translation>
    </message>
    <message>
        <source>Optimizer steps each of the two runs of a check trains.</source>
        <translation>检查中两次运行各自训练的优化器步数。</translation>
    </message>
    <message>
        <source>&amp;Verify reproducibility</source>
        <translation>验证可复现性(&amp;V)</translation>
    </message>
    <message>
        <source>Trains the current settings twice from the same seed and compares every loss and the final weights bit for bit. With a fixed seed they should be identical.</source>
        <translation>用当前设置从同一种子训练两次，逐位比较每个损失和最终权重。固定种子时两者应完全相同。</translation>
    </message>
    <message>
        <source>AMP &amp;A/B</source>
        <translation>AMP &amp;A/B</translation>
    </message>
    <message>
        <source>Trains the current settings twice from the same seed, with float32 and with mixed precision (AMP), and compares the losses and the speed.</source>
        <translation>用当前设置从同一种子训练两次，分别使用 float32 和混合精度（AMP），比较损失和速度。</translation>
    </message>
    <message>
        <source>Available when no run is active: a check trains on the same cores.</source>
        <translation>没有进行中的训练时可用：检查会占用相同的 CPU 核心。</translation>
    </message>
    <message>
        <source>The check could not run</source>
        <translation>检查无法运行</translation>
    </message>
    <message>
        <source>The check could not run with the current settings.</source>
        <translation>无法用当前设置运行检查。</translation>
    </message>
    <message>
        <source>Reproducibility check</source>
        <translation>可复现性检查</translation>
    </message>
    <message>
        <source>Run %1 of 2</source>
        <translation>第 %1 次运行（共 2 次）</translation>
    </message>
    <message>
        <source>%1: step %2 of %3</source>
        <translation>%1：第 %2 步，共 %3 步</translation>
    </message>
    <message>
        <source>step</source>
        <translation>步</translation>
    </message>
    <message>
        <source>The seed is off: each run drew its own seed (%1 and %2), so the initial weights, the batch order and dropout differ. Turn on a fixed seed.</source>
        <translation>未固定种子：每次运行各自抽取了种子（%1 和 %2），因此初始权重、批次顺序和 dropout 都不同。请启用固定种子。</translation>
    </message>
    <message>
        <source>Deterministic algorithms are off (training.deterministic): some kernels may add up in a different order each time (atomics on CUDA, index_add, scatter).</source>
        <translation>确定性算法未开启（training.deterministic）：某些内核每次的求和顺序可能不同（CUDA 上的原子操作、index_add、scatter）。</translation>
    </message>
    <message>
        <source>AMP is on: reduced-precision kernels may choose different algorithms between runs. Compare with AMP off.</source>
        <translation>AMP 已开启：低精度内核在不同运行之间可能选择不同的算法。请关闭 AMP 再比较。</translation>
    </message>
    <message numerus="yes">
        <source>Both runs used %n threads: parallel floating-point sums can split the work differently. Compare with training.num_threads = 1.</source>
        <translation>
            <numerusform>两次运行都使用了 %n 个线程：并行浮点求和的分工可能不同。请设置 training.num_threads = 1 再比较。</numerusform>
        </translation>
    </message>
    <message>
        <source>Steps compared:</source>
        <translation>比较的步数：</translation>
    </message>
    <message>
        <source>%1 of %2 per run</source>
        <translation>每次运行 %1 / %2 步</translation>
    </message>
    <message>
        <source>Max |Δweight|:</source>
        <translation>最大 |Δ权重|：</translation>
    </message>
    <message>
        <source>Seeds:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>%1 and %2 (fixed)</source>
        <translation>%1 和 %2（固定）</translation>
    </message>
    <message>
        <source>%1 and %2 (drawn: the seed is off)</source>
        <translation>%1 和 %2（随机抽取：未固定种子）</translation>
    </message>
    <message>
        <source>on</source>
        <translation>开</translation>
    </message>
    <message>
        <source>off</source>
        <translation>关</translation>
    </message>
    <message numerus="yes">
        <source>%1, %n thread(s), AMP %2, deterministic algorithms %3</source>
        <translation>
            <numerusform>%1，%n 个线程，AMP %2，确定性算法 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>Likely causes:</source>
        <translation>可能的原因：</translation>
    </message>
    <message>
        <source>run 1</source>
        <translation>运行 1</translation>
    </message>
    <message>
        <source>run 2</source>
        <translation>运行 2</translation>
    </message>
    <message numerus="yes">
        <source>Bitwise identical: the %n step(s) of both runs had the same losses and ended with the same weights, bit for bit.</source>
        <translation>
            <numerusform>逐位相同：两次运行的 %n 步损失完全相同，最终权重也逐位相同。</numerusform>
        </translation>
    </message>
    <message>
        <source>Differs by %1 (max |Δloss| %2, max |Δweight| %3).</source>
        <translation>相差 %1（最大 |Δ损失| %2，最大 |Δ权重| %3）。</translation>
    </message>
    <message>
        <source>Samples per optimizer step: the batch size times the gradient accumulation steps (micro-batches whose gradients are added before one step).</source>
        <translation>每个优化器步的样本数：批大小乘以梯度累积步数（在一步之前累加梯度的微批次数）。</translation>
    </message>
    <message>
        <source>Batch per step:</source>
        <translation>每步批量：</translation>
    </message>
    <message>
        <source>%1 samples (%2 × %3 accumulated micro-batches)</source>
        <translation>%1 个样本（%2 × %3 个累积微批次）</translation>
    </message>
    <message>
        <source>%1 samples</source>
        <translation>%1 个样本</translation>
    </message>
    <message>
        <source>&amp;Mixed precision:</source>
        <translation>混合精度(&amp;M)：</translation>
    </message>
    <message>
        <source>Automatic mixed precision: the forward pass computes in bf16 on the CPU (fp16 with loss scaling on a CUDA GPU); weights, gradients and optimizer state stay float32. Can be switched while a run is running or paused: it applies from the next step.</source>
        <translation>自动混合精度：前向传播在 CPU 上以 bf16 计算（在 CUDA GPU 上以 fp16 并使用损失缩放）；权重、梯度和优化器状态仍为 float32。训练运行或暂停时也可切换：从下一步起生效。</translation>
    </message>
    <message>
        <source>Loss scale</source>
        <translation>损失缩放</translation>
    </message>
    <message>
        <source>Loss scale (GradScaler)</source>
        <translation>损失缩放系数（GradScaler）</translation>
    </message>
    <message>
        <source>Skipped step (inf/NaN gradient)</source>
        <translation>跳过的步（inf/NaN 梯度）</translation>
    </message>
    <message>
        <source>With AMP on a CUDA GPU, the GradScaler&apos;s loss scale and the steps it skips appear here.</source>
        <translation>在 CUDA GPU 上使用 AMP 时，GradScaler 的损失缩放系数和它跳过的步会显示在这里。</translation>
    </message>
    <message>
        <source>No loss scaling on the CPU: AMP computes in bf16 there, which has float32&apos;s exponent range, so small gradients do not underflow and no GradScaler is needed.</source>
        <translation>CPU 上没有损失缩放：AMP 在 CPU 上以 bf16 计算，其指数范围与 float32 相同，小梯度不会下溢，因此不需要 GradScaler。</translation>
    </message>
    <message>
        <source>AMP is off: no loss scale. Tick AMP to train in fp16 with loss scaling.</source>
        <translation>AMP 已关闭：没有损失缩放。勾选 AMP 即可用带损失缩放的 fp16 训练。</translation>
    </message>
    <message>
        <source>Waiting for the first step with AMP...</source>
        <translation>等待第一个 AMP 步……</translation>
    </message>
    <message>
        <source>AMP on</source>
        <translation>AMP 开</translation>
    </message>
    <message>
        <source>AMP off</source>
        <translation>AMP 关</translation>
    </message>
    <message>
        <source>Non-finite %1 (%2) at step %3.</source>
        <translation>第 %3 步的%1出现 NaN/Inf（非有限值，%2）。</translation>
    </message>
    <message>
        <source>The run diverged at epoch %1: the training loss (%2) is over 10,000 times the first epoch&apos;s although clipping is on (max norm %3). Lower the learning rate or max_norm.</source>
        <translation>训练在第 %1 轮发散：尽管梯度裁剪已开启（最大范数 %3），训练损失（%2）仍超过第一轮的 10000 倍。请降低学习率或 max_norm。</translation>
    </message>
    <message>
        <source>Overfitting since epoch %1 (seen at epoch %2): the validation loss has risen since then while the training loss falls.</source>
        <translation>自第 %1 轮起过拟合（在第 %2 轮发现）：此后验证损失上升，而训练损失仍在下降。</translation>
    </message>
    <message>
        <source>Diagnosis: %1</source>
        <translation>诊断：%1</translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>依据</translation>
    </message>
    <message>
        <source>What to check, most likely first</source>
        <translation>应检查的事项（最可能的在前）</translation>
    </message>
    <message>
        <source>Layers</source>
        <translation>各层</translation>
    </message>
    <message>
        <source>Diagnosis</source>
        <translation>诊断</translation>
    </message>
    <message>
        <source>Clipping was not changed: %1</source>
        <translation>梯度裁剪未更改：%1</translation>
    </message>
    <message>
        <source>Clipped: %1 % of the last 100 steps, %2 % of the run</source>
        <translation>已裁剪：最近 100 步的 %1 %，整个训练的 %2 %</translation>
    </message>
    <message>
        <source>Share of the steps whose gradients clipping scaled down, counted while clipping is on. A change of max_norm starts the last-100 window afresh.</source>
        <translation>梯度被裁剪缩小的步数占比，仅统计开启裁剪的步。更改 max_norm 后，“最近 100 步”重新开始计数。</translation>
    </message>
    <message>
        <source>Lower the learning rate 10× and continue</source>
        <translation>学习率降低 10 倍并继续</translation>
    </message>
    <message>
        <source>Go back to the newest snapshot before this step and continue with a learning rate 10 times lower.</source>
        <translation>回到此步之前最新的快照，并以降低 10 倍的学习率继续。</translation>
    </message>
    <message>
        <source>Turn clipping on and continue</source>
        <translation>开启梯度裁剪并继续</translation>
    </message>
    <message>
        <source>Go back to the newest snapshot before this step and continue with gradient clipping on (max norm as set).</source>
        <translation>回到此步之前最新的快照，并开启梯度裁剪（使用所设的最大范数）继续。</translation>
    </message>
    <message>
        <source>Continue anyway</source>
        <translation>仍然继续</translation>
    </message>
    <message>
        <source>Stop</source>
        <translation>停止</translation>
    </message>
    <message>
        <source>The run diverged at epoch %1 (step %2) and is paused.</source>
        <translation>训练在第 %1 轮（第 %2 步）发散，已暂停。</translation>
    </message>
    <message>
        <source>Non-finite %1 at step %2 (epoch %3): the run is paused, the weights are those before this step.</source>
        <translation>第 %2 步（第 %3 轮）的%1出现 NaN/Inf（非有限值）：训练已暂停，权重仍是此步之前的值。</translation>
    </message>
    <message>
        <source>Loss: %1</source>
        <translation>损失：%1</translation>
    </message>
    <message>
        <source>Total gradient norm: %1</source>
        <translation>总梯度范数：%1</translation>
    </message>
    <message>
        <source>Learning rate: %1</source>
        <translation>学习率：%1</translation>
    </message>
    <message>
        <source>First non-finite gradient in: %1</source>
        <translation>最先出现 NaN/Inf（非有限值）梯度的层：%1</translation>
    </message>
    <message>
        <source>Largest gradient in: %1</source>
        <translation>梯度最大的层：%1</translation>
    </message>
    <message>
        <source>Likely causes (most likely first):</source>
        <translation>可能的原因（最可能的在前）：</translation>
    </message>
    <message>
        <source>How big a step the optimizer takes on each batch. Too high and the loss jumps around or becomes NaN; too low and training crawls. Type values like 3e-4 or 0.001. It can be changed while a run trains or is paused.</source>
        <translation>优化器在每个批次上迈出的步子有多大。太大时损失会剧烈跳动甚至变成 NaN；太小时训练会非常缓慢。可以输入 3e-4 或 0.001 这样的数值。训练运行或暂停时也可以修改。</translation>
    </message>
    <message>
        <source>Find…</source>
        <translation>学习率范围测试…</translation>
    </message>
    <message>
        <source>Learning-rate range test: trains a copy of the model with the current settings while the learning rate grows from 1e-7 to 10, and suggests the learning rate where the loss falls fastest.</source>
        <translation>学习率范围测试：用当前设置训练模型的副本，同时学习率从 1e-7 增长到 10，并建议损失下降最快处的学习率。</translation>
    </message>
    <message>
        <source>best: epoch %1 (%2)</source>
        <translation>最佳：第 %1 轮（%2）</translation>
    </message>
    <message>
        <source>overfitting →</source>
        <translation>过拟合 →</translation>
    </message>
    <message>
        <source>early stop</source>
        <translation>提前停止</translation>
    </message>
    <message>
        <source>lr → %1</source>
        <translation>学习率 → %1</translation>
    </message>
    <message>
        <source>early stop at epoch %1 if no improvement</source>
        <translation>若无改善，将在第 %1 轮提前停止</translation>
    </message>
    <message>
        <source>Per step</source>
        <translation>每步</translation>
    </message>
    <message>
        <source>Smoothed</source>
        <translation>平滑</translation>
    </message>
    <message>
        <source>Clipped steps</source>
        <translation>被裁剪的步</translation>
    </message>
    <message>
        <source>Raw</source>
        <translation>原始</translation>
    </message>
    <message>
        <source>EMA</source>
        <translation>EMA</translation>
    </message>
    <message>
        <source>Window</source>
        <translation>滑动窗口</translation>
    </message>
    <message>
        <source>Smoothing of the per-step training loss (the raw values stay drawn faintly; with fewer than 4 steps per epoch there is nothing to smooth). EMA: exponential moving average with debiasing, as TensorBoard; the value is its weight (0 = none, 0.99 = strong). Window: the mean of the last N steps; it never lags behind more than N steps.</source>
        <translation>每步训练损失的平滑（原始值仍以浅色显示；每轮少于 4 步时无需平滑）。EMA：带偏差校正的指数移动平均，与 TensorBoard 相同；数值为其权重（0 = 不平滑，0.99 = 很强）。滑动窗口：最近 N 步的平均值；滞后从不超过 N 步。</translation>
    </message>
    <message>
        <source>Per-layer gradient norms and update ratios appear here during a run (training.layer_stats_every; 0 turns them off).</source>
        <translation>训练时这里显示各层的梯度范数和更新比例（training.layer_stats_every；设为 0 则关闭）。</translation>
    </message>
    <message>
        <source>Layer gradient norm</source>
        <translation>层梯度范数</translation>
    </message>
    <message>
        <source>Update / weight</source>
        <translation>更新量 / 权重</translation>
    </message>
    <message>
        <source>Accuracy</source>
        <translation>准确率</translation>
    </message>
    <message>
        <source>Training accuracy (epoch)</source>
        <translation>训练准确率（每轮）</translation>
    </message>
    <message>
        <source>Validation accuracy (epoch)</source>
        <translation>验证准确率（每轮）</translation>
    </message>
    <message>
        <source>Learning rate</source>
        <translation>学习率</translation>
    </message>
    <message>
        <source>Learning rate (per step)</source>
        <translation>学习率（每步）</translation>
    </message>
    <message>
        <source>suggested %1</source>
        <translation>建议 %1</translation>
    </message>
    <message>
        <source>Learning-rate range test</source>
        <translation>学习率范围测试</translation>
    </message>
    <message>
        <source>Learning rate (log scale)</source>
        <translation>学习率（对数刻度）</translation>
    </message>
    <message>
        <source>Training loss</source>
        <translation>训练损失</translation>
    </message>
    <message>
        <source>Loss per step</source>
        <translation>每步损失</translation>
    </message>
    <message>
        <source>Smoothed loss</source>
        <translation>平滑损失</translation>
    </message>
    <message>
        <source>Use this learning rate</source>
        <translation>使用此学习率</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <source>Training a copy of the model with the current settings while the learning rate grows from 1e-7 to 10 over 100 steps…</source>
        <translation>正在用当前设置训练模型的副本，学习率在 100 步内从 1e-7 增长到 10……</translation>
    </message>
    <message>
        <source>The range test failed: %1</source>
        <translation>范围测试失败：%1</translation>
    </message>
    <message>
        <source>Suggested learning rate: %1, where the smoothed loss falls fastest. Loss rises again where the learning rate is too large.</source>
        <translation>建议的学习率：%1，即平滑损失下降最快之处。学习率过大时损失会再次上升。</translation>
    </message>
    <message>
        <source>Too few steps for a suggestion.</source>
        <translation>步数太少，无法给出建议。</translation>
    </message>
    <message>
        <source>T-shirt/top</source>
        <translation>T恤/上衣</translation>
    </message>
    <message>
        <source>Trouser</source>
        <translation>裤子</translation>
    </message>
    <message>
        <source>Pullover</source>
        <translation>套头衫</translation>
    </message>
    <message>
        <source>Dress</source>
        <translation>连衣裙</translation>
    </message>
    <message>
        <source>Coat</source>
        <translation>外套</translation>
    </message>
    <message>
        <source>Sandal</source>
        <translation>凉鞋</translation>
    </message>
    <message>
        <source>Shirt</source>
        <translation>衬衫</translation>
    </message>
    <message>
        <source>Sneaker</source>
        <translation>运动鞋</translation>
    </message>
    <message>
        <source>Bag</source>
        <translation>包</translation>
    </message>
    <message>
        <source>Ankle boot</source>
        <translation>短靴</translation>
    </message>
    <message>
        <source>prediction (red) through the training points (filled); hollow: validation points; dashed: the true function</source>
        <translation>预测（红色）穿过训练点（实心）；空心：验证点；虚线：真实函数</translation>
    </message>
    <message>
        <source>decision regions (shading: probability of each class); filled points: training, hollow: validation</source>
        <translation>决策区域（阴影：各类别的概率）；实心点：训练，空心点：验证</translation>
    </message>
    <message>
        <source>%1 of %2 validation images classified wrongly (red frame)</source>
        <translation>%2 张验证图像中有 %1 张分类错误（红框）</translation>
    </message>
    <message>
        <source>After epoch %1: %2</source>
        <translation>第 %1 轮后：%2</translation>
    </message>
    <message>
        <source>What the model does appears here at the end of each epoch.</source>
        <translation>每轮结束时，这里显示模型的行为。</translation>
    </message>
    <message>
        <source>x₀</source>
        <translation>x₀</translation>
    </message>
    <message>
        <source>x</source>
        <translation>x</translation>
    </message>
    <message>
        <source>x₁</source>
        <translation>x₁</translation>
    </message>
    <message>
        <source>y</source>
        <translation>y</translation>
    </message>
    <message>
        <source>Training, class %1</source>
        <translation>训练，类别 %1</translation>
    </message>
    <message>
        <source>Training points</source>
        <translation>训练点</translation>
    </message>
    <message>
        <source>Validation, class %1</source>
        <translation>验证，类别 %1</translation>
    </message>
    <message>
        <source>Validation points</source>
        <translation>验证点</translation>
    </message>
    <message>
        <source>True function</source>
        <translation>真实函数</translation>
    </message>
    <message>
        <source>Prediction</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Accumulation:</source>
        <translation>梯度累积：</translation>
    </message>
    <message>
        <source> micro-batches</source>
        <translation> 个微批次</translation>
    </message>
    <message>
        <source>Gradient accumulation: the batch size&apos;s worth of samples is run this many times before one optimizer step, so the step sees batch size × this many samples with the memory of one batch. 4 × 32 trains like a batch of 128.</source>
        <translation>梯度累积：每个优化步之前，先按批次大小运行这么多次，因此一步看到“批次大小 × 次数”个样本，而内存只占一个批次。4 × 32 的训练效果与批次 128 相同。</translation>
    </message>
    <message>
        <source>Trained %1 · ETA %2</source>
        <translation>已训练 %1 · 预计剩余 %2</translation>
    </message>
    <message>
        <source>Training time so far (pauses and the speed limit&apos;s waiting not counted) and the time left at the current speed.</source>
        <translation>到目前为止的训练用时（不计暂停和速度限制的等待）以及按当前速度的剩余时间。</translation>
    </message>
    <message>
        <source>Before clipping</source>
        <translation>裁剪前</translation>
    </message>
    <message>
        <source>Used (after clipping)</source>
        <translation>实际使用（裁剪后）</translation>
    </message>
    <message>
        <source>max_norm %1</source>
        <translation>max_norm %1</translation>
    </message>
    <message>
        <source>max_norm (clipping now off)</source>
        <translation>max_norm（裁剪已关闭）</translation>
    </message>
    <message>
        <source>true: %1</source>
        <translation>真实：%1</translation>
    </message>
    <message>
        <source>Likely causes: %1</source>
        <translation>可能的原因：%1</translation>
    </message>
    <message>
        <source>The learning rate %1 is high for %2: try 10x lower.</source>
        <translation>学习率 %1 对 %2 来说偏高：试试降低 10 倍。</translation>
    </message>
    <message>
        <source>The learning rate %1 is perhaps too high for this model: try 10x lower.</source>
        <translation>学习率 %1 对这个模型可能过高：试试降低 10 倍。</translation>
    </message>
    <message>
        <source>Gradient clipping is off: turning it on bounds each update.</source>
        <translation>梯度裁剪已关闭：开启后每次更新的幅度都有上限。</translation>
    </message>
    <message>
        <source>Clipping is on (max norm %1) but cannot rescale an inf or nan gradient: the weights were already bad; roll back to an earlier snapshot.</source>
        <translation>梯度裁剪已开启（最大范数 %1），但无法缩放 inf 或 nan 梯度：权重此前已经损坏；请回滚到更早的快照。</translation>
    </message>
    <message>
        <source>Clipping is on (max norm %1), so the weights drifted over many steps: lower the learning rate or the max norm.</source>
        <translation>梯度裁剪已开启（最大范数 %1），所以权重是在许多步中逐渐偏离的：请降低学习率或最大范数。</translation>
    </message>
    <message>
        <source>The targets are scaled by %1: large targets give large losses and gradients.</source>
        <translation>目标值被放大了 %1 倍：目标值大，损失和梯度也大。</translation>
    </message>
    <message>
        <source>The inputs are not standardised.</source>
        <translation>输入没有标准化。</translation>
    </message>
    <message numerus="yes">
        <source>%n non-finite step(s), the first at step %1 (loss %2).</source>
        <translation>
            <numerusform>%n 步出现 NaN/Inf（非有限值），第一个在第 %1 步（损失 %2）。</numerusform>
        </translation>
    </message>
    <message>
        <source>The training loss reached %1, over %2x the initial loss %3 (mean of the first %4 steps).</source>
        <translation>训练损失达到 %1，超过初始损失 %3（前 %4 步的平均值）的 %2 倍。</translation>
    </message>
    <message>
        <source>A finite divergence was detected.</source>
        <translation>检测到有限值发散。</translation>
    </message>
    <message>
        <source>Initial loss %1 (mean of the first %2 steps).</source>
        <translation>初始损失 %1（前 %2 步的平均值）。</translation>
    </message>
    <message>
        <source>Validation loss %1 at epoch %2 (mean of the last %3 epochs: %4), up from its minimum %5 at epoch %6.</source>
        <translation>第 %2 轮的验证损失为 %1（最近 %3 轮的平均值：%4），高于第 %6 轮的最小值 %5。</translation>
    </message>
    <message>
        <source>Meanwhile the training loss fell from %1 to %2.</source>
        <translation>同期训练损失从 %1 降到了 %2。</translation>
    </message>
    <message>
        <source>Best epoch training loss %1 (%2% of the initial loss) after %3 epochs.</source>
        <translation>%3 轮后最好的一轮训练损失为 %1（初始损失的 %2%）。</translation>
    </message>
    <message>
        <source>Training loss %1 at epoch %2, %3 at epoch %4 (%5% better).</source>
        <translation>第 %2 轮训练损失 %1，第 %4 轮 %3（改善 %5%）。</translation>
    </message>
    <message>
        <source>Training loss %1 at epoch %2, validation loss %3.</source>
        <translation>第 %2 轮训练损失 %1，验证损失 %3。</translation>
    </message>
    <message>
        <source>Clipping cut %1% of the last %2 updates.</source>
        <translation>最近 %2 次更新中有 %1% 被裁剪。</translation>
    </message>
    <message>
        <source>Lower the learning rate 10x.</source>
        <translation>把学习率降低 10 倍。</translation>
    </message>
    <message>
        <source>Turn on gradient clipping.</source>
        <translation>开启梯度裁剪。</translation>
    </message>
    <message>
        <source>Lower the clipping max norm.</source>
        <translation>降低梯度裁剪的最大范数。</translation>
    </message>
    <message>
        <source>Standardise the inputs and bring the targets to a smaller scale.</source>
        <translation>把输入标准化，并把目标值缩小到较小的量级。</translation>
    </message>
    <message>
        <source>Check the weight initialisation.</source>
        <translation>检查权重初始化。</translation>
    </message>
    <message>
        <source>Keep the best epoch&apos;s checkpoint (checkpoints/best.pt) or stop earlier.</source>
        <translation>保留最好一轮的检查点（checkpoints/best.pt），或更早停止。</translation>
    </message>
    <message>
        <source>Add regularisation: weight decay or dropout.</source>
        <translation>加入正则化：权重衰减或 dropout。</translation>
    </message>
    <message>
        <source>Get more training data.</source>
        <translation>获取更多训练数据。</translation>
    </message>
    <message>
        <source>Use a smaller model.</source>
        <translation>使用更小的模型。</translation>
    </message>
    <message>
        <source>Clipping cuts nearly every update, so each step moves the weights by at most learning rate x max norm: raise the max norm, or bring the targets to a smaller scale.</source>
        <translation>几乎每次更新都被裁剪，所以每一步权重的变化最多为 学习率 × 最大范数：请提高最大范数，或把目标值缩小到较小的量级。</translation>
    </message>
    <message>
        <source>Raise the learning rate (it may be too small).</source>
        <translation>提高学习率（它可能太小了）。</translation>
    </message>
    <message>
        <source>Standardise the inputs.</source>
        <translation>把输入标准化。</translation>
    </message>
    <message>
        <source>Check that the labels are aligned with their inputs.</source>
        <translation>检查标签是否与其输入对应。</translation>
    </message>
    <message>
        <source>Check that the model can fit a tiny subset of the data.</source>
        <translation>检查模型能否拟合数据的一个很小的子集。</translation>
    </message>
    <message>
        <source>Lower the learning rate (a scheduler) to settle into the minimum.</source>
        <translation>降低学习率（使用调度器），让训练稳定到最小值。</translation>
    </message>
    <message>
        <source>Try another optimizer (Adam) or momentum.</source>
        <translation>换一个优化器（Adam）或使用动量。</translation>
    </message>
    <message>
        <source>Give the model more capacity (wider or more hidden layers).</source>
        <translation>增加模型容量（更宽或更多的隐藏层）。</translation>
    </message>
    <message>
        <source>Check for a bottleneck: saturated activations (sigmoid, tanh).</source>
        <translation>检查瓶颈：饱和的激活函数（sigmoid、tanh）。</translation>
    </message>
    <message>
        <source>Nothing urgent; watch the validation loss for overfitting.</source>
        <translation>没有紧急问题；留意验证损失，防止过拟合。</translation>
    </message>
    <message>
        <source>The loss grows without bound or is no longer a number: the updates are too large (exploding gradients).</source>
        <translation>损失无限增长或已不再是有效数值：更新幅度过大（梯度爆炸）。</translation>
    </message>
    <message>
        <source>The loss is flat from the start: the model is not learning.</source>
        <translation>损失从一开始就没有下降：模型没有在学习。</translation>
    </message>
    <message>
        <source>The loss fell, then stalled at a plateau.</source>
        <translation>损失下降后停滞在平台期。</translation>
    </message>
    <message>
        <source>The training loss falls while the validation loss rises.</source>
        <translation>训练损失在下降，而验证损失在上升。</translation>
    </message>
    <message>
        <source>The training loss falls and the validation loss follows.</source>
        <translation>训练损失在下降，验证损失也随之下降。</translation>
    </message>
    <message>
        <source>Too early to tell: fewer than 3 epochs.</source>
        <translation>现在判断还太早：不足 3 轮。</translation>
    </message>
    <message>
        <source>Every %1 steps, and at a non-finite step. Left: the gradient norm of each layer – the first line to leave the others is the layer that explodes first. Right: update / weight per layer; the green band (1e-4 to 1e-2, log10 -4 to -2) is the healthy range: above it the learning rate is too high for that layer, below it too low.</source>
        <translation>每 %1 步一次，出现 NaN/Inf（非有限值）的那一步也会记录。左：各层的梯度范数——最先脱离其他曲线的就是最先爆炸的层。右：各层的更新量 / 权重；绿色带（1e-4 到 1e-2，log10 为 -4 到 -2）是健康范围：高于它说明学习率对该层过高，低于它则过低。</translation>
    </message>
    <message>
        <source>Continue with the same settings: the run pauses again at the next step whose loss or gradient is NaN or Inf.</source>
        <translation>按原设置继续：下一次损失或梯度出现 NaN/Inf 时会再次暂停。</translation>
    </message>
    <message>
        <source>Keep going, skip bad steps</source>
        <translation>继续训练，跳过出错的步</translation>
    </message>
    <message>
        <source>Continue and skip every later step whose loss or gradient is NaN or Inf without pausing again (the weights stay those before the bad step; the skipped steps are marked on the plots). Sets &quot;When NaN/Inf&quot; in the settings to &quot;skip&quot;.</source>
        <translation>继续训练，之后凡是损失或梯度出现 NaN/Inf 的步都直接跳过，不再暂停（权重保持出错那一步之前的值；跳过的步会在图上标出）。同时把设置中的“出现 NaN/Inf 时”改为“跳过”。</translation>
    </message>
    <message>
        <source>checkpoint %1</source>
        <translation>检查点 %1</translation>
    </message>
    <message>
        <source>When NaN/Inf:</source>
        <translation>出现 NaN/Inf 时：</translation>
    </message>
    <message>
        <source>pause and show why</source>
        <translation>暂停并显示原因</translation>
    </message>
    <message>
        <source>stop the run</source>
        <translation>停止训练</translation>
    </message>
    <message>
        <source>skip the step, keep going</source>
        <translation>跳过该步，继续训练</translation>
    </message>
    <message>
        <source>What a step whose loss or gradient norm is NaN or Inf does (training.non_finite; a divergence too). Its update is never applied. Pause: the run waits and shows the evidence; stop: the run ends; skip: the step is left out and the run goes on. Can be changed while a run is running or paused: it applies from the next step.</source>
        <translation>某一步的损失或梯度范数出现 NaN/Inf（非有限值）时怎么办（training.non_finite；发散时同样适用）。这一步的更新永远不会生效。暂停：训练等待并显示证据；停止：训练结束；跳过：略过这一步，继续训练。训练进行中或暂停时也可以修改，从下一步起生效。</translation>
    </message>
    <message>
        <source>Early stopping:</source>
        <translation>提前停止：</translation>
    </message>
    <message>
        <source>Patience:</source>
        <translation>耐心轮数：</translation>
    </message>
    <message>
        <source> epochs</source>
        <translation> 轮</translation>
    </message>
    <message>
        <source>Epochs without an improvement of the validation loss before early stopping ends the run (training.early_stopping.patience). The overfitting watch uses it too.</source>
        <translation>验证损失连续多少轮没有改善就提前停止训练（training.early_stopping.patience）。过拟合监测也使用这个值。</translation>
    </message>
    <message>
        <source>Min. delta:</source>
        <translation>最小改善：</translation>
    </message>
    <message>
        <source>A fall of the validation loss by more than this counts as an improvement (training.early_stopping.min_delta; 0 = any fall).</source>
        <translation>验证损失下降超过这个值才算改善（training.early_stopping.min_delta；0 表示只要下降就算）。</translation>
    </message>
    <message>
        <source>%1
learning rate %2: %3</source>
        <translation>%1
学习率 %2：%3</translation>
    </message>
    <message>
        <source>Dashed: the previous run (%1), %2</source>
        <translation>虚线：上一次运行（%1），%2</translation>
    </message>
    <message>
        <source>Gradient norm, step %1:
before clipping %2 → after %3</source>
        <translation>梯度范数，第 %1 步：
裁剪前 %2 → 裁剪后 %3</translation>
    </message>
    <message>
        <source>Initial loss %1 (the first epoch&apos;s training loss: the checkpoint holds no initial loss).</source>
        <translation>初始损失 %1（第 1 轮的训练损失：检查点中没有保存初始损失）。</translation>
    </message>
    <message>
        <source>The training loss %1 (mean of the last %2 epochs) is over %3x the chance loss %4 (the variance of the targets: the loss of always predicting their mean).</source>
        <translation>训练损失 %1（最近 %2 轮的平均值）超过随机水平损失 %4 的 %3 倍（目标值的方差：始终预测其均值时的损失）。</translation>
    </message>
    <message>
        <source>The training loss %1 (mean of the last %2 epochs) is over %3x the chance loss %4 (ln of the number of classes: the loss of a constant, uniform prediction).</source>
        <translation>训练损失 %1（最近 %2 轮的平均值）超过随机水平损失 %4 的 %3 倍（类别数的自然对数：始终给出均匀预测时的损失）。</translation>
    </message>
    <message>
        <source>The validation accuracy %1% (mean of the last %2 epochs) is within %4 points of chance, %3% (the share of the largest class).</source>
        <translation>验证准确率 %1%（最近 %2 轮的平均值）与随机水平 %3%（最大类别所占比例）相差不到 %4 个百分点。</translation>
    </message>
    <message>
        <source>The validation loss %1 is not %3% below the chance loss %2 and has not improved for %4 epochs.</source>
        <translation>验证损失 %1 比随机水平损失 %2 低不到 %3%，且已有 %4 轮没有改善。</translation>
    </message>
    <message>
        <source>Check that the inputs and the labels are read in the same order (shuffling, sorting or filtering one without the other gives exactly this).</source>
        <translation>检查输入与标签是否按相同顺序读取（只对其中之一打乱、排序或筛选，就会出现这种情况）。</translation>
    </message>
    <message>
        <source>Accuracy and loss stay at chance: the labels carry no information the model can find. Check that the labels are aligned with their inputs.</source>
        <translation>准确率和损失一直停留在随机水平：标签中没有模型能找到的信息。请检查标签是否与输入一一对应。</translation>
    </message>
    <message>
        <source>the data carries no signal (labels misaligned?)</source>
        <translation>数据中没有可学习的信号（标签错位？）</translation>
    </message>
    <message>
        <source>too small to time</source>
        <translation>运行太短，无法计时</translation>
    </message>
    <message>
        <source>The run is too small to time: fewer than %1 steps could be timed (the first step of each epoch follows a validation and is not timed). Compare more steps or a larger dataset; the loss difference is still measured.</source>
        <translation>运行太短，无法计时：能计时的步数不足 %1 步（每轮的第一步紧跟在验证之后，不计时）。请比较更多的步数或使用更大的数据集；损失差异仍然照常测量。</translation>
    </message>
    <message>
        <source>A few dozen noisy samples of a sine and a large MLP: validation loss turns upward within seconds (overfitting).</source>
        <translation>几十个带噪声的正弦样本配一个大 MLP：几秒钟内验证损失就开始回升（过拟合）。</translation>
    </message>
    <message>
        <source>Two interleaving half circles (2-D, two classes) and a small MLP.</source>
        <translation>两个交错的半圆（二维，两类）配一个小 MLP。</translation>
    </message>
    <message>
        <source>Few noisy moons points and a big MLP: the decision boundary wraps around single noisy points while validation loss climbs. Watch the gap open and the model view; then set model.dropout 0.3, optimizer.weight_decay 1e-3 or more data.n_samples and restart.</source>
        <translation>少量带噪声的月牙数据配一个大 MLP：决策边界绕着个别噪声点打转，验证损失不断上升。观察差距如何拉开、模型视图如何变化；然后把 model.dropout 设为 0.3、optimizer.weight_decay 设为 1e-3，或增大 data.n_samples，再重新开始。</translation>
    </message>
    <message>
        <source>Two concentric noisy circles (2-D, two classes) and a small MLP.</source>
        <translation>两个同心的带噪声圆环（二维，两类）配一个小 MLP。</translation>
    </message>
    <message>
        <source>Two interleaved spirals (2-D, two classes): a harder boundary that needs a wider MLP and more epochs.</source>
        <translation>两条交错的螺旋线（二维，两类）：边界更难学，需要更宽的 MLP 和更多轮。</translation>
    </message>
    <message>
        <source>Fashion-MNIST (real 28x28 clothing images, 10 classes) with an MLP 784-256-128-10.</source>
        <translation>Fashion-MNIST（真实的 28x28 服装图像，10 类）配一个 784-256-128-10 的 MLP。</translation>
    </message>
    <message>
        <source>Exploding gradients: a sine regression with targets scaled x50 and SGD at lr 0.1. Without clipping the loss overflows within a few steps (watch the gradient norm climb and the non-finite marker); with training.clip.enabled=true (max_norm 1) it converges.</source>
        <translation>梯度爆炸：目标值放大 50 倍的正弦回归，使用学习率 0.1 的 SGD。不做梯度裁剪时，几步之内损失就会溢出（注意梯度范数如何攀升，以及 NaN/Inf 标记）；设置 training.clip.enabled=true（max_norm 1）后就能收敛。</translation>
    </message>
    <message>
        <source>Show a past run: choose its folder</source>
        <translation>查看以往的训练：选择它的文件夹</translation>
    </message>
    <message>
        <source>Show a past run</source>
        <translation>查看以往的训练</translation>
    </message>
    <message>
        <source>This folder cannot be shown as a run:
%1</source>
        <translation>这个文件夹无法作为一次训练显示：
%1</translation>
    </message>
    <message>
        <source>Show a &amp;past run...</source>
        <translation>查看以往的训练(&amp;P)...</translation>
    </message>
    <message>
        <source>Draw a finished run from its folder: its curves, events and diagnosis. Nothing is trained and no folder is created.</source>
        <translation>从训练文件夹中读出一次已结束的训练并画出来：曲线、事件和诊断。不会重新训练，也不会新建文件夹。</translation>
    </message>
    <message>
        <source>Show the finished run in the folder &lt;dir&gt;: its curves, events and diagnosis. Nothing is trained; with --screenshot, the picture is saved and TrainScope quits.</source>
        <translation>显示文件夹 &lt;dir&gt; 中已结束的训练：曲线、事件和诊断。不会训练；配合 --screenshot 时保存截图后退出 TrainScope。</translation>
    </message>
    <message>
        <source>--open-run shows a finished run: use it without --preset, --config, --checkpoint, --autostart and --quit-after-epochs.</source>
        <translation>--open-run 用于显示已结束的训练：不能与 --preset、--config、--checkpoint、--autostart 和 --quit-after-epochs 同时使用。</translation>
    </message>
    <message>
        <source>This run was read back from its folder, which keeps no picture of the model: it is drawn only while a run trains. Start a run to see it again.</source>
        <translation>这次训练是从它的文件夹读回来的，文件夹里没有保存模型的图像：模型图只在训练进行时绘制。重新开始训练即可再次看到。</translation>
    </message>
    <message>
        <source>--%1 needs a value, not an empty one.</source>
        <translation>--%1 需要一个值，不能为空。</translation>
    </message>
    <message>
        <source>Your own table, the way it works: a CSV of 300 flowers (4 measurements, species as text) written by the build; 3 outputs named by the species, a stratified split and the confusion matrix in the Evaluation tab.</source>
        <translation>用自己的表格训练的示范：构建时生成的 300 朵花的 CSV（4 个测量值，品种为文字）；输出层 3 个单元，以品种命名，分层划分验证集，“评估”页显示混淆矩阵。</translation>
    </message>
    <message>
        <source>Regression on a table: house prices (in 100k) from area, rooms, age, distance and the district, a text column one-hot encoded; the Evaluation tab plots predicted against true prices.</source>
        <translation>表格回归：由面积、房间数、房龄、距离和所在城区（文字列，独热编码）预测房价（单位：10 万）；“评估”页画出预测价格与真实价格的对比。</translation>
    </message>
    <message>
        <source>A folder of images per class (torchvision&apos;s ImageFolder layout): 6,000 Fashion-MNIST images written as PNG files by the build, with a test folder beside them.</source>
        <translation>按类别分文件夹的图像（torchvision 的 ImageFolder 结构）：构建时把 6,000 张 Fashion-MNIST 图像写成 PNG 文件，旁边另有测试集文件夹。</translation>
    </message>
    <message>
        <source>Evaluate...</source>
        <translation>评估...</translation>
    </message>
    <message>
        <source>Evaluate a saved checkpoint without training: loss, accuracy, confusion matrix, precision and recall per class.</source>
        <translation>不训练，直接评估一个已保存的检查点：损失、准确率、混淆矩阵，以及每个类别的精确率和召回率。</translation>
    </message>
    <message>
        <source>Evaluate checkpoint</source>
        <translation>评估检查点</translation>
    </message>
    <message>
        <source>Samples used:</source>
        <translation>使用样本数：</translation>
    </message>
    <message>
        <source>How many of the data&apos;s samples the run uses before the validation split (all: every one, e.g. Fashion-MNIST&apos;s 60,000).</source>
        <translation>本次训练在划分验证集之前使用多少个样本（全部：使用所有样本，例如 Fashion-MNIST 的 60,000 个）。</translation>
    </message>
    <message>
        <source>Train on your own data: a CSV table, a folder of images per class, NumPy arrays or IDX files. Shows what was read (samples, classes, warnings) before training.</source>
        <translation>用你自己的数据训练：CSV 表格、按类别分文件夹的图像、NumPy 数组或 IDX 文件。训练前会显示读到的内容（样本数、类别、警告）。</translation>
    </message>
    <message>
        <source>No picture of the model for this data: it is drawn for regression on one input, two classes on two inputs, and images. The Evaluation tab shows how the model does on the validation samples.</source>
        <translation>这份数据没有模型示意图：只有单输入回归、双输入二分类和图像数据才会绘制。模型在验证样本上的表现请看“评估”页。</translation>
    </message>
    <message numerus="yes">
        <source>true %1, predicted %2: %n sample(s) (%3 of the class)</source>
        <translation>
            <numerusform>真实 %1，预测为 %2：%n 个样本（占该类的 %3）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 on the %2 split: %3 samples, loss %4, accuracy %5. Rows: true class; columns: predicted class.</source>
        <translation>%1 在 %2 划分上：%3 个样本，损失 %4，准确率 %5。行：真实类别；列：预测类别。</translation>
    </message>
    <message>
        <source>%1 on the %2 split: %3 samples, mean squared error %4.</source>
        <translation>%1 在 %2 划分上：%3 个样本，均方误差 %4。</translation>
    </message>
    <message>
        <source>Class</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Samples</source>
        <translation>样本数</translation>
    </message>
    <message>
        <source>Predicted</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>Precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>Sample</source>
        <translation>样本</translation>
    </message>
    <message>
        <source>True</source>
        <translation>真实</translation>
    </message>
    <message>
        <source>P(true)</source>
        <translation>P(真实)</translation>
    </message>
    <message>
        <source>After each epoch this tab shows how the model does on the validation samples: for classes a confusion matrix and the samples it gets most wrong, for numbers its predictions against the true values.</source>
        <translation>每轮训练结束后，这里显示模型在验证样本上的表现：分类任务给出混淆矩阵和错得最厉害的样本，回归任务给出预测值与真实值的对比。</translation>
    </message>
    <message>
        <source>true value</source>
        <translation>真实值</translation>
    </message>
    <message>
        <source>predicted value</source>
        <translation>预测值</translation>
    </message>
    <message>
        <source>Validation after epoch %1: predicted against true value of %2 samples (first output); on the dashed line the prediction is exact. R² = %3.</source>
        <translation>第 %1 轮后的验证结果：%2 个样本的预测值与真实值（第一个输出）；落在虚线上表示预测完全准确。R² = %3。</translation>
    </message>
    <message>
        <source>Sine curve (built-in, regression)</source>
        <translation>正弦曲线（内置，回归）</translation>
    </message>
    <message>
        <source>Two moons (built-in, 2 classes)</source>
        <translation>双月牙（内置，2 类）</translation>
    </message>
    <message>
        <source>Two circles (built-in, 2 classes)</source>
        <translation>同心双圆（内置，2 类）</translation>
    </message>
    <message>
        <source>Two spirals (built-in, 2 classes)</source>
        <translation>双螺旋（内置，2 类）</translation>
    </message>
    <message>
        <source>Fashion-MNIST clothing images</source>
        <translation>Fashion-MNIST 服饰图像</translation>
    </message>
    <message>
        <source>CSV table</source>
        <translation>CSV 表格</translation>
    </message>
    <message>
        <source>Image folder (one folder per class)</source>
        <translation>图像文件夹（每类一个子文件夹）</translation>
    </message>
    <message>
        <source>NumPy arrays (.npz or .npy)</source>
        <translation>NumPy 数组（.npz 或 .npy）</translation>
    </message>
    <message>
        <source>IDX files (MNIST format)</source>
        <translation>IDX 文件（MNIST 格式）</translation>
    </message>
    <message>
        <source>Choose the data folder</source>
        <translation>选择数据文件夹</translation>
    </message>
    <message>
        <source>Tables (*.csv *.tsv *.txt)</source>
        <translation>表格 (*.csv *.tsv *.txt)</translation>
    </message>
    <message>
        <source>NumPy files (*.npz *.npy)</source>
        <translation>NumPy 文件 (*.npz *.npy)</translation>
    </message>
    <message>
        <source>IDX files (*-ubyte *-ubyte.gz *.idx *.gz)</source>
        <translation>IDX 文件 (*-ubyte *-ubyte.gz *.idx *.gz)</translation>
    </message>
    <message>
        <source>Choose the data file</source>
        <translation>选择数据文件</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>所有文件 (*)</translation>
    </message>
    <message>
        <source>the last column</source>
        <translation>最后一列</translation>
    </message>
    <message>
        <source>Check data</source>
        <translation>检查数据</translation>
    </message>
    <message>
        <source>Checking…</source>
        <translation>正在检查…</translation>
    </message>
    <message>
        <source>This data cannot be used:</source>
        <translation>这份数据无法使用：</translation>
    </message>
    <message>
        <source>The settings keep the previous data.</source>
        <translation>设置仍保留之前的数据。</translation>
    </message>
    <message>
        <source>%1 training, %2 validation, %3 test samples</source>
        <translation>训练样本 %1 个，验证样本 %2 个，测试样本 %3 个</translation>
    </message>
    <message>
        <source>Read from: %1</source>
        <translation>读取自：%1</translation>
    </message>
    <message>
        <source>Input shape per sample: [%1], stored as %2</source>
        <translation>每个样本的输入形状：[%1]，存储类型 %2</translation>
    </message>
    <message>
        <source>Task: classification into %1 classes (cross-entropy loss)</source>
        <translation>任务：分类，共 %1 类（交叉熵损失）</translation>
    </message>
    <message>
        <source>Task: regression of %1 value(s) (mean squared error)</source>
        <translation>任务：回归，预测 %1 个值（均方误差）</translation>
    </message>
    <message>
        <source>Standardisation: %1 (statistics of the training split)</source>
        <translation>标准化：%1（使用训练集的统计量）</translation>
    </message>
    <message>
        <source>Memory: %1 MB</source>
        <translation>内存：%1 MB</translation>
    </message>
    <message>
        <source>train</source>
        <translation>训练</translation>
    </message>
    <message>
        <source>val</source>
        <translation>验证</translation>
    </message>
    <message>
        <source>test</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>The first training rows, as the file holds them:</source>
        <translation>训练集的前几行（文件中的原始值）：</translation>
    </message>
    <message>
        <source>target</source>
        <translation>目标</translation>
    </message>
    <message>
        <source>The first images of each class:</source>
        <translation>每个类别的前几张图像：</translation>
    </message>
    <message>
        <source>Data</source>
        <translation>数据</translation>
    </message>
    <message>
        <source>Folder:</source>
        <translation>文件夹：</translation>
    </message>
    <message>
        <source>File:</source>
        <translation>文件：</translation>
    </message>
    <message>
        <source>Labels file:</source>
        <translation>标签文件：</translation>
    </message>
    <message>
        <source>Targets file (.npy):</source>
        <translation>目标值文件（.npy）：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>Target column:</source>
        <translation>目标列：</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>automatic (from the target&apos;s values)</source>
        <translation>自动（根据目标列的取值判断）</translation>
    </message>
    <message>
        <source>Colour:</source>
        <translation>颜色：</translation>
    </message>
    <message>
        <source>grayscale (1 channel)</source>
        <translation>灰度（1 个通道）</translation>
    </message>
    <message>
        <source>RGB (3 channels)</source>
        <translation>RGB（3 个通道）</translation>
    </message>
    <message>
        <source>Resize to (height, width):</source>
        <translation>缩放到（高，宽）：</translation>
    </message>
    <message>
        <source>first image&apos;s</source>
        <translation>与第一张图相同</translation>
    </message>
    <message>
        <source>Stratified split (each class keeps the validation fraction)</source>
        <translation>分层划分（每个类别按同一比例留出验证集）</translation>
    </message>
    <message>
        <source>One row per sample with a header row; the target column holds the class names or the numbers to predict. Every other column is a feature.</source>
        <translation>每行一个样本，第一行为表头；目标列是类别名称或要预测的数值，其余各列都是特征。</translation>
    </message>
    <message>
        <source>A folder with one subfolder per class holding its images (PNG, JPEG, BMP), or train/, val/ and test/ folders each laid out so.</source>
        <translation>一个文件夹，每个类别一个子文件夹，里面放该类的图像（PNG、JPEG、BMP）；也可以是按同样方式组织的 train/、val/ 和 test/ 文件夹。</translation>
    </message>
    <message>
        <source>An .npz file with arrays x and y (and x_val, y_val, x_test, y_test), or an .npy file of inputs with an .npy file of targets.</source>
        <translation>一个包含数组 x 和 y（以及 x_val、y_val、x_test、y_test）的 .npz 文件，或者一个输入的 .npy 文件加一个目标值的 .npy 文件。</translation>
    </message>
    <message>
        <source>An IDX file of inputs and one of labels, as MNIST, KMNIST or EMNIST ship them (plain or .gz).</source>
        <translation>一个输入的 IDX 文件和一个标签的 IDX 文件，与 MNIST、KMNIST、EMNIST 的发布格式相同（可为 .gz 压缩）。</translation>
    </message>
    <message>
        <source>Built-in data: nothing to choose.</source>
        <translation>内置数据：无需选择文件。</translation>
    </message>
    <message>
        <source>Choose the data, then click &quot;Check data&quot; to see what training will get: samples, classes, warnings.</source>
        <translation>先选择数据，再点击“检查数据”，查看训练将得到什么：样本数、类别、警告。</translation>
    </message>
    <message>
        <source>Evaluate %1</source>
        <translation>评估 %1</translation>
    </message>
    <message>
        <source>Split:</source>
        <translation>数据集划分：</translation>
    </message>
    <message>
        <source>validation</source>
        <translation>验证集</translation>
    </message>
    <message>
        <source>training</source>
        <translation>训练集</translation>
    </message>
    <message>
        <source>Evaluate</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>Evaluating %1 on the %2 split…</source>
        <translation>正在用%2评估 %1…</translation>
    </message>
    <message>
        <source>Cannot evaluate: %1</source>
        <translation>无法评估：%1</translation>
    </message>
    <message>
        <source>Evaluation</source>
        <translation>评估</translation>
    </message>
    <message>
        <source>D&amp;ata…</source>
        <translation>数据(&amp;A)…</translation>
    </message>
    <message>
        <source>Data of the next run: %1</source>
        <translation>下一次训练使用的数据：%1</translation>
    </message>
    <message>
        <source>predicted class →</source>
        <translation>预测类别 →</translation>
    </message>
    <message>
        <source>true class ↓</source>
        <translation>真实类别 ↓</translation>
    </message>
    <message>
        <source>Sample %1: true %2, predicted %3; the model gives the true class p = %4 (loss %5)</source>
        <translation>样本 %1：真实 %2，预测为 %3；模型给真实类别的概率 p = %4（损失 %5）</translation>
    </message>
    <message numerus="yes">
        <source>Class &quot;%1&quot; has only %n training sample(s): the model can hardly learn it.</source>
        <translation>
            <numerusform>类别“%1”只有 %n 个训练样本：模型很难学会它。</numerusform>
        </translation>
    </message>
    <message>
        <source>Class &quot;%1&quot; has no validation sample: its errors go unmeasured.</source>
        <translation>类别“%1”没有验证样本：它的错误无法被衡量。</translation>
    </message>
    <message>
        <source>The classes are imbalanced %1:1 (largest / smallest training class): accuracy favours the largest.</source>
        <translation>类别不平衡，比例 %1:1（最大类 / 最小类的训练样本数）：准确率会偏向最大的类别。</translation>
    </message>
    <message numerus="yes">
        <source>%n training sample(s) repeat an earlier one (same inputs and target).</source>
        <translation>
            <numerusform>%n 个训练样本与前面的样本重复（输入和目标都相同）。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n validation sample(s) also occur in the training split: validation loss is then too optimistic.</source>
        <translation>
            <numerusform>%n 个验证样本也出现在训练集中：验证损失因此会过于乐观。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n feature(s) constant in the training split (%1): they carry nothing.</source>
        <translation>
            <numerusform>%n 个特征在训练集中是常数（%1）：它们不含任何信息。</numerusform>
        </translation>
    </message>
    <message>
        <source>Memory: %1 kB</source>
        <translation>内存：%1 kB</translation>
    </message>
    <message>
        <source>Fashion-MNIST with a small CNN: two conv blocks (Conv2d 3x3 with 32 and 64 channels, BatchNorm2d, ReLU, MaxPool2d(2)) and a linear output, Adam with the learning rate x0.3 after epoch 1 (StepLR); above 0.90 validation accuracy in 2 epochs, where the MLP stays below.</source>
        <translation>Fashion-MNIST 配一个小型卷积网络（CNN）：两个卷积块（3x3 的 Conv2d，32 和 64 个通道，BatchNorm2d、ReLU、MaxPool2d(2)）和一个线性输出层；优化器 Adam，第 1 个 epoch 之后学习率乘以 0.3（StepLR）；2 个 epoch 内验证准确率超过 0.90，而 MLP 达不到。</translation>
    </message>
    <message>
        <source>Class &quot;%1&quot; has no training sample: the model cannot learn it.</source>
        <translation>类别“%1”没有训练样本：模型无法学习它。</translation>
    </message>
    <message>
        <source>Predictions</source>
        <translation>预测</translation>
    </message>
    <message>
        <source>First layer</source>
        <translation>第一层</translation>
    </message>
    <message>
        <source>The first convolution layer: above, each filter&apos;s weights (the mean over the input channels; RGB for colour images), each scaled from its lowest weight (black) to its highest (white); below, what each filter gives for the first image of the Predictions page after batch norm and the activation, before pooling (white: the strongest response).</source>
        <translation>第一个卷积层：上方是每个卷积核的权重（对输入通道取平均；彩色图像按 RGB 显示），各自从最小权重（黑）缩放到最大权重（白）；下方是“预测”页第一张图像经过每个卷积核、批归一化和激活函数之后（池化之前）的输出（白：响应最强）。</translation>
    </message>
    <message>
        <source>%1 filters %2x%3 (bright: large weight)</source>
        <translation>%1 个 %2x%3 卷积核（亮：权重大）</translation>
    </message>
    <message>
        <source>Feature maps of the first image (bright: strong)</source>
        <translation>第一张图像的特征图（亮：响应强）</translation>
    </message>
    <message>
        <source>The validation loss %1 (mean of the last %2 epochs) is over %3x the chance loss %4 (ln of the number of classes), and the training loss %5 is above chance too: confident wrong answers.</source>
        <translation>验证损失 %1（最近 %2 轮的平均值）超过随机水平损失 %4（类别数的自然对数）的 %3 倍，训练损失 %5 也高于随机水平：模型在自信地给出错误答案。</translation>
    </message>
    <message>
        <source>Check s&amp;hapes...</source>
        <translation>检查形状(&amp;H)...</translation>
    </message>
    <message>
        <source>Shape first: run one batch of the data through the model before training and show every layer&apos;s output shape and parameters; a model that does not fit the data is named with both shapes.</source>
        <translation>形状优先：训练前让一个数据批次通过模型，显示每一层的输出形状和参数量；模型与数据不匹配时，同时指出两边的形状。</translation>
    </message>
    <message>
        <source>%1 %2 on %3, values %4 .. %5</source>
        <translation>%1 %2，位于 %3，取值 %4 .. %5</translation>
    </message>
    <message>
        <source>Shapes of %1</source>
        <translation>%1 的形状</translation>
    </message>
    <message>
        <source>Running one batch through the model…</source>
        <translation>正在让一个批次通过模型……</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>名称</translation>
    </message>
    <message>
        <source>Layer</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Output (batch first)</source>
        <translation>输出（第一维是批次）</translation>
    </message>
    <message>
        <source>Parameters</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>The model does not fit the data: %1</source>
        <translation>模型与数据不匹配：%1</translation>
    </message>
    <message>
        <source>Data: %1 training / %2 validation / %3 test samples, %4 outputs.</source>
        <translation>数据：训练 %1 / 验证 %2 / 测试 %3 个样本，%4 个输出。</translation>
    </message>
    <message>
        <source>Images %1 (C, H, W).</source>
        <translation>图像 %1（C, H, W）。</translation>
    </message>
    <message>
        <source>Batch x: %1</source>
        <translation>批次 x：%1</translation>
    </message>
    <message>
        <source>Batch y: %1</source>
        <translation>批次 y：%1</translation>
    </message>
    <message>
        <source>%1 (+%2 frozen)</source>
        <translation>%1（另有 %2 个冻结）</translation>
    </message>
    <message>
        <source>Output: %1. The model takes the data&apos;s batches and gives one row of %2 per sample; %3 trainable parameters.</source>
        <translation>输出：%1。模型接受数据的批次，每个样本给出一行 %2 个值；可训练参数 %3 个。</translation>
    </message>
    <message>
        <source>Conv channels:</source>
        <translation>卷积通道：</translation>
    </message>
    <message>
        <source>Output channels of each convolution block (model.cnn.channels), e.g. 32, 64: one block per number. More channels see more patterns, and cost more time.</source>
        <translation>每个卷积块的输出通道数（model.cnn.channels），例如 32, 64：每个数字对应一个卷积块。通道越多，能识别的图案越多，也越耗时。</translation>
    </message>
    <message>
        <source>Use a &amp;TorchScript model...</source>
        <translation>使用 &amp;TorchScript 模型...</translation>
    </message>
    <message>
        <source>Train your own PyTorch module: a file saved in Python with torch.jit.script(model).save(...). Shows what it holds and runs one batch of the data through it first.</source>
        <translation>训练你自己的 PyTorch 模块：在 Python 中用 torch.jit.script(model).save(...) 保存的文件。先显示文件里有什么，并用一批数据试运行一次。</translation>
    </message>
    <message>
        <source>Exploding gradients in a recurrent net: a plain tanh RNN (nn.RNN, 64 units) predicting the next value of a noisy sine from the last 100, SGD at lr 0.5. Without clipping the gradient norm climbs from about 1 to thousands within a few steps and the loss overflows; with training.clip.enabled=true (max_norm 1) the same run trains steadily. The reason the seeds clip the gradients of RNNs.</source>
        <translation>循环网络中的梯度爆炸：一个普通的 tanh RNN（nn.RNN，64 个单元）根据前 100 个值预测带噪正弦波的下一个值，SGD 学习率 0.5。不裁剪时，梯度范数在几步之内从约 1 涨到数千，损失溢出；打开 training.clip.enabled=true（max_norm 1）后，同样的训练平稳进行。这正是训练 RNN 时要做梯度裁剪的原因。</translation>
    </message>
    <message>
        <source>Recurrent layers:</source>
        <translation>循环层：</translation>
    </message>
    <message>
        <source>Hidden size of each stacked recurrent layer (model.rnn.hidden_size and num_layers), e.g. 64, 64: two layers of 64. The layers share one size, the first number.</source>
        <translation>每个堆叠循环层的隐藏维度（model.rnn.hidden_size 和 num_layers），例如 64, 64：两层，每层 64。各层共用同一个维度，即第一个数字。</translation>
    </message>
    <message>
        <source>The TorchScript file fixes the layers: change them in Python and script the model again.</source>
        <translation>网络层由 TorchScript 文件决定：请在 Python 中修改后重新 script 模型。</translation>
    </message>
    <message>
        <source>set by the TorchScript file</source>
        <translation>由 TorchScript 文件决定</translation>
    </message>
    <message>
        <source>Use a TorchScript model</source>
        <translation>使用 TorchScript 模型</translation>
    </message>
    <message>
        <source>TorchScript files (*.pt *.pth *.ts);;All files (*)</source>
        <translation>TorchScript 文件 (*.pt *.pth *.ts);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;: TorchScript made by %2 (class %3), saved in %4 mode.</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：由 %2 生成的 TorchScript（类 %3），保存时处于%4模式。</translation>
    </message>
    <message>
        <source>eval</source>
        <translation>评估（eval）</translation>
    </message>
    <message>
        <source>%1 trainable and %2 frozen parameters in %3 tensors, %4 buffers, %5 submodules; %6.</source>
        <translation>%3 个张量中共有 %1 个可训练参数、%2 个冻结参数，%4 个缓冲区，%5 个子模块；%6。</translation>
    </message>
    <message>
        <source>Parameters: %1</source>
        <translation>参数：%1</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>警告：%1</translation>
    </message>
    <message>
        <source>Use this model</source>
        <translation>使用这个模型</translation>
    </message>
    <message>
        <source>This file cannot be trained: %1</source>
        <translation>这个文件无法训练：%1</translation>
    </message>
    <message>
        <source>R&amp;uns...</source>
        <translation>运行记录(&amp;U)...</translation>
    </message>
    <message>
        <source>Every run in the runs folder in one table: status, settings, best and final metrics, anomalies, notes. Sort, filter, compare settings, show a run.</source>
        <translation>把运行文件夹中的每次运行列在一张表里：状态、设置、最佳与最终指标、异常、备注。可排序、筛选、比较设置、查看某次运行。</translation>
    </message>
    <message>
        <source>Started</source>
        <translation>开始时间</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Optimizer</source>
        <translation>优化器</translation>
    </message>
    <message>
        <source>Batch size</source>
        <translation>批大小</translation>
    </message>
    <message>
        <source>Seed</source>
        <translation>随机种子</translation>
    </message>
    <message>
        <source>Epochs</source>
        <translation>轮数</translation>
    </message>
    <message>
        <source>Epochs done</source>
        <translation>已完成轮数</translation>
    </message>
    <message>
        <source>Best val loss</source>
        <translation>最佳验证损失</translation>
    </message>
    <message>
        <source>Best epoch</source>
        <translation>最佳轮</translation>
    </message>
    <message>
        <source>Final val loss</source>
        <translation>最终验证损失</translation>
    </message>
    <message>
        <source>Final train loss</source>
        <translation>最终训练损失</translation>
    </message>
    <message>
        <source>Best val accuracy</source>
        <translation>最佳验证准确率</translation>
    </message>
    <message>
        <source>Final val accuracy</source>
        <translation>最终验证准确率</translation>
    </message>
    <message>
        <source>Test loss</source>
        <translation>测试损失</translation>
    </message>
    <message>
        <source>Test accuracy</source>
        <translation>测试准确率</translation>
    </message>
    <message>
        <source>Anomalies</source>
        <translation>异常</translation>
    </message>
    <message>
        <source>Threads</source>
        <translation>线程数</translation>
    </message>
    <message>
        <source>Ranks</source>
        <translation>进程数（rank）</translation>
    </message>
    <message>
        <source>Duration (s)</source>
        <translation>用时（秒）</translation>
    </message>
    <message>
        <source>TrainScope version</source>
        <translation>TrainScope 版本</translation>
    </message>
    <message>
        <source>libtorch version</source>
        <translation>libtorch 版本</translation>
    </message>
    <message>
        <source>Notes</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Reason</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Folder</source>
        <translation>文件夹</translation>
    </message>
    <message>
        <source>running</source>
        <translation>运行中</translation>
    </message>
    <message>
        <source>stopped</source>
        <translation>已停止</translation>
    </message>
    <message>
        <source>diverged</source>
        <translation>已发散</translation>
    </message>
    <message>
        <source>crashed</source>
        <translation>已崩溃</translation>
    </message>
    <message>
        <source>incomplete</source>
        <translation>文件不完整</translation>
    </message>
    <message>
        <source>not a run</source>
        <translation>不是运行文件夹</translation>
    </message>
    <message>
        <source>Add a folder of runs</source>
        <translation>添加运行文件夹</translation>
    </message>
    <message>
        <source>Runs</source>
        <translation>运行记录</translation>
    </message>
    <message>
        <source>Add folder...</source>
        <translation>添加文件夹...</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>重新读取</translation>
    </message>
    <message>
        <source>Filter: text in any column, or key=text (status=diverged, optimizer.name=sgd)</source>
        <translation>筛选：任意列中的文字，或 键=文字（status=diverged、optimizer.name=sgd）</translation>
    </message>
    <message>
        <source>Columns</source>
        <translation>列</translation>
    </message>
    <message>
        <source>Settings that differ among the selected runs</source>
        <translation>所选运行之间不同的设置</translation>
    </message>
    <message>
        <source>Notes on the selected run</source>
        <translation>所选运行的备注</translation>
    </message>
    <message>
        <source>Tags, separated by commas</source>
        <translation>标签，用逗号分隔</translation>
    </message>
    <message>
        <source>Save notes</source>
        <translation>保存备注</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>查看</translation>
    </message>
    <message>
        <source>Show the run in the training view from its files (no folder is created).</source>
        <translation>根据文件在训练视图中显示这次运行（不会新建文件夹）。</translation>
    </message>
    <message>
        <source>Continue</source>
        <translation>继续训练</translation>
    </message>
    <message>
        <source>Continue the run from its last checkpoint (checkpoints/last.pt) in a new run.</source>
        <translation>从最后一个检查点（checkpoints/last.pt）继续，作为一次新的运行。</translation>
    </message>
    <message>
        <source>Run again</source>
        <translation>再运行一次</translation>
    </message>
    <message>
        <source>Load the run&apos;s settings (config.json, seed included) to run it again.</source>
        <translation>载入这次运行的设置（config.json，包括随机种子），以便再运行一次。</translation>
    </message>
    <message>
        <source>Rename...</source>
        <translation>重命名...</translation>
    </message>
    <message>
        <source>Move to trash...</source>
        <translation>移到回收站...</translation>
    </message>
    <message>
        <source>Move the run folder into the trash folder inside the runs folder.</source>
        <translation>把这次运行的文件夹移到运行文件夹中的 trash 文件夹。</translation>
    </message>
    <message>
        <source>%1 (does not exist yet)</source>
        <translation>%1（尚不存在）</translation>
    </message>
    <message>
        <source>Runs in: %1</source>
        <translation>运行文件夹：%1</translation>
    </message>
    <message>
        <source>Select two or more runs to see the settings that differ</source>
        <translation>选择两次或更多运行，查看不同的设置</translation>
    </message>
    <message>
        <source>Settings that differ among the %1 selected runs</source>
        <translation>所选 %1 次运行之间不同的设置</translation>
    </message>
    <message>
        <source>Setting</source>
        <translation>设置项</translation>
    </message>
    <message>
        <source>The notes were not saved:
%1</source>
        <translation>备注未保存：
%1</translation>
    </message>
    <message>
        <source>Rename run</source>
        <translation>重命名运行</translation>
    </message>
    <message>
        <source>New folder name:</source>
        <translation>新文件夹名：</translation>
    </message>
    <message>
        <source>A folder name cannot contain &apos;/&apos; or start with &apos;.&apos;.</source>
        <translation>文件夹名不能包含“/”，也不能以“.”开头。</translation>
    </message>
    <message>
        <source>%1 was not renamed: %2</source>
        <translation>%1 未能重命名：%2</translation>
    </message>
    <message>
        <source>Move to trash</source>
        <translation>移到回收站</translation>
    </message>
    <message>
        <source>Move the run %1 into %2?
Its files are kept there until you delete them.</source>
        <translation>把运行 %1 移到 %2？
文件会保留在那里，直到您自己删除。</translation>
    </message>
    <message>
        <source>Stop the current run before showing another.</source>
        <translation>请先停止当前运行，再查看其他运行。</translation>
    </message>
    <message>
        <source>Stop the current run before loading other settings.</source>
        <translation>请先停止当前运行，再载入其他设置。</translation>
    </message>
    <message>
        <source>Compare curves</source>
        <translation>对比曲线</translation>
    </message>
    <message>
        <source>Draw the curves of the 2 to 10 selected runs on one plot, one of them the baseline.</source>
        <translation>把选中的 2 到 10 次运行的曲线画在同一张图上，其中一次作为基准。</translation>
    </message>
    <message>
        <source>training loss (epoch mean)</source>
        <translation>训练损失（每轮平均）</translation>
    </message>
    <message>
        <source>validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>training accuracy</source>
        <translation>训练准确率</translation>
    </message>
    <message>
        <source>learning rate (per epoch)</source>
        <translation>学习率（每轮）</translation>
    </message>
    <message>
        <source>samples per second</source>
        <translation>每秒样本数</translation>
    </message>
    <message>
        <source>training loss (per step)</source>
        <translation>训练损失（每步）</translation>
    </message>
    <message>
        <source>gradient norm (per step)</source>
        <translation>梯度范数（每步）</translation>
    </message>
    <message>
        <source>clipped gradient norm (per step)</source>
        <translation>裁剪后的梯度范数（每步）</translation>
    </message>
    <message>
        <source>learning rate (per step)</source>
        <translation>学习率（每步）</translation>
    </message>
    <message>
        <source>epoch</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>samples seen</source>
        <translation>已见样本数</translation>
    </message>
    <message>
        <source>training time (s)</source>
        <translation>训练时间（秒）</translation>
    </message>
    <message>
        <source>Compare runs</source>
        <translation>对比运行</translation>
    </message>
    <message>
        <source>%1 left out: %2</source>
        <translation>未包含 %1：%2</translation>
    </message>
    <message>
        <source>TensorBoard&apos;s smoothing: a debiased exponential moving average of each run&apos;s points (0: none).</source>
        <translation>TensorBoard 式平滑：对每次运行的数据点做去偏的指数移动平均（0：不平滑）。</translation>
    </message>
    <message>
        <source>Show:</source>
        <translation>显示：</translation>
    </message>
    <message>
        <source>Against:</source>
        <translation>横轴：</translation>
    </message>
    <message>
        <source>Baseline:</source>
        <translation>基准：</translation>
    </message>
    <message>
        <source>Smoothing:</source>
        <translation>平滑：</translation>
    </message>
    <message>
        <source>&lt;b&gt;%1&lt;/b&gt;, last and best value; in brackets the difference from the baseline:</source>
        <translation>&lt;b&gt;%1&lt;/b&gt;：最终值和最佳值；括号中是与基准相比的差异：</translation>
    </message>
    <message>
        <source> (baseline)</source>
        <translation>（基准）</translation>
    </message>
    <message>
        <source>Following %1: another process is training it; new steps appear as they are written.</source>
        <translation>正在跟踪 %1：另一个进程正在训练它；新的步数一写入就会显示。</translation>
    </message>
    <message>
        <source>Following %1: stalled, nothing written for %2 s (the run is paused, in a long epoch or validation, or hung).</source>
        <translation>正在跟踪 %1：已停滞，%2 秒内没有写入（运行已暂停、正在进行很长的一轮或验证，或者卡住了）。</translation>
    </message>
    <message>
        <source>%1 stopped without finishing: its process ended (killed or crashed).</source>
        <translation>%1 没有正常结束就停止了：它的进程已退出（被终止或崩溃）。</translation>
    </message>
    <message>
        <source>%1 has finished.</source>
        <translation>%1 已结束。</translation>
    </message>
    <message>
        <source>Stop the current run before replaying another.</source>
        <translation>请先停止当前运行，再重放另一次运行。</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>Beside the live run</source>
        <translation>与当前训练对照</translation>
    </message>
    <message>
        <source>Dashed: the chosen run %1, %2</source>
        <translation>虚线：选定的运行 %1，%2</translation>
    </message>
    <message>
        <source>%1 step(s) skipped</source>
        <translation>跳过 %1 步</translation>
    </message>
    <message>
        <source>non-finite x%1</source>
        <translation>NaN/Inf ×%1</translation>
    </message>
    <message>
        <source>diverged at epoch %1</source>
        <translation>第 %1 轮发散</translation>
    </message>
    <message>
        <source>rolled back x%1</source>
        <translation>回滚 ×%1</translation>
    </message>
    <message>
        <source>overfitting from epoch %1</source>
        <translation>自第 %1 轮起过拟合</translation>
    </message>
    <message>
        <source>early stop at epoch %1</source>
        <translation>第 %1 轮提前停止</translation>
    </message>
    <message>
        <source>slowdown x%1</source>
        <translation>变慢 ×%1</translation>
    </message>
    <message>
        <source>clip warning</source>
        <translation>梯度裁剪警告</translation>
    </message>
    <message>
        <source>memory warning</source>
        <translation>内存警告</translation>
    </message>
    <message>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message>
        <source>Train the run again in a new run with every change it recorded (learning rate, clipping, AMP) at the same step, and the same stop.</source>
        <translation>在新的运行中重新训练：按原来的步数重现它记录下的每次调整（学习率、梯度裁剪、AMP），并在同一处停止。</translation>
    </message>
    <message>
        <source>Draw this run&apos;s epoch losses dashed on the training view&apos;s loss plot, beside the runs you start, until you clear it.</source>
        <translation>把这次运行每轮的损失以虚线画在训练视图的损失图上，与之后开始的运行对照，直到你清除它。</translation>
    </message>
    <message>
        <source>Forget optimizer.zero_grad()</source>
        <translation>忘记调用 optimizer.zero_grad()</translation>
    </message>
    <message>
        <source>Call optimizer.step() before backward()</source>
        <translation>在 backward() 之前调用 optimizer.step()</translation>
    </message>
    <message>
        <source>Validate without model.eval()</source>
        <translation>验证时不调用 model.eval()</translation>
    </message>
    <message>
        <source>Validate without torch.no_grad()</source>
        <translation>验证时不使用 torch.no_grad()</translation>
    </message>
    <message>
        <source>Shuffle the labels against the inputs</source>
        <translation>打乱标签与输入的对应关系</translation>
    </message>
    <message>
        <source>Learning rate x1000</source>
        <translation>学习率 ×1000</translation>
    </message>
    <message>
        <source>Learning rate x1e-6</source>
        <translation>学习率 ×1e-6</translation>
    </message>
    <message>
        <source>TEACHING – mistakes on purpose: %1</source>
        <translation>教学演示 – 故意注入的错误：%1</translation>
    </message>
    <message>
        <source>the gradients accumulate step after step (zero_grad missing?)</source>
        <translation>梯度一步步累积（漏了 zero_grad？）</translation>
    </message>
    <message>
        <source>The gradient norm grew quarter after quarter of the %1 steps (medians %2, %3, %4, %5): %6x that of the first steps, %7.</source>
        <translation>在这 %1 步中，梯度范数每过四分之一就更大（中位数依次为 %2、%3、%4、%5）：是最初几步（%7）的 %6 倍。</translation>
    </message>
    <message>
        <source>Call optimizer.zero_grad() before each backward(): without it every step adds its gradient to those of all the steps before.</source>
        <translation>在每次 backward() 之前调用 optimizer.zero_grad()：否则每一步的梯度都会加到之前所有步的梯度上。</translation>
    </message>
    <message>
        <source>If the accumulation is on purpose, step and zero the gradients every k batches (gradient accumulation).</source>
        <translation>如果是有意累积梯度，请每 k 个批次更新一次参数并清零梯度（梯度累积）。</translation>
    </message>
    <message>
        <source>The gradient norm grows step after step: the gradients add up across steps, as when optimizer.zero_grad() is missing.</source>
        <translation>梯度范数一步比一步大：各步的梯度在不断累加，就像漏掉了 optimizer.zero_grad()。</translation>
    </message>
    <message>
        <source>Inject a mistake (teaching)</source>
        <translation>注入错误（教学用）</translation>
    </message>
    <message>
        <source>Inject a mistake (teaching): %1 on</source>
        <translation>注入错误（教学用）：已开启 %1 个</translation>
    </message>
    <message>
        <source>For the classroom: each switch puts a classic training-loop bug into the next run, so the class can watch what it does. The run is marked.</source>
        <translation>课堂演示用：每个开关会在下一次运行中放入一个经典的训练循环错误，让全班看到它的后果。这样的运行会被明确标出。</translation>
    </message>
    <message>
        <source>Classic PyTorch training-loop bugs, injected on purpose (teaching.mistakes).</source>
        <translation>故意注入的经典 PyTorch 训练循环错误（teaching.mistakes）。</translation>
    </message>
    <message>
        <source>The loss doctor reads the run&apos;s loss curves after a few epochs and names one of: gradients accumulating, diverging, no signal in the data, flat from the start, stalled at a plateau, overfitting, or healthy – with its evidence and what to check.</source>
        <translation>损失诊断会在训练几轮后读取损失曲线，判断属于以下哪一种：梯度累积、发散、数据中没有信号、从一开始就不下降、下降后停在平台、过拟合或健康，并给出依据和应检查的事项。</translation>
    </message>
    <message numerus="yes">
        <source>TEACHING: %n mistake(s) on</source>
        <translation>
            <numerusform>教学演示：已注入 %n 个错误</numerusform>
        </translation>
    </message>
    <message>
        <source>Mistakes (teaching)</source>
        <translation>注入的错误（教学）</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Presentation &amp;scale</source>
        <translation>演示缩放(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Presentation mode</source>
        <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
        <source>For a projector: large texts and thick lines in colours that survive a washed-out screen, the settings and events hidden, the loss plot in focus. Space starts or pauses, Right trains one batch, Shift+Right one epoch, Esc leaves.</source>
        <translation>投影用：大字号、粗线条，颜色在发白的投影幕上也清楚；隐藏设置和事件，突出损失图。空格键开始或暂停，右方向键训练一个批次，Shift+右方向键训练一轮，Esc 退出。</translation>
    </message>
    <message>
        <source>Show the &amp;gradient plots in presentation mode</source>
        <translation>演示模式中显示梯度图(&amp;G)</translation>
    </message>
    <message>
        <source>Keep the gradient norm, layer, learning-rate and loss-scale plots under the loss plot in presentation mode.</source>
        <translation>在演示模式中，损失图下方仍显示梯度范数、各层、学习率和损失缩放图。</translation>
    </message>
    <message>
        <source>Start in presentation mode (View &gt; Presentation mode, F5), in the window&apos;s size.</source>
        <translation>以演示模式启动（视图 &gt; 演示模式，F5），保持窗口大小。</translation>
    </message>
    <message>
        <source>Save image (PNG, SVG, PDF)...</source>
        <translation>保存图片（PNG、SVG、PDF）...</translation>
    </message>
    <message>
        <source>Save data as CSV...</source>
        <translation>数据另存为 CSV...</translation>
    </message>
    <message>
        <source>%1: the file name must end in .png, .svg or .pdf (the format).</source>
        <translation>%1：文件名必须以 .png、.svg 或 .pdf 结尾（即格式）。</translation>
    </message>
    <message>
        <source>%1 is a folder; choose a file name in it.</source>
        <translation>%1 是一个文件夹；请在其中选择一个文件名。</translation>
    </message>
    <message>
        <source>%1: the picture could not be drawn.</source>
        <translation>%1：无法绘制图片。</translation>
    </message>
    <message>
        <source>curve %1</source>
        <translation>曲线 %1</translation>
    </message>
    <message>
        <source>Save the plot as an image</source>
        <translation>把图保存为图片</translation>
    </message>
    <message>
        <source>Choose...</source>
        <translation>选择...</translation>
    </message>
    <message>
        <source>PNG image (*.png);;SVG drawing (*.svg);;PDF document (*.pdf)</source>
        <translation>PNG 图片 (*.png);;SVG 矢量图 (*.svg);;PDF 文档 (*.pdf)</translation>
    </message>
    <message>
        <source>File (.png, .svg or .pdf):</source>
        <translation>文件（.png、.svg 或 .pdf）：</translation>
    </message>
    <message>
        <source> px</source>
        <translation> 像素</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>宽度：</translation>
    </message>
    <message>
        <source>Height:</source>
        <translation>高度：</translation>
    </message>
    <message>
        <source>Save the plot&apos;s data as CSV</source>
        <translation>把图的数据保存为 CSV</translation>
    </message>
    <message>
        <source>CSV table (*.csv)</source>
        <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
        <source>Show or hide the names of the curves above the plot. Right-click a plot to save it as an image or its data as CSV.</source>
        <translation>显示或隐藏图上方的曲线名称。在图上单击右键，可把图保存为图片，或把其数据保存为 CSV。</translation>
    </message>
    <message>
        <source>Cannot open the lesson</source>
        <translation>无法打开课程</translation>
    </message>
    <message>
        <source>Open lesson</source>
        <translation>打开课程</translation>
    </message>
    <message>
        <source>Lessons (*.tslesson *.json);;All files (*)</source>
        <translation>课程 (*.tslesson *.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Save as lesson</source>
        <translation>另存为课程</translation>
    </message>
    <message>
        <source>Title of the lesson:</source>
        <translation>课程标题：</translation>
    </message>
    <message>
        <source>Lessons (*.tslesson)</source>
        <translation>课程 (*.tslesson)</translation>
    </message>
    <message>
        <source>Cannot save the lesson</source>
        <translation>无法保存课程</translation>
    </message>
    <message>
        <source>TrainScope – Lesson: %1</source>
        <translation>TrainScope – 课程：%1</translation>
    </message>
    <message>
        <source>&amp;Lessons</source>
        <translation>课程(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Open lesson file...</source>
        <translation>打开课程文件(&amp;O)...</translation>
    </message>
    <message>
        <source>Open a lesson (.tslesson, or a .json with a &quot;lesson&quot; section): its settings and its steps, shown one by one above the plots.</source>
        <translation>打开一个课程（.tslesson，或带 &quot;lesson&quot; 部分的 .json）：载入它的设置，并在图的上方逐步显示各个步骤。</translation>
    </message>
    <message>
        <source>&amp;Save as lesson...</source>
        <translation>另存为课程(&amp;S)...</translation>
    </message>
    <message>
        <source>Save the current settings (and the open lesson&apos;s steps) as a lesson file to hand to students.</source>
        <translation>把当前设置（以及已打开课程的步骤）保存为课程文件，可以发给学生。</translation>
    </message>
    <message>
        <source>name-or-file</source>
        <translation>名称或文件</translation>
    </message>
    <message>
        <source>A run is in progress: stop it before opening the lesson %1.</source>
        <translation>有训练正在进行：请先停止它，再打开课程 %1。</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>上一步</translation>
    </message>
    <message>
        <source>The previous step (Page Up). Its actions are not run again.</source>
        <translation>上一步（Page Up）。不会再次执行该步的操作。</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>下一步</translation>
    </message>
    <message>
        <source>The next step and what it does (Page Down).</source>
        <translation>下一步，并执行其操作（Page Down）。</translation>
    </message>
    <message>
        <source>Close lesson</source>
        <translation>退出本课</translation>
    </message>
    <message>
        <source>Step %1 of %2</source>
        <translation>第 %1 步，共 %2 步</translation>
    </message>
    <message>
        <source>Question for the class: %1</source>
        <translation>课堂提问：%1</translation>
    </message>
    <message>
        <source>The built-in lesson %1 is missing.</source>
        <translation>内置课程 %1 缺失。</translation>
    </message>
    <message>
        <source>--lesson brings its own settings and runs: use it without --preset, --config, --checkpoint, --open-run, --autostart and --quit-after-epochs.</source>
        <translation>--lesson 自带设置和运行：不要与 --preset、--config、--checkpoint、--open-run、--autostart 和 --quit-after-epochs 一起使用。</translation>
    </message>
    <message>
        <source>--lesson is given %1 times: open one lesson at a time.</source>
        <translation>--lesson 给了 %1 次：一次只能打开一个课程。</translation>
    </message>
    <message>
        <source>no lesson file and no built-in lesson is called &quot;%1&quot; (built-in: %2)</source>
        <translation>没有名为 &quot;%1&quot; 的课程文件或内置课程（内置课程：%2）</translation>
    </message>
    <message>
        <source>; did you mean %1?</source>
        <translation>；你是不是想打开 %1？</translation>
    </message>
    <message>
        <source>Export run report</source>
        <translation>导出运行报告</translation>
    </message>
    <message>
        <source>Web page, plots inside (*.html);;PDF (*.pdf)</source>
        <translation>网页，图表内嵌 (*.html);;PDF (*.pdf)</translation>
    </message>
    <message>
        <source>%1: name an .html or .pdf file.</source>
        <translation>%1：请用 .html 或 .pdf 结尾的文件名。</translation>
    </message>
    <message>
        <source>Report written to %1</source>
        <translation>报告已保存到 %1</translation>
    </message>
    <message>
        <source>Show the P&amp;yTorch code...</source>
        <translation>查看 P&amp;yTorch 代码...</translation>
    </message>
    <message>
        <source>The current settings as a plain PyTorch script: the data, the model, the optimizer and the training loop, to read or copy into your own code. On the CPU it gives the same losses as TrainScope, step for step.</source>
        <translation>把当前设置写成一个普通的 PyTorch 脚本：数据、模型、优化器和训练循环，可以阅读，也可以复制到自己的代码里。在 CPU 上它每一步的损失都与 TrainScope 相同。</translation>
    </message>
    <message>
        <source>Export run re&amp;port...</source>
        <translation>导出运行报告(&amp;P)...</translation>
    </message>
    <message>
        <source>Save the shown run as one file to hand in: its result, diagnosis, plots, settings, device, data, model and events (HTML or PDF).</source>
        <translation>把当前显示的运行保存为一个文件，可作为实验记录上交：结果、诊断、图表、设置、设备、数据、模型和事件（HTML 或 PDF）。</translation>
    </message>
    <message>
        <source>Write the run report of the run folder &lt;dir&gt; to --report-file and quit, without a window (trainscope-cli report runs this).</source>
        <translation>把运行文件夹 &lt;dir&gt; 的运行报告写入 --report-file 后退出，不打开窗口（trainscope-cli report 会调用它）。</translation>
    </message>
    <message>
        <source>The report&apos;s file: .html (one file, plots inside) or .pdf.</source>
        <translation>报告文件：.html（单个文件，图表内嵌）或 .pdf。</translation>
    </message>
    <message>
        <source>--report and --report-file go together: the run folder and the file.</source>
        <translation>--report 和 --report-file 要一起使用：分别给出运行文件夹和报告文件。</translation>
    </message>
    <message>
        <source>--report writes a file and opens no window: use it only with --report-file and --lang.</source>
        <translation>--report 只写文件、不打开窗口：只能与 --report-file 和 --lang 一起使用。</translation>
    </message>
    <message>
        <source>Loss (training per step, validation per epoch)</source>
        <translation>损失（训练损失按步，验证损失按轮）</translation>
    </message>
    <message>
        <source>no summary yet: still training, or ended without one</source>
        <translation>还没有总结：仍在训练，或结束时没有写入总结</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Steps</source>
        <translation>步数</translation>
    </message>
    <message>
        <source>Final training loss</source>
        <translation>最终训练损失</translation>
    </message>
    <message>
        <source>Final validation loss</source>
        <translation>最终验证损失</translation>
    </message>
    <message>
        <source>Final validation accuracy</source>
        <translation>最终验证准确率</translation>
    </message>
    <message>
        <source>Best validation loss</source>
        <translation>最佳验证损失</translation>
    </message>
    <message>
        <source>%1 (epoch %2)</source>
        <translation>%1（第 %2 轮）</translation>
    </message>
    <message>
        <source>Steps not applied (non-finite values)</source>
        <translation>未更新的步数（NaN/Inf（非有限值））</translation>
    </message>
    <message>
        <source>Training time</source>
        <translation>训练用时</translation>
    </message>
    <message>
        <source>The loss doctor has no reading for this run.</source>
        <translation>损失诊断对这次运行还没有结论。</translation>
    </message>
    <message>
        <source>after epoch %1</source>
        <translation>第 %1 轮之后</translation>
    </message>
    <message>
        <source>What to check</source>
        <translation>应检查的事项</translation>
    </message>
    <message>
        <source>CPU</source>
        <translation>CPU</translation>
    </message>
    <message>
        <source>BLAS</source>
        <translation>BLAS</translation>
    </message>
    <message>
        <source>Mixed precision (AMP)</source>
        <translation>混合精度（AMP）</translation>
    </message>
    <message>
        <source>Deterministic algorithms</source>
        <translation>确定性算法</translation>
    </message>
    <message>
        <source>Processes (ranks)</source>
        <translation>进程数（rank）</translation>
    </message>
    <message>
        <source>Versions</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Computer</source>
        <translation>计算机</translation>
    </message>
    <message>
        <source>Task</source>
        <translation>任务</translation>
    </message>
    <message>
        <source>%1 training, %2 validation, %3 test</source>
        <translation>训练 %1 个，验证 %2 个，测试 %3 个</translation>
    </message>
    <message>
        <source>Input shape (one sample)</source>
        <translation>输入形状（单个样本）</translation>
    </message>
    <message>
        <source>Classes</source>
        <translation>类别</translation>
    </message>
    <message>
        <source>Trainable parameters</source>
        <translation>可训练参数</translation>
    </message>
    <message>
        <source>Epoch</source>
        <translation>轮</translation>
    </message>
    <message>
        <source>Event</source>
        <translation>事件</translation>
    </message>
    <message>
        <source>No events.</source>
        <translation>没有事件。</translation>
    </message>
    <message>
        <source>... and %1 more events (events.jsonl holds them all).</source>
        <translation>……另有 %1 个事件（全部记录在 events.jsonl 中）。</translation>
    </message>
    <message>
        <source>Run report: %1</source>
        <translation>运行报告：%1</translation>
    </message>
    <message>
        <source>Written by TrainScope on %1 from the run folder</source>
        <translation>由 TrainScope 于 %1 根据以下运行文件夹生成</translation>
    </message>
    <message>
        <source>Result</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Plots</source>
        <translation>图表</translation>
    </message>
    <message>
        <source>No steps recorded yet.</source>
        <translation>还没有记录任何训练步。</translation>
    </message>
    <message>
        <source>Unknown report format &quot;%1&quot;: html or pdf.</source>
        <translation>未知的报告格式“%1”：只能是 html 或 pdf。</translation>
    </message>
    <message>
        <source>Cannot read the run in %1: %2</source>
        <translation>无法读取 %1 中的运行：%2</translation>
    </message>
    <message>
        <source>Cannot write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <source>The PyTorch code of these settings</source>
        <translation>这些设置对应的 PyTorch 代码</translation>
    </message>
    <message>
        <source>These settings cannot be written as a plain PyTorch script: %1</source>
        <translation>这些设置无法写成普通的 PyTorch 脚本：%1</translation>
    </message>
    <message>
        <source>&amp;Copy</source>
        <translation>复制(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Save as...</source>
        <translation>另存为(&amp;S)...</translation>
    </message>
    <message>
        <source>Save the PyTorch script</source>
        <translation>保存 PyTorch 脚本</translation>
    </message>
    <message>
        <source>Python scripts (*.py)</source>
        <translation>Python 脚本 (*.py)</translation>
    </message>
    <message>
        <source>Validation without torch.no_grad(): %1 s and %2 MB more memory while every batch&apos;s graph is kept; the same pass under torch.no_grad(): %3 s and %4 MB. Same numbers, more time and memory.</source>
        <translation>验证时没有使用 torch.no_grad()：用时 %1 秒，因为保留了每个批次的计算图，内存多占 %2 MB；同样的验证放在 torch.no_grad() 下：用时 %3 秒，内存 %4 MB。结果数值相同，只是更费时间和内存。</translation>
    </message>
    <message>
        <source>Validation without torch.no_grad(): %1 s and %2 MB more memory while every batch&apos;s graph is kept.</source>
        <translation>验证时没有使用 torch.no_grad()：用时 %1 秒，因为保留了每个批次的计算图，内存多占 %2 MB。</translation>
    </message>
    <message>
        <source>Checkpoints saved: %1 (each is in events.jsonl).</source>
        <translation>已保存检查点：%1 次（每次都记录在 events.jsonl 中）。</translation>
    </message>
    <message>
        <source>The training loss %1 (mean of the last %2 epochs) has not fallen below the chance loss %3: the model fits its training labels no better than a constant prediction.</source>
        <translation>训练损失 %1（最近 %2 轮的平均值）没有降到随机水平损失 %3 以下：模型拟合训练标签并不比常数预测更好。</translation>
    </message>
    <message>
        <source>The weights move by %1 of their size per step (median update-to-weight ratio of the recent steps; healthy is around 0.001).</source>
        <translation>权重每步的变化为其大小的 %1（最近各步更新量与权重之比的中位数；正常约为 0.001）。</translation>
    </message>
    <message>
        <source>Validation loss %1 at epoch %2 (mean of the last %3 epochs: %4), up from its lowest such mean %7 (best epoch %6: %5).</source>
        <translation>第 %2 轮验证损失 %1（最近 %3 轮平均值：%4），高于此前最低的同类平均值 %7（最佳为第 %6 轮：%5）。</translation>
    </message>
    <message>
        <source>Mean training loss %1 over the %6 epochs to epoch %2, %3 over the %6 epochs to epoch %4 (%5% better).</source>
        <translation>截至第 %2 轮的 %6 轮平均训练损失为 %1，截至第 %4 轮的 %6 轮为 %3（改善 %5%）。</translation>
    </message>
    <message>
        <source>Mean training loss %1 over the %6 epochs to epoch %2, %3 over the %6 epochs to epoch %4 (%5% worse).</source>
        <translation>截至第 %2 轮的 %6 轮平均训练损失为 %1，截至第 %4 轮的 %6 轮为 %3（变差 %5%）。</translation>
    </message>
    <message>
        <source>Try momentum (optimizer.momentum 0.9) or Adam.</source>
        <translation>尝试使用动量（optimizer.momentum 设为 0.9）或 Adam。</translation>
    </message>
    <message>
        <source>Try the Adam optimizer.</source>
        <translation>尝试使用 Adam 优化器。</translation>
    </message>
    <message>
        <source>Data: %1</source>
        <translation>数据：%1</translation>
    </message>
    <message>
        <source>The model was saved by torch.jit.trace: it replays the operations recorded for one example input, so Python if/for on the data were not recorded, and dropout or batch norm keep the mode it was traced in. Save it with torch.jit.script to train it as written.</source>
        <translation>该模型由 torch.jit.trace 保存：它只重放针对一个示例输入记录下来的运算，因此依赖数据的 Python if/for 没有被记录，dropout 和批归一化也保持追踪时的模式。若要按代码原样训练，请用 torch.jit.script 保存。</translation>
    </message>
    <message numerus="yes">
        <source>%n parameter value(s) of the model have requires_grad=False: they stay as they are (frozen), as in Python.</source>
        <translation>
            <numerusform>模型中有 %n 个参数值的 requires_grad=False：它们保持不变（被冻结），与 Python 中一样。</numerusform>
        </translation>
    </message>
    <message>
        <source>Lowest mean training loss over %4 consecutive epochs %1 (%2% of the initial loss) after %3 epochs.</source>
        <translation>%3 轮后，连续 %4 轮训练损失的最低平均值为 %1（初始损失的 %2%）。</translation>
    </message>
    <message>
        <source>between %1× and %2× over %3 rounds: the machine was busy (spread %4%, over 20%), so no single figure holds; close other programs and compare again</source>
        <translation>%3 轮测量在 %1× 到 %2× 之间：机器当时很忙（离散度 %4%，超过 20%），所以给不出单一数值；请关闭其他程序后再比较一次</translation>
    </message>
    <message>
        <source>%1× (AMP samples/s ÷ float32 samples/s; median of %2 rounds, %3× to %4×, spread %5%)</source>
        <translation>%1×（AMP 样本/秒 ÷ float32 样本/秒；%2 轮的中位数，范围 %3× 到 %4×，离散度 %5%）</translation>
    </message>
    <message>
        <source>%1× (AMP samples/s ÷ float32 samples/s; one round, no spread measured)</source>
        <translation>%1×（AMP 样本/秒 ÷ float32 样本/秒；只测了一轮，没有离散度）</translation>
    </message>
    <message>
        <source>AMP run, round %1 of %2</source>
        <translation>AMP 运行，第 %1 轮，共 %2 轮</translation>
    </message>
    <message>
        <source>float32 run, round %1 of %2</source>
        <translation>float32 运行，第 %1 轮，共 %2 轮</translation>
    </message>
    <message>
        <source>Data: line 1 of %1 was read as the header (the column names); if it is a data row, set data.csv.header=no.</source>
        <translation>数据：%1 的第 1 行被读作表头（列名）；如果它其实是一行数据，请设置 data.csv.header=no。</translation>
    </message>
    <message>
        <source>Data: %1 has no header: line 1 was read as data (the columns are named &quot;column 1&quot;, &quot;column 2&quot; ...); if line 1 names the columns, set data.csv.header=yes.</source>
        <translation>数据：%1 没有表头：第 1 行被读作数据（各列命名为“column 1”“column 2”……）；如果第 1 行是列名，请设置 data.csv.header=yes。</translation>
    </message>
    <message>
        <source>Sine sequences (built-in, regression, for recurrent models)</source>
        <translation>正弦序列（内置，回归，用于循环网络）</translation>
    </message>
    <message>
        <source>Data: %1 changed since the source run read it (allowed with --allow-changed-data): the splits and metrics may differ from that run&apos;s.</source>
        <translation>数据：%1 在原运行读取之后被修改过（已用 --allow-changed-data 允许）：数据划分和指标可能与原运行不同。</translation>
    </message>
    <message>
        <source>(Test: the best checkpoint&apos;s weights, epoch %1.)</source>
        <translation>（测试：最佳检查点的权重，第 %1 轮。）</translation>
    </message>
    <message>
        <source>(Test: the last weights.)</source>
        <translation>（测试：最后一轮的权重。）</translation>
    </message>
    <message>
        <source>%1: validation</source>
        <translation>%1：验证</translation>
    </message>
    <message>
        <source>%1: training</source>
        <translation>%1：训练</translation>
    </message>
    <message>
        <source>Test weights</source>
        <translation>测试所用权重</translation>
    </message>
    <message>
        <source>best checkpoint (epoch %1)</source>
        <translation>最佳检查点（第 %1 轮）</translation>
    </message>
    <message>
        <source>Test loss, last weights</source>
        <translation>测试损失（最后一轮权重）</translation>
    </message>
    <message>
        <source>Test accuracy, last weights</source>
        <translation>测试准确率（最后一轮权重）</translation>
    </message>
    <message>
        <source>last epoch (%1)</source>
        <translation>最后一轮（第 %1 轮）</translation>
    </message>
    <message>
        <source>Best val R²</source>
        <translation>最佳验证 R²</translation>
    </message>
    <message>
        <source>Final val R²</source>
        <translation>最终验证 R²</translation>
    </message>
    <message>
        <source>Final val MAE</source>
        <translation>最终验证 MAE</translation>
    </message>
    <message>
        <source>Final val RMSE</source>
        <translation>最终验证 RMSE</translation>
    </message>
    <message>
        <source>Final validation R²</source>
        <translation>最终验证 R²</translation>
    </message>
    <message>
        <source>Final validation MAE</source>
        <translation>最终验证平均绝对误差（MAE）</translation>
    </message>
    <message>
        <source>Final validation RMSE</source>
        <translation>最终验证均方根误差（RMSE）</translation>
    </message>
    <message>
        <source>Chosen run</source>
        <translation>选定的运行</translation>
    </message>
    <message>
        <source>Show %1 as a column</source>
        <translation>将 %1 显示为一列</translation>
    </message>
    <message>
        <source>The setting %1 of each run&apos;s config.json</source>
        <translation>每个运行的 config.json 中的设置 %1</translation>
    </message>
    <message>
        <source>Settings as columns</source>
        <translation>设置作为列</translation>
    </message>
    <message>
        <source>Another setting...</source>
        <translation>其他设置...</translation>
    </message>
    <message>
        <source>Setting as a column</source>
        <translation>设置作为列</translation>
    </message>
    <message>
        <source>Config key (as in trainscope-cli config --keys):</source>
        <translation>配置键（与 trainscope-cli config --keys 中一致）：</translation>
    </message>
    <message>
        <source>%1 is not a config key (see trainscope-cli config --keys).</source>
        <translation>%1 不是配置键（见 trainscope-cli config --keys）。</translation>
    </message>
    <message>
        <source>the validation accuracy</source>
        <translation>验证准确率</translation>
    </message>
    <message>
        <source>the validation R²</source>
        <translation>验证 R²</translation>
    </message>
    <message>
        <source>the validation MAE</source>
        <translation>验证平均绝对误差（MAE）</translation>
    </message>
    <message>
        <source>the validation RMSE</source>
        <translation>验证均方根误差（RMSE）</translation>
    </message>
    <message>
        <source>the validation loss</source>
        <translation>验证损失</translation>
    </message>
    <message>
        <source>Early stopping at epoch %1: %2 stopped improving.</source>
        <translation>第 %1 轮提前停止：%2不再改善。</translation>
    </message>
    <message>
        <source>Stop the run when the metric under Best by (the validation loss unless chosen) has not improved for the number of epochs below (training.early_stopping). Applies when the next run starts.</source>
        <translation>当“最佳依据”中的指标（未选择时为验证损失）在下方设定的轮数内没有改善时停止运行（training.early_stopping）。下次开始运行时生效。</translation>
    </message>
    <message>
        <source>Best by:</source>
        <translation>最佳依据：</translation>
    </message>
    <message>
        <source>validation loss (lower)</source>
        <translation>验证损失（越低越好）</translation>
    </message>
    <message>
        <source>validation accuracy (higher)</source>
        <translation>验证准确率（越高越好）</translation>
    </message>
    <message>
        <source>validation R² (higher)</source>
        <translation>验证 R²（越高越好）</translation>
    </message>
    <message>
        <source>validation MAE (lower)</source>
        <translation>验证 MAE（越低越好）</translation>
    </message>
    <message>
        <source>validation RMSE (lower)</source>
        <translation>验证 RMSE（越低越好）</translation>
    </message>
    <message>
        <source>The validation metric that picks the best epoch: best.pt, early stopping and the test&apos;s best weights (training.monitor). Accuracy is for classes; R², MAE and RMSE for a regression target. Applies when the next run starts.</source>
        <translation>用来选出最好一轮的验证指标：决定 best.pt、提前停止以及测试所用的最佳权重（training.monitor）。准确率用于分类；R²、MAE 和 RMSE 用于回归目标。下次开始运行时生效。</translation>
    </message>
    <message>
        <source>validation loss %1, accuracy %2</source>
        <translation>验证损失 %1，准确率 %2</translation>
    </message>
    <message>
        <source>validation loss %1, R² %2, MAE %3, RMSE %4</source>
        <translation>验证损失 %1，R² %2，MAE %3，RMSE %4</translation>
    </message>
    <message>
        <source>validation loss %1</source>
        <translation>验证损失 %1</translation>
    </message>
    <message>
        <source>Epoch %1: %2.</source>
        <translation>第 %1 轮：%2。</translation>
    </message>
    <message>
        <source>A run&apos;s files keep its metrics, not its predictions: Evaluate... under Checkpoints draws them for a checkpoint such as best.pt.</source>
        <translation>运行文件只保存指标，不保存预测结果：在“检查点”下点击“评估...”，可为 best.pt 等检查点画出预测。</translation>
    </message>
    <message>
        <source>Predicted against true values (validation split, %1): R² %2, MAE %3, RMSE %4</source>
        <translation>预测值与真实值对比（验证集，%1）：R² %2，MAE %3，RMSE %4</translation>
    </message>
    <message>
        <source>No plot of predicted against true values: %1</source>
        <translation>没有预测值与真实值对比图：%1</translation>
    </message>
    <message>
        <source>The device this run trains on (training.device; &quot;auto&quot; takes a GPU when there is one) and its intra-op threads on the CPU.</source>
        <translation>本次运行使用的设备（training.device；“auto”在有 GPU 时使用 GPU）以及在 CPU 上的算子内线程数。</translation>
    </message>
    <message>
        <source>Device –</source>
        <translation>设备 –</translation>
    </message>
    <message numerus="yes">
        <source>CPU, %n thread(s)</source>
        <translation>
            <numerusform>CPU，%n 个线程</numerusform>
        </translation>
    </message>
    <message>
        <source>As shown (%1 x %2)</source>
        <translation>与屏幕上相同（%1 x %2）</translation>
    </message>
    <message>
        <source>16:9 slide (%1 x %2)</source>
        <translation>16:9 幻灯片（%1 x %2）</translation>
    </message>
    <message>
        <source>4:3 (%1 x %2)</source>
        <translation>4:3（%1 x %2）</translation>
    </message>
    <message>
        <source>Other (width and height below)</source>
        <translation>其他（在下方填写宽和高）</translation>
    </message>
    <message>
        <source>Size:</source>
        <translation>尺寸：</translation>
    </message>
    <message>
        <source>For a projector (texts and lines sized for the picture)</source>
        <translation>用于投影（文字和线条随图片尺寸放大）</translation>
    </message>
    <message>
        <source>Tick labels about 1/36 of a 16:9 picture&apos;s height (25 px on 1600 x 900), thick lines, projector colours.</source>
        <translation>刻度文字约为 16:9 图片高度的 1/36（1600 x 900 时为 25 像素），粗线条，适合投影的配色。</translation>
    </message>
    <message>
        <source>What TrainScope does with these settings, written as a plain PyTorch script in the usual training loop. Run it with python3 FILE --out DIR: on the CPU every step&apos;s loss equals the steps.csv of a run started with these settings.</source>
        <translation>TrainScope 用这些设置所做的事情，写成常见训练循环形式的纯 PyTorch 脚本。用 python3 FILE --out DIR 运行：在 CPU 上，每一步的损失都与用这些设置开始的运行的 steps.csv 相同。</translation>
    </message>
    <message>
        <source>The run shown was changed while it trained (%1): the script trains with the settings from the start, so its losses differ from that run&apos;s after step %2 (trainscope-cli train --replay repeats the changes).</source>
        <translation>显示的运行在训练过程中被修改过（%1）：脚本从头到尾使用这些设置训练，因此从第 %2 步之后，它的损失与那次运行不同（trainscope-cli train --replay 可以重现这些修改）。</translation>
    </message>
    <message>
        <source>All settings…</source>
        <translation>全部设置…</translation>
    </message>
    <message>
        <source>Every setting of the next run in one table, as config files and trainscope-cli train --set name them: model kinds and their layers, scheduler, split, checkpoints, ...</source>
        <translation>下一次运行的全部设置集中在一张表里，名称与配置文件和 trainscope-cli train --set 中的相同：模型类型及其层、学习率调度器、数据划分、检查点……</translation>
    </message>
    <message>
        <source>Validation fraction:</source>
        <translation>验证集比例：</translation>
    </message>
    <message>
        <source>The share of the samples held out for validation (data.val_fraction); not used where the data has its own validation file or folder.</source>
        <translation>留作验证的样本比例（data.val_fraction）；若数据自带验证文件或文件夹，则不使用此项。</translation>
    </message>
    <message>
        <source>Best epoch %2 (validation loss %1).</source>
        <translation>最好的一轮是第 %2 轮（验证损失 %1）。</translation>
    </message>
    <message>
        <source>All settings</source>
        <translation>全部设置</translation>
    </message>
    <message>
        <source>Every setting of the next run, as config files and trainscope-cli train --set name them. Values are JSON: numbers, true or false, null, [lists]; text as it is.</source>
        <translation>下一次运行的全部设置，名称与配置文件和 trainscope-cli train --set 中的相同。值按 JSON 书写：数字、true 或 false、null、[列表]；文字直接填写。</translation>
    </message>
    <message>
        <source>Filter, e.g. scheduler or cnn</source>
        <translation>筛选，例如 scheduler 或 cnn</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Allowed</source>
        <translation>允许的值</translation>
    </message>
    <message>
        <source>Default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>lr ÷10, continue</source>
        <translation>学习率 ÷10，继续</translation>
    </message>
    <message>
        <source>Clip, continue</source>
        <translation>裁剪，继续</translation>
    </message>
    <message>
        <source>Skip bad steps</source>
        <translation>跳过出错的步</translation>
    </message>
    <message>
        <source>Cannot write %1: the disk is full or a file size limit was reached; nothing was written</source>
        <translation>无法写入 %1：磁盘已满，或已达到文件大小上限；未写入任何内容</translation>
    </message>
    <message>
        <source>Your own data is read as the run shown read it (%1): the samples its split.json lists, with the settings that run started with.</source>
        <translation>你自己的数据按当前显示的这次训练的方式读取（%1）：即它的 split.json 列出的样本，并使用该次训练开始时的设置。</translation>
    </message>
    <message>
        <source>The lesson loads a model file</source>
        <translation>本课会加载一个模型文件</translation>
    </message>
    <message>
        <source>This lesson trains the model file %1. A TorchScript file is a program, like a pickle: it can read and write your files. Open the lesson only if you trust where the file came from.</source>
        <translation>本课要训练模型文件 %1。TorchScript 文件是一个程序，和 pickle 一样：它可以读写你的文件。只有在你信任该文件的来源时才打开本课。</translation>
    </message>
    <message>
        <source>Not opened: you chose not to load the model file %1.</source>
        <translation>未打开：你选择了不加载模型文件 %1。</translation>
    </message>
    <message>
        <source>The model&apos;s code reads or writes files: a TorchScript file is a program. It was loaded because model.torchscript.allow_file_access is on (%1).</source>
        <translation>模型的代码会读写文件：TorchScript 文件是一个程序。因为 model.torchscript.allow_file_access 已开启，它才被加载（%1）。</translation>
    </message>
    <message>
        <source>The model&apos;s code calls print(): what it prints goes to the log (stderr), never into the CLI&apos;s --json output.</source>
        <translation>模型的代码调用了 print()：它打印的内容写入日志（stderr），绝不会混入命令行的 --json 输出。</translation>
    </message>
    <message>
        <source>The run ended without finishing (killed or crashed: no summary.json): %1 epoch(s) and %2 step(s) recorded.</source>
        <translation>这次运行没有正常结束（被终止或崩溃：没有 summary.json）：已记录 %1 轮、%2 步。</translation>
    </message>
    <message>
        <source>T-shirt-top</source>
        <translation>T恤/上衣</translation>
    </message>
    <message>
        <source>Sweep</source>
        <translation>超参数搜索</translation>
    </message>
    <message>
        <source>pruned by its sweep</source>
        <translation>被超参数搜索剪枝</translation>
    </message>
    <message>
        <source>pruned</source>
        <translation>已剪枝</translation>
    </message>
    <message>
        <source>S&amp;weeps...</source>
        <translation>超参数搜索(&amp;W)...</translation>
    </message>
    <message>
        <source>The sweeps in the runs folder: each trial&apos;s state live, parallel coordinates of the values tried and the objective, the objective against each setting, which settings matter, the best trial.</source>
        <translation>运行文件夹中的超参数搜索：实时显示每次试验的状态，所试取值与目标值的平行坐标图，目标值随各设置的变化，哪些设置重要，以及最好的试验。</translation>
    </message>
    <message>
        <source>&amp;New sweep...</source>
        <translation>新建超参数搜索(&amp;N)...</translation>
    </message>
    <message>
        <source>Train the current settings many times, varying the settings you choose (a grid, random draws or Optuna&apos;s TPE), and rank the runs by an objective.</source>
        <translation>用当前设置训练多次，改变你选择的设置（网格、随机抽取或 Optuna 的 TPE），并按目标值给各次运行排名。</translation>
    </message>
    <message>
        <source>Sweeps</source>
        <translation>超参数搜索</translation>
    </message>
    <message>
        <source>Sweep:</source>
        <translation>搜索：</translation>
    </message>
    <message>
        <source>Open folder...</source>
        <translation>打开文件夹...</translation>
    </message>
    <message>
        <source>Parallel coordinates</source>
        <translation>平行坐标图</translation>
    </message>
    <message>
        <source>Objective against:</source>
        <translation>目标值对应：</translation>
    </message>
    <message>
        <source>Objective vs parameter</source>
        <translation>目标值与参数</translation>
    </message>
    <message>
        <source>Importance</source>
        <translation>重要性</translation>
    </message>
    <message>
        <source>Open in training view</source>
        <translation>在训练视图中打开</translation>
    </message>
    <message>
        <source>Clear filters</source>
        <translation>清除筛选</translation>
    </message>
    <message>
        <source>Open a sweep folder</source>
        <translation>打开超参数搜索文件夹</translation>
    </message>
    <message>
        <source>(no sweep in %1)</source>
        <translation>（%1 中没有超参数搜索）</translation>
    </message>
    <message>
        <source>A sweep tries many settings as a queue of runs. Start one with File &gt; New sweep..., or with trainscope-cli sweep FILE.</source>
        <translation>超参数搜索把多组设置排成一队运行逐一尝试。用“文件 &gt; 新建超参数搜索...”或 trainscope-cli sweep FILE 开始一次。</translation>
    </message>
    <message>
        <source>Best: trial %1, %2 %3 (%4)</source>
        <translation>最好：试验 %1，%2 %3（%4）</translation>
    </message>
    <message>
        <source>Best: none yet (no trial has a value for %1)</source>
        <translation>最好：暂无（还没有试验得到 %1 的值）</translation>
    </message>
    <message>
        <source>%1: %2 trials (%3 running, %4 queued, %5 completed, %6 pruned, %7 failed) · method %8 · objective %9 (%10) · %11</source>
        <translation>%1：%2 次试验（%3 次运行中，%4 次排队，%5 次完成，%6 次剪枝，%7 次失败）· 方法 %8 · 目标 %9（%10）· %11</translation>
    </message>
    <message>
        <source>higher is better</source>
        <translation>越高越好</translation>
    </message>
    <message>
        <source>lower is better</source>
        <translation>越低越好</translation>
    </message>
    <message>
        <source>on Slurm</source>
        <translation>在 Slurm 上</translation>
    </message>
    <message>
        <source>on this machine</source>
        <translation>在本机上</translation>
    </message>
    <message>
        <source>trials</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>best trial</source>
        <translation>最好的试验</translation>
    </message>
    <message>
        <source>parameter</source>
        <translation>参数</translation>
    </message>
    <message>
        <source>Spearman&apos;s rho with the objective</source>
        <translation>与目标值的 Spearman rho</translation>
    </message>
    <message>
        <source>trials counted</source>
        <translation>计入的试验数</translation>
    </message>
    <message>
        <source>- (too few trials)</source>
        <translation>-（试验太少）</translation>
    </message>
    <message>
        <source>queued</source>
        <translation>排队中</translation>
    </message>
    <message>
        <source> (retry)</source>
        <translation>（重试）</translation>
    </message>
    <message>
        <source>trial</source>
        <translation>试验</translation>
    </message>
    <message>
        <source>state</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>秒</translation>
    </message>
    <message>
        <source>run folder</source>
        <translation>运行文件夹</translation>
    </message>
    <message>
        <source>Each line is a trial, crossing each axis at its value; its colour is the objective (dark: best). Drag along an axis to keep only the trials in that range; double-click the axis to clear it.</source>
        <translation>每条线是一次试验，在各坐标轴上穿过它的取值；颜色表示目标值（深色：最好）。沿某个坐标轴拖动，只保留该范围内的试验；双击坐标轴清除筛选。</translation>
    </message>
    <message>
        <source>No trials yet.</source>
        <translation>还没有试验。</translation>
    </message>
    <message>
        <source> (log)</source>
        <translation>（对数）</translation>
    </message>
    <message>
        <source>%1 of %2 trials shown · colour: the objective, dark is best · drag along an axis to filter, double-click to clear</source>
        <translation>显示 %2 次试验中的 %1 次 · 颜色：目标值，深色最好 · 沿坐标轴拖动以筛选，双击清除</translation>
    </message>
    <message>
        <source>New sweep</source>
        <translation>新建超参数搜索</translation>
    </message>
    <message>
        <source>A sweep trains the current settings many times, varying the keys you tick, and ranks the runs by an objective. Tick a key, choose how it varies and give its values (choices, separated by commas) or its range (low, high).</source>
        <translation>超参数搜索会用当前设置训练多次，改变你勾选的键，并按目标值给各次运行排名。勾选一个键，选择它的变化方式，并给出取值（用逗号分隔的候选值）或范围（下限, 上限）。</translation>
    </message>
    <message>
        <source>Filter keys (e.g. lr, hidden, dropout)</source>
        <translation>筛选键（例如 lr、hidden、dropout）</translation>
    </message>
    <message>
        <source>vary</source>
        <translation>改变</translation>
    </message>
    <message>
        <source>key</source>
        <translation>键</translation>
    </message>
    <message>
        <source>now</source>
        <translation>当前值</translation>
    </message>
    <message>
        <source>how</source>
        <translation>方式</translation>
    </message>
    <message>
        <source>values or range</source>
        <translation>取值或范围</translation>
    </message>
    <message>
        <source>Name:</source>
        <translation>名称：</translation>
    </message>
    <message>
        <source>grid: every combination</source>
        <translation>grid：所有组合</translation>
    </message>
    <message>
        <source>random: seeded draws</source>
        <translation>random：固定种子的随机抽取</translation>
    </message>
    <message>
        <source>tpe: Optuna&apos;s TPE, learns from the trials so far</source>
        <translation>tpe：Optuna 的 TPE，从已有试验中学习</translation>
    </message>
    <message>
        <source>Method:</source>
        <translation>方法：</translation>
    </message>
    <message>
        <source>Trials (random, tpe):</source>
        <translation>试验次数（random、tpe）：</translation>
    </message>
    <message>
        <source>At once:</source>
        <translation>同时运行：</translation>
    </message>
    <message>
        <source>Seeds each:</source>
        <translation>每组种子数：</translation>
    </message>
    <message>
        <source>Budget:</source>
        <translation>预算：</translation>
    </message>
    <message>
        <source>Objective:</source>
        <translation>目标：</translation>
    </message>
    <message>
        <source>none: every trial runs to its end</source>
        <translation>none：每次试验都运行到结束</translation>
    </message>
    <message>
        <source>median: stop a trial worse than the median at the same epoch</source>
        <translation>median：在同一轮比中位数差的试验提前停止</translation>
    </message>
    <message>
        <source>successive halving: keep the best third at epochs 1, 3, 9, ...</source>
        <translation>successive halving：在第 1、3、9……轮只保留最好的三分之一</translation>
    </message>
    <message>
        <source>Early stopping of trials:</source>
        <translation>试验的提前停止：</translation>
    </message>
    <message>
        <source>Start sweep</source>
        <translation>开始搜索</translation>
    </message>
    <message>
        <source>Tick at least one key to vary.</source>
        <translation>请至少勾选一个要改变的键。</translation>
    </message>
    <message>
        <source>Up to %1 trials, each asked of Optuna&apos;s TPE when a slot frees.</source>
        <translation>最多 %1 次试验，每当有空位时向 Optuna 的 TPE 要下一次试验。</translation>
    </message>
    <message>
        <source>%1 trials, %2 at a time.</source>
        <translation>%1 次试验，每次同时运行 %2 次。</translation>
    </message>
    <message>
        <source>trainscope-cli was not found beside the dashboard or on PATH: a sweep runs its trials with it.</source>
        <translation>在仪表板旁边或 PATH 中找不到 trainscope-cli：超参数搜索要用它运行试验。</translation>
    </message>
    <message>
        <source>Cannot create the runs folder %1.</source>
        <translation>无法创建运行文件夹 %1。</translation>
    </message>
    <message>
        <source>Could not start %1: %2</source>
        <translation>无法启动 %1：%2</translation>
    </message>
    <message>
        <source>Over seeds</source>
        <translation>跨种子</translation>
    </message>
    <message>
        <source>Best configuration over its seeds: %1 %2 ± %3 over %4 seeds (%5)</source>
        <translation>跨种子最好的配置：%1 %2 ± %3，共 %4 个种子（%5）</translation>
    </message>
    <message>
        <source>configuration</source>
        <translation>配置</translation>
    </message>
    <message>
        <source>%1 mean ± std</source>
        <translation>%1 均值 ± 标准差</translation>
    </message>
    <message>
        <source>seeds counted</source>
        <translation>计入的种子数</translation>
    </message>
    <message>
        <source>- (choices without an order)</source>
        <translation>-（候选值之间没有顺序）</translation>
    </message>
    <message>
        <source>- (one value only)</source>
        <translation>-（只有一个取值）</translation>
    </message>
    <message>
        <source>Pruned by its sweep at step %1: its objective so far was worse than the other trials&apos; (the rule and its numbers are in events.jsonl).</source>
        <translation>第 %1 步被超参数搜索剪枝：它到目前为止的目标值比其他试验差（规则和具体数值见 events.jsonl）。</translation>
    </message>
    <message>
        <source>Importance here is Spearman&apos;s rank correlation (rho) between each parameter and the objective over the finished trials: rho near +1 or -1, the objective rises or falls steadily with the parameter; near 0, no steady trend. An effect with an optimum in the middle (a learning rate too small or too large) can show a rho near 0: look at the scatter.</source>
        <translation>这里的重要性是已完成试验中每个参数与目标值之间的 Spearman 秩相关系数（rho）：rho 接近 +1 或 -1，表示目标值随参数持续上升或下降；接近 0，表示没有持续的趋势。最优值在中间的效应（学习率太小或太大都不好）的 rho 可能接近 0：请看散点图。</translation>
    </message>
    <message>
        <source>Preview…</source>
        <translation>预览…</translation>
    </message>
    <message>
        <source>Augmentation transforms images; this data is a table.</source>
        <translation>数据增强只作用于图像；当前数据是表格。</translation>
    </message>
    <message>
        <source>One training image and 16 variants of it, as the training batches draw them.</source>
        <translation>一张训练图像及其 16 个变体，与训练批次的随机抽取方式相同。</translation>
    </message>
    <message>
        <source>Set data.augment.* in All settings: horizontal flips, random crops, colour jitter, rotation.</source>
        <translation>在“全部设置”中设置 data.augment.*：水平翻转、随机裁剪、颜色抖动、旋转。</translation>
    </message>
    <message>
        <source>training only: %1</source>
        <translation>仅训练集：%1</translation>
    </message>
    <message>
        <source>torchvision transforms of the training images; validation and test images are not augmented:</source>
        <translation>训练图像使用的 torchvision 变换；验证集和测试集图像不做增强：</translation>
    </message>
    <message>
        <source>Augmentation:</source>
        <translation>数据增强：</translation>
    </message>
    <message>
        <source>Loading the training images as a run loads them…</source>
        <translation>正在按训练时的方式加载训练图像…</translation>
    </message>
    <message>
        <source>Augmentation preview</source>
        <translation>数据增强预览</translation>
    </message>
    <message>
        <source>One training image and %1 variants of it, drawn as the training batches draw them. Only training images are augmented: validation and test images are shown to the model as they are.</source>
        <translation>一张训练图像及其 %1 个变体，随机抽取方式与训练批次相同。只有训练图像会被增强：验证集和测试集图像按原样输入模型。</translation>
    </message>
    <message>
        <source>Original:</source>
        <translation>原图：</translation>
    </message>
    <message>
        <source>New draws</source>
        <translation>重新抽取</translation>
    </message>
    <message>
        <source>Another image</source>
        <translation>换一张图像</translation>
    </message>
    <message>
        <source>No preview: %1</source>
        <translation>无法预览：%1</translation>
    </message>
    <message>
        <source>No augmentation is on: every variant is the image itself. Set data.augment.* (hflip, crop_padding, random_resized_crop, color_jitter, rotation) in All settings.</source>
        <translation>未启用数据增强：每个变体都与原图相同。请在“全部设置”中设置 data.augment.*（hflip、crop_padding、random_resized_crop、color_jitter、rotation）。</translation>
    </message>
    <message>
        <source>Training image %1 of %2; %3 variants made in %4 ms.</source>
        <translation>训练图像 %1 / %2；%3 个变体用时 %4 毫秒。</translation>
    </message>
    <message>
        <source>Epoch %1 waited for its batches %2 % of its training time: the data loader, not the model, sets the pace. Use more workers (data.workers) or cache the data.</source>
        <translation>第 %1 轮有 %2 % 的训练时间在等待批次数据：决定速度的是数据加载器而不是模型。请增加加载线程（data.workers）或缓存数据。</translation>
    </message>
    <message>
        <source>%1, %2 % waiting for data</source>
        <translation>%1，%2 % 时间在等待数据</translation>
    </message>
    <message>
        <source>Augmentation</source>
        <translation>数据增强</translation>
    </message>
    <message>
        <source>training and validation (teaching mistake)</source>
        <translation>训练集和验证集（教学错误）</translation>
    </message>
    <message>
        <source>training only</source>
        <translation>仅训练集</translation>
    </message>
    <message>
        <source>bilinear</source>
        <translation>双线性</translation>
    </message>
    <message>
        <source>nearest</source>
        <translation>最近邻</translation>
    </message>
    <message>
        <source>bicubic</source>
        <translation>双三次</translation>
    </message>
    <message>
        <source>area</source>
        <translation>区域平均</translation>
    </message>
    <message>
        <source>How images are resized to the size (data.image_folder.resize): bilinear with antialiasing is torchvision&apos;s Resize default.</source>
        <translation>图像缩放到指定尺寸的方式（data.image_folder.resize）：带抗锯齿的双线性插值是 torchvision Resize 的默认方式。</translation>
    </message>
    <message>
        <source>Augment the validation images too</source>
        <translation>验证图像也做数据增强</translation>
    </message>
    <message>
        <source>Validation went through the training augmentation: validation loss %1 against %2 on the clean images, accuracy %3% against %4%. Each epoch draws other crops and flips, so this validation loss is noisy and too high. Validate with the deterministic transforms only.</source>
        <translation>验证集经过了训练用的数据增强：验证损失 %1，而在未增强的图像上为 %2；准确率 %3%，而未增强时为 %4%。每个 epoch 抽取的裁剪和翻转都不同，所以这个验证损失噪声大且偏高。验证应只用确定性的变换。</translation>
    </message>
    <message>
        <source>Validation went through the training augmentation: validation loss %1 against %2 on the clean images. Each epoch draws other crops and flips, so this validation loss is noisy and too high. Validate with the deterministic transforms only.</source>
        <translation>验证集经过了训练用的数据增强：验证损失 %1，而在未增强的图像上为 %2。每个 epoch 抽取的裁剪和翻转都不同，所以这个验证损失噪声大且偏高。验证应只用确定性的变换。</translation>
    </message>
    <message>
        <source>System</source>
        <translation>系统</translation>
    </message>
    <message>
        <source>Show the worst samples</source>
        <translation>显示最差的样本</translation>
    </message>
    <message>
        <source>Evaluate keeps no samples: the Evaluation tab of a training run shows them.</source>
        <translation>“评估”不保留样本：训练运行的“评估”标签页会显示它们。</translation>
    </message>
    <message numerus="yes">
        <source>The %n validation sample(s) with the highest loss, worst first (click a cell of the matrix for its samples):</source>
        <translation>
            <numerusform>损失最高的 %n 个验证样本，最差的在前（点击矩阵中的格子可查看该格的样本）：</numerusform>
        </translation>
    </message>
    <message>
        <source>True %1, predicted %2: no validation sample.</source>
        <translation>真实 %1，预测 %2：没有验证样本。</translation>
    </message>
    <message>
        <source>True %1, predicted %2: %3 sample(s); evaluate keeps none of them.</source>
        <translation>真实 %1，预测 %2：%3 个样本；“评估”不保留这些样本。</translation>
    </message>
    <message numerus="yes">
        <source>True %1, predicted %2 (the class of the highest probability): the first %n of %3 sample(s) in the validation split.</source>
        <translation>
            <numerusform>真实 %1，预测 %2（概率最高的类别）：验证集中 %3 个样本里的前 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>Threshold 0.50: %1 when its probability is the higher one (the model&apos;s decision). Move the slider to trade precision (%2) against recall (%3).</source>
        <translation>阈值 0.50：当 %1 的概率较高时预测为它（模型自己的决定）。拖动滑块可在精确率（%2）和召回率（%3）之间权衡。</translation>
    </message>
    <message>
        <source>Threshold %1: %2 when its probability is at least %1; precision %3, recall %4.</source>
        <translation>阈值 %1：当 %2 的概率不低于 %1 时预测为它；精确率 %3，召回率 %4。</translation>
    </message>
    <message>
        <source>ROC curves</source>
        <translation>ROC 曲线</translation>
    </message>
    <message>
        <source>Click to see these samples.</source>
        <translation>点击查看这些样本。</translation>
    </message>
    <message>
        <source>Per class against the rest: precision (of the samples predicted as the class, the share that is right), recall (of the class&apos;s samples, the share found), F1 (their harmonic mean), AP (the area under the precision-recall curve) and ROC AUC (the chance that a sample of the class scores higher than one of another class; 0.5 is guessing).</source>
        <translation>每个类别对其余类别：精确率（被预测为该类的样本中预测正确的比例）、召回率（该类样本中被找出的比例）、F1（两者的调和平均）、AP（精确率-召回率曲线下的面积）和 ROC AUC（该类的一个样本得分高于其他类别一个样本的概率；0.5 相当于瞎猜）。</translation>
    </message>
    <message>
        <source>F1</source>
        <translation>F1</translation>
    </message>
    <message>
        <source>AP</source>
        <translation>AP</translation>
    </message>
    <message>
        <source>ROC AUC</source>
        <translation>ROC AUC</translation>
    </message>
    <message>
        <source>%1 (AUC %2)</source>
        <translation>%1（AUC %2）</translation>
    </message>
    <message>
        <source>%1 (AP %2)</source>
        <translation>%1（AP %2）</translation>
    </message>
    <message>
        <source>ROC curves: for each class against the rest, the share of its samples found (true positive rate) against the share of other samples wrongly taken for it (false positive rate) as the threshold on its probability falls; the dashed line is guessing.</source>
        <translation>ROC 曲线：对每个类别（相对其余类别），随着其概率阈值降低，该类样本被找出的比例（真阳性率）相对于其他样本被误判为该类的比例（假阳性率）；虚线相当于瞎猜。</translation>
    </message>
    <message>
        <source>Precision-recall curves: for each class against the rest, precision against recall as the threshold on its probability falls; a curve near the top right is a class the model separates well.</source>
        <translation>精确率-召回率曲线：对每个类别（相对其余类别），随着其概率阈值降低，精确率随召回率的变化；靠近右上角的曲线表示模型能很好地区分这个类别。</translation>
    </message>
    <message>
        <source>(Curves thinned to 1,000 points.)</source>
        <translation>（曲线已抽稀到 1,000 个点。）</translation>
    </message>
    <message>
        <source>false positive rate</source>
        <translation>假阳性率</translation>
    </message>
    <message>
        <source>recall</source>
        <translation>召回率</translation>
    </message>
    <message>
        <source>true positive rate</source>
        <translation>真阳性率</translation>
    </message>
    <message>
        <source>precision</source>
        <translation>精确率</translation>
    </message>
    <message>
        <source>Embedding</source>
        <translation>嵌入</translation>
    </message>
    <message>
        <source>core %1: %2% busy</source>
        <translation>核心 %1：%2% 繁忙</translation>
    </message>
    <message numerus="yes">
        <source>%1% of all %n core(s)</source>
        <translation>
            <numerusform>占全部 %n 个核心的 %1%</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 resident, %2 available</source>
        <translation>常驻 %1，可用 %2</translation>
    </message>
    <message>
        <source>%1 torch (intra-op), %2 in the process</source>
        <translation>torch（算子内）%1 个，进程共 %2 个</translation>
    </message>
    <message>
        <source>%1 in the process</source>
        <translation>进程共 %1 个</translation>
    </message>
    <message>
        <source>%1 samples/s, %2% of the time waiting for data</source>
        <translation>每秒 %1 个样本，%2% 的时间在等待数据</translation>
    </message>
    <message>
        <source>– (no training steps in the last second)</source>
        <translation>–（最近一秒没有训练步）</translation>
    </message>
    <message>
        <source>%1 torch threads x %2 training processes ask for more than the %3 cores: they take turns and each run is slower. Give each run fewer threads (training.num_threads) or run fewer at once.</source>
        <translation>%1 个 torch 线程 × %2 个训练进程，超过了 %3 个核心：它们只能轮流运行，每次训练都会变慢。请给每次运行更少的线程（training.num_threads），或同时运行更少的训练。</translation>
    </message>
    <message>
        <source>kernel %1</source>
        <translation>内核 %1</translation>
    </message>
    <message>
        <source>A generic kernel on a CPU with %1: starting TrainScope with %2 selects its kernels, for faster matrix products (results then differ from other runs in the last bits). TrainScope never sets it.</source>
        <translation>在支持 %1 的 CPU 上使用了通用内核：用 %2 启动 TrainScope 可选用相应内核，矩阵乘法更快（结果会与其他运行在最后几位上有差异）。TrainScope 从不自动设置它。</translation>
    </message>
    <message>
        <source>This process and this machine, read once a second while this tab is shown (a run&apos;s folder keeps the same figures in system.csv).</source>
        <translation>本进程和本机的情况，在此标签页显示时每秒读取一次（运行文件夹的 system.csv 中记录了同样的数据）。</translation>
    </message>
    <message>
        <source>Cores:</source>
        <translation>核心：</translation>
    </message>
    <message>
        <source>Threads:</source>
        <translation>线程：</translation>
    </message>
    <message>
        <source>Training:</source>
        <translation>训练：</translation>
    </message>
    <message>
        <source>This process&apos;s CPU time (all its threads) as a share of all cores: 100% is every core busy with it.</source>
        <translation>本进程（所有线程）的 CPU 时间占全部核心的比例：100% 表示所有核心都在为它工作。</translation>
    </message>
    <message>
        <source>Load of each core (any process)</source>
        <translation>每个核心的负载（所有进程）</translation>
    </message>
    <message>
        <source>After each epoch of a classification run: the validation samples as the network sees them just before its last layer, flattened onto the two directions along which they differ most (PCA). Classes that separate here are easy for the last layer.</source>
        <translation>分类训练的每一轮之后：验证样本在网络最后一层之前的样子，投影到它们差异最大的两个方向上（PCA）。在这里分得开的类别，对最后一层来说就容易区分。</translation>
    </message>
    <message>
        <source>Sample %1: %2</source>
        <translation>样本 %1：%2</translation>
    </message>
    <message>
        <source>Bring the view &lt;key&gt; to the front: %1.</source>
        <translation>把视图 &lt;key&gt; 显示在最前面：%1。</translation>
    </message>
    <message>
        <source>--view %1: no such view (one of %2).</source>
        <translation>--view %1：没有这个视图（可选：%2）。</translation>
    </message>
    <message>
        <source>Evaluation after epoch %1</source>
        <translation>第 %1 轮之后的评估</translation>
    </message>
    <message>
        <source>Open in a window</source>
        <translation>在新窗口中打开</translation>
    </message>
    <message>
        <source>This epoch&apos;s evaluation in a window of its own, large enough for the curves; training goes on here.</source>
        <translation>在单独的窗口中查看这一轮的评估，窗口足够大，曲线看得清楚；训练在这里继续进行。</translation>
    </message>
    <message>
        <source>Each class against the rest; the dashed line is guessing.</source>
        <translation>每个类别对其余类别；虚线相当于瞎猜。</translation>
    </message>
    <message>
        <source>Each class against the rest; near the top right is good.</source>
        <translation>每个类别对其余类别；越靠近右上角越好。</translation>
    </message>
    <message>
        <source>Grad-CAM</source>
        <translation>Grad-CAM</translation>
    </message>
    <message>
        <source>Where the network looks: the last convolution&apos;s feature maps, each weighted by how much the class score grows with it (Grad-CAM), laid over the image.</source>
        <translation>网络在看哪里：最后一个卷积层的特征图，按类别得分随它增长的程度加权（Grad-CAM），叠加在图像上。</translation>
    </message>
    <message>
        <source>signed</source>
        <translation>带符号</translation>
    </message>
    <message>
        <source>Signed: red where the image speaks for the class, blue where it speaks against it; unticked (the usual Grad-CAM) only the red part.</source>
        <translation>带符号：红色表示图像中支持该类别的部分，蓝色表示反对该类别的部分；不勾选时（通常的 Grad-CAM）只显示红色部分。</translation>
    </message>
    <message>
        <source>predicted class</source>
        <translation>预测类别</translation>
    </message>
    <message>
        <source>class %1</source>
        <translation>类别 %1</translation>
    </message>
    <message>
        <source>The worst samples, or a clicked cell&apos;s</source>
        <translation>最差的样本，或所点击格子中的样本</translation>
    </message>
    <message>
        <source>Precision, recall, F1, AP and ROC AUC per class</source>
        <translation>每个类别的精确率、召回率、F1、AP 和 ROC AUC</translation>
    </message>
    <message>
        <source>PR</source>
        <translation>PR</translation>
    </message>
    <message>
        <source>Precision-recall curves</source>
        <translation>精确率-召回率曲线</translation>
    </message>
    <message>
        <source>ROC</source>
        <translation>ROC</translation>
    </message>
    <message>
        <source>PC 1</source>
        <translation>PC 1</translation>
    </message>
    <message>
        <source>PC 2</source>
        <translation>PC 2</translation>
    </message>
    <message>
        <source>Samples</source>
        <comment>tab</comment>
        <translation>样本</translation>
    </message>
    <message>
        <source>Epoch %1: %2 validation samples, the %3 features before the last layer on their two principal components (%4% of the variance).</source>
        <translation>第 %1 轮：%2 个验证样本在最后一层之前的 %3 个特征，投影到前两个主成分上（占方差的 %4%）。</translation>
    </message>
    <message>
        <source>Up to 5,000 validation samples, stratified by class, as the network sees them just before its last layer, projected by PCA onto the two directions along which they differ most. Hover a point for its sample and class.</source>
        <translation>最多 5,000 个按类别分层抽取的验证样本在网络最后一层之前的样子，用 PCA 投影到它们差异最大的两个方向上。把鼠标停在点上可查看对应的样本和类别。</translation>
    </message>
    <message>
        <source>Validation after epoch %1: %2 of %3 samples right (%4).</source>
        <translation>第 %1 轮后的验证结果：%3 个样本中答对 %2 个（%4）。</translation>
    </message>
    <message>
        <source>Distributions</source>
        <translation>分布</translation>
    </message>
    <message>
        <source>PCA</source>
        <translation>PCA</translation>
    </message>
    <message>
        <source>t-SNE</source>
        <translation>t-SNE</translation>
    </message>
    <message>
        <source>t-SNE 1</source>
        <translation>t-SNE 1</translation>
    </message>
    <message>
        <source>t-SNE 2</source>
        <translation>t-SNE 2</translation>
    </message>
    <message>
        <source>Computing t-SNE: iteration %1 of %2...</source>
        <translation>正在计算 t-SNE：第 %1 步，共 %2 步……</translation>
    </message>
    <message>
        <source>Epoch %1: t-SNE of %2 validation samples (perplexity 30, KL divergence %3). Near neighbours stay near; the distances between clusters mean little.</source>
        <translation>第 %1 轮：%2 个验证样本的 t-SNE（困惑度 30，KL 散度 %3）。近邻依旧相近；簇与簇之间的距离意义不大。</translation>
    </message>
    <message>
        <source>%1: %2%</source>
        <translation>%1：%2%</translation>
    </message>
    <message>
        <source>Step %1: half of the weights of %2 lie between %3 and %4; all of them between %5 and %6.</source>
        <translation>第 %1 步：%2 的权重有一半落在 %3 到 %4 之间；全部落在 %5 到 %6 之间。</translation>
    </message>
    <message>
        <source>Step %1: half of the gradients of %2 lie between %3 and %4; all of them between %5 and %6.</source>
        <translation>第 %1 步：%2 的梯度有一半落在 %3 到 %4 之间；全部落在 %5 到 %6 之间。</translation>
    </message>
    <message>
        <source>Step %1: half of the outputs of layer %2 on %3 validation samples lie between %4 and %5; all of them between %6 and %7.</source>
        <translation>第 %1 步：第 %2 层在 %3 个验证样本上的输出有一半落在 %4 到 %5 之间；全部落在 %6 到 %7 之间。</translation>
    </message>
    <message>
        <source>%1% of its units are dead: 0 for every one of those samples.</source>
        <translation>其中 %1% 的单元已“死亡”：对这些样本全部输出 0。</translation>
    </message>
    <message>
        <source>Dead ReLU units per layer: %1</source>
        <translation>各层“死亡”的 ReLU 单元：%1</translation>
    </message>
    <message>
        <source>Weights</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradients</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Activations</source>
        <translation>激活值</translation>
    </message>
    <message>
        <source>Bands, from light to dark: all values, 7-93%, 16-84% and 31-69% of them; the line is the median.</source>
        <translation>色带由浅到深：全部数值，以及第 7–93、16–84 和 31–69 百分位之间的数值；线为中位数。</translation>
    </message>
    <message>
        <source>Grad norm</source>
        <comment>tab</comment>
        <translation>梯度范数</translation>
    </message>
    <message>
        <source>PCA: the two directions along which the points differ most (exact, computed every epoch). t-SNE: a map that keeps each point&apos;s near neighbours near; distances between clusters mean little (computed on request, up to 1,000 points).</source>
        <translation>PCA：各点差异最大的两个方向（精确，每轮计算）。t-SNE：一张让每个点的近邻依旧相近的图；簇与簇之间的距离意义不大（按需计算，最多 1,000 个点）。</translation>
    </message>
    <message>
        <source>No distributions for this run: training.distributions_every is 0 (off).</source>
        <translation>本次运行没有分布记录：training.distributions_every 为 0（已关闭）。</translation>
    </message>
    <message>
        <source>Weight</source>
        <translation>权重</translation>
    </message>
    <message>
        <source>Gradient</source>
        <translation>梯度</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Each layer&apos;s weights, gradients and activations appear here while a run trains (every training.distributions_every steps; by default at step 10, every 500 steps and at the end).</source>
        <translation>训练进行时，这里显示每一层的权重、梯度和激活值（每 training.distributions_every 步记录一次；默认在第 10 步、每 500 步以及训练结束时记录）。</translation>
    </message>
    <message>
        <source>Export &amp;model...</source>
        <translation>导出模型(&amp;M)...</translation>
    </message>
    <message>
        <source>Save the shown run&apos;s trained model as ONNX or TorchScript, to run outside TrainScope (OpenCV, onnxruntime, PyTorch), with a model card describing it.</source>
        <translation>把当前显示的运行训练好的模型保存为 ONNX 或 TorchScript，以便在 TrainScope 之外运行（OpenCV、onnxruntime、PyTorch），并附上一份说明它的模型卡片。</translation>
    </message>
    <message>
        <source>Export model</source>
        <translation>导出模型</translation>
    </message>
    <message>
        <source>ONNX (OpenCV, onnxruntime, ...)</source>
        <translation>ONNX（OpenCV、onnxruntime 等）</translation>
    </message>
    <message>
        <source>TorchScript (torch.jit.load)</source>
        <translation>TorchScript（torch.jit.load）</translation>
    </message>
    <message>
        <source>Format:</source>
        <translation>格式：</translation>
    </message>
    <message>
        <source>Best (lowest validation loss)</source>
        <translation>最佳（验证损失最低）</translation>
    </message>
    <message>
        <source>Last (the final weights)</source>
        <translation>最后（最终的权重）</translation>
    </message>
    <message>
        <source>Weights:</source>
        <translation>权重：</translation>
    </message>
    <message>
        <source>Include the run&apos;s preprocessing (inputs as stored: pixels 0-255)</source>
        <translation>包含本次运行的预处理（输入为原始存储值：像素 0-255）</translation>
    </message>
    <message>
        <source>Output probabilities (softmax) instead of logits</source>
        <translation>输出概率（softmax），而不是 logits</translation>
    </message>
    <message>
        <source>Browse...</source>
        <translation>浏览...</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>This run has no checkpoint to export yet.</source>
        <translation>这次运行还没有可以导出的检查点。</translation>
    </message>
    <message>
        <source>ONNX (opset 13) is written for MLP and CNN models; a model card (.model-card.md and .json) is written beside the file.</source>
        <translation>ONNX（opset 13）适用于 MLP 和 CNN 模型；模型卡片（.model-card.md 和 .json）会写在文件旁边。</translation>
    </message>
    <message>
        <source>TorchScript is written for every model kind; a model card (.model-card.md and .json) is written beside the file.</source>
        <translation>TorchScript 适用于所有模型类型；模型卡片（.model-card.md 和 .json）会写在文件旁边。</translation>
    </message>
    <message>
        <source>ONNX model (*.onnx)</source>
        <translation>ONNX 模型 (*.onnx)</translation>
    </message>
    <message>
        <source>TorchScript module (*.pt)</source>
        <translation>TorchScript 模块 (*.pt)</translation>
    </message>
    <message>
        <source>Written: %1 (epoch %2), with its model card %3.</source>
        <translation>已写入：%1（第 %2 轮），以及它的模型卡片 %3。</translation>
    </message>
    <message>
        <source>Not exported: %1</source>
        <translation>未导出：%1</translation>
    </message>
    <message>
        <source>Open a lesson: a built-in one by name (%1) or a lesson file.</source>
        <translation>打开一节课：按名称打开内置课程（%1），或打开课程文件。</translation>
    </message>
    <message>
        <source>The loss stays above chance: a constant prediction would do better. The updates are too large (the learning rate is too high).</source>
        <translation>损失一直高于随机水平：始终给出同一个预测反而更好。更新步长过大（学习率太高）。</translation>
    </message>
    <message>
        <source>Regularise more: raise the weight decay (now %1) or the dropout (now %2).</source>
        <translation>加强正则化：调高权重衰减（当前 %1）或 dropout（当前 %2）。</translation>
    </message>
    <message>
        <source>the loss is diverging: the updates are too large</source>
        <translation>损失正在发散：更新步长过大</translation>
    </message>
</context>
</TS>

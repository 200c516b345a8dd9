// Types of embedlab.mjs, the embedlab core compiled to WebAssembly (see README.md).
//
// Every options object (the last arguments named options, view, streamOptions, and the nested
// heatmap and optimizer) takes exactly the keys declared here: another key throws an
// EmbedlabError that names it, lists the keys the object takes and, for a key spelled as PyTorch
// spells it (padding_idx, block_rows) or nearly as one of them (blockrows), says which was meant:
// "backward: options has no key 'padding_idx' (did you mean 'paddingIdx'?): its keys are
// paddingIdx and scaleGradByFreq". Each value is checked for its type and range (counts such as
// blockRows, heatmap.rows and topK are whole numbers, 0 or more; paddingIdx a whole number, whose
// range [-V, V) the core checks against the table). A key left out, undefined or null takes its
// default.

/** A row-major float32 matrix, like a contiguous torch tensor: element (i, j) is data[i * cols + j]. */
export interface Matrix {
  rows: number;
  cols: number;
  data: Float32Array;
}

/** What a matrix argument may be: data may also be a plain array or another numeric typed array. */
export interface MatrixLike {
  rows: number;
  cols: number;
  data: ArrayLike<number>;
}

/** Token ids: an Array or a numeric typed array of whole numbers (parseIds gives a Float64Array). */
export type IdsLike = ArrayLike<number>;

/** The input an error is about, as the core names it (PyTorch's argument names). */
export type EmbedlabArgument =
  | 'ids'
  | 'vocab'
  | 'dim'
  | 'seed'
  | 'weights'
  | 'grad'
  | 'offsets'
  | 'mode'
  | 'padding_idx'
  | 'per_sample_weights'
  | 'max_norm'
  | 'norm_type'
  | 'onehot'
  | 'compared'
  | 'optimizer'
  | 'lr'
  | 'momentum'
  | 'dampening'
  | 'nesterov'
  | 'weight_decay'
  | 'betas'
  | 'eps'
  | 'amsgrad'
  | 'lr_decay'
  | 'initial_accumulator_value'
  | 'alpha'
  | 'centered'
  | 'maximize'
  | 'max_length'
  | 'stride'
  | 'batch_size'
  | 'epochs';

/** Bad input: the message is the core's, meant to be shown verbatim to a learner. */
export class EmbedlabError extends Error {
  constructor(message: string, argument?: EmbedlabArgument | null);
  name: 'EmbedlabError';
  /** which input to show the message beside; null where none is to blame (out of memory) */
  argument: EmbedlabArgument | null;
}

/** parseSampleWeights' result: the weights, each as typed, and as a Python float literal
 * ("1" -> "1.0"). */
export interface SampleWeights {
  values: Float32Array;
  texts: string[];
  literals: string[];
}

/** A (rows, cols) tensor read element by element: a table's window of rows, W.T without a copy. */
export interface Cells {
  rows: number;
  cols: number;
  at(i: number, j: number): number;
}

export interface Comparison {
  /** rows * cols */
  elements: number;
  /** same 32-bit pattern */
  bitIdentical: number;
  /** same value: bit-identical, +0 vs -0, or NaN on both sides */
  valueEqual: number;
  /** NaN on one side only */
  nanMismatches: number;
  /** -0.0 vs +0.0 */
  signedZeroMismatches: number;
  /** over elements finite on both sides */
  maxAbsDiff: number;
  /** every element bit-identical */
  identical: boolean;
  /** torch.equal(expected, actual): every element equal as a float (-0.0 equals +0.0; NaN
   * equals nothing, itself included), what a script that checks both routes prints */
  torchEqual: boolean;
  /** The core's grade: what every front end (CLI, page, element) prints. */
  grade: Grade;
}

/** How far two results agree, graded once, in the core. */
export interface Grade {
  /** best first; also the grade's class in the page's style sheets */
  state: 'identical' | 'value' | 'rounding' | 'differs';
  /** "bit-identical", "equal in value", "equal up to rounding" or "differs"; "differs, as
   * PyTorch defines it" where `defined` is set */
  headline: string;
  /** why, in one sentence */
  sentence: string;
  /** the largest |difference|: NaN where an element is NaN on one side only, Infinity where an
   * infinity meets a number */
  maxAbsDiff: number;
  /** maxAbsDiff as it is printed: "0", "1.1921e-07", "nan" or "inf" */
  maxAbsDiffText: string;
  /** the largest distance in ulps over the elements finite on both sides */
  maxUlps: number;
  /** the row-major positions of the elements whose bits differ, or null when none do */
  differing: Int32Array | null;
  /** A difference PyTorch defines (the backward's padding_idx row, which onehot.T @ G knows
   * nothing of), where every other element agrees within rounding; else null. */
  defined: DefinedDifference | null;
}

export interface DefinedDifference {
  /** the row whose difference PyTorch defines */
  row: number;
  /** why the routes differ there, then the grade of everything else: printed between the
   * headline and the sentence */
  text: string;
  /** the grade of every other element */
  rest: { state: Grade['state']; headline: string };
}

/** The pairs of routes a comparison is graded for, each with its own reasons. */
export type RoutePair = 'lookup' | 'backward' | 'bag' | 'training' | 'sparse_training' | 'head';

export interface LinearParams {
  /** (outFeatures, inFeatures) */
  weight: Matrix;
  /** (1, outFeatures), or null without bias */
  bias: Matrix | null;
}

export interface FormatOptions {
  /** a line before, e.g. "Parameter containing:\n" */
  header?: string;
  /** e.g. ["requires_grad=True"] or ["grad_fn=<MmBackward0>"] */
  suffixes?: string[];
  /** print as integers, as F.one_hot's int64 tensor prints */
  integer?: boolean;
}

export interface EmbeddingOptions {
  /** that row gets no gradient; in [-V, V), negative counts from the end; null for none */
  paddingIdx?: number | null;
  /** divide each row's gradient by its id's count in the batch */
  scaleGradByFreq?: boolean;
}

export interface BagOptions extends EmbeddingOptions {
  /** nn.EmbeddingBag's reduction; default 'mean' */
  mode?: 'sum' | 'mean' | 'max';
  /** offsets has B + 1 entries, the last one n (CSR style); else B entries */
  includeLastOffset?: boolean;
  /** one weight per id, mode 'sum' only */
  perSampleWeights?: ArrayLike<number> | null;
}

export interface BagResult {
  /** (B, d); an empty bag gives a row of zeros */
  output: Matrix;
  /** (B) ids that count in each bag (padding left out) */
  bagSize: Float64Array;
  /** mode 'max': (B * d) the row of W each output element came from, -1 for an empty bag; else empty */
  maxRows: Float64Array;
}

/** One tensor of a .safetensors file, as its header lists it. */
export interface SafetensorsTensor {
  name: string;
  /** as written: 'BF16', 'F32', 'I64', ... (only a table's is checked) */
  dtype: string;
  /** [] for a scalar */
  shape: number[];
  /** its bytes are [begin, end) of the file */
  begin: number;
  end: number;
  /** 2-D and named like an embedding table (wte.weight, embed_tokens.weight, ...) */
  candidate: boolean;
  /** how it would become float32: "BF16 (bfloat16), converted to float32 exactly"; the dtype
   * alone where it cannot be a table */
  conversion: string;
}

/** safetensorsHeader's result. */
export interface SafetensorsHeader {
  fileSize: number;
  /** 8 + N: where the data section begins */
  dataStart: number;
  /** in the order of their bytes in the file */
  tensors: SafetensorsTensor[];
  /** "__metadata__": [key, value] pairs sorted by key */
  metadata: [string, string][];
  /** the tensor called name, or the one openSafetensorsTable opens without a name; or null */
  table: string | null;
  /** where table is null, why: several candidates, none, or one that cannot be a table */
  tableError: string | null;
}

/** ggufHeader's answer: the first bytes it needs, or a GGUF file's header. */
export type GgufHeaderAnswer = { needBytes: number } | GgufHeader;
export interface GgufHeader {
  version: 2 | 3;
  fileSize: number;
  dataStart: number;
  /** in the header's order; shape is ne reversed, (V, d) for a table; candidate: token_embd.weight */
  tensors: (SafetensorsTensor & { ne: number[] })[];
  /** [key, "TYPE: value"], the value cut short */
  metadata: [string, string][];
  /** whether output.weight is there (else the head is tied to token_embd.weight) */
  hasHead: boolean;
  /** the file's vocabulary (tokenizer.ggml.tokens): row i's token text; null where it has none */
  tokens: string[] | null;
  table: string | null;
  tableError: string | null;
}

/** safetensorsIndex's result. */
export interface SafetensorsIndex {
  /** [tensor, shard file name], in the index's order */
  weightMap: [string, string][];
  /** each shard once, in order of first mention */
  shards: string[];
  /** the table's tensor and the shard that holds it, or null */
  table: { tensor: string; shard: string } | null;
  /** where table is null, why: no tensor of that name, none named like a table, or several */
  tableError: string | null;
}

/** Where a table file's bytes come from, read synchronously a range at a time: a File in a
 * module worker (FileReaderSync on file.slice), a file in Node (fs.readSync), or bytes in memory.
 * read() must return exactly `length` bytes; what it throws is reported as the file's error. */
export interface TableSource {
  /** the file's length in bytes */
  size: number;
  read(offset: number, length: number): Uint8Array;
}

/** How far a streamed product (or gradient) has come, after each block of rows. */
export interface StreamProgress {
  /** rows of W read (or of the gradient made) so far, of rows = V */
  rowsDone: number;
  rows: number;
  /** bytes of the table's file read so far (its stored dtype), of bytes */
  bytesRead: number;
  bytes: number;
  /** multiply-adds done so far, of totalMultiplyAdds = n * V * d */
  multiplyAdds: number;
  totalMultiplyAdds: number;
  done: boolean;
}

export interface StreamOptions {
  /** rows of W per block, a whole number: 0 (default) for about 4 MiB of float32; rounded up to
   * a multiple of 512 */
  blockRows?: number;
  /** a heatmap of W gathered while the product streams: at most rows x cols pixels (whole
   * numbers; 0 for none), each the value of largest magnitude in its block of cells (a NaN if it
   * holds one), as web/heatmap.mjs draws it; null (default) for none */
  heatmap?: { rows?: number; cols?: number } | null;
}

/** The options of the methods that run a stream to its end (product(), heatmap(),
 * bagProduct(), backward()): their start method's, and onProgress. */
export interface Progressing {
  /** called after each block; returning false stops the run */
  onProgress?: ((progress: StreamProgress) => boolean | void) | null;
}

export interface GradientViewOptions extends StreamOptions {
  /** hold the (V, d) gradient whole when it fits the limits (default true) */
  whole?: boolean;
  /** rows kept besides the ones the ids ask for (e.g. the rows a view shows): whole numbers, 0
   * or more; those past the table are left out */
  keepRows?: ArrayLike<number>;
}

/** A (V, d) gradient as a view shows it: whole when it fits, else its kept rows and a summary. */
export interface GradientView {
  rows: number;
  cols: number;
  /** the whole gradient, or null when it is too large to hold (or not asked for) */
  whole: Matrix | null;
  /** the rows kept, ascending: those the ids ask for and keepRows */
  kept: Float64Array;
  /** (kept.length, cols): their values */
  keptRows: Matrix;
  /** rows with an element other than +-0 (NaN counts) */
  nonzeroRows: number;
  /** rows holding a NaN */
  nanRows: number;
  /** the largest |x| of a finite element */
  maxAbs: number;
  /** the heatmap, if asked for */
  heatmap: Matrix | null;
}

/** A streamed computation run a block at a time: step() until done, then result(). */
export interface Run<Result> {
  readonly progress: StreamProgress;
  readonly done: boolean;
  /** up to `blocks` more blocks of rows (default 1); the progress after them */
  step(blocks?: number): StreamProgress;
  /** the result, once done (an EmbedlabError before) */
  result(): Result;
  /** frees its WASM memory; a run not deleted is freed when collected */
  delete(): void;
}

export interface ProductResult {
  /** E W: the one-hot (or multi-hot) product */
  product: Matrix;
  /** with the lookup's rows (or the bags' output); null for a heatmap pass */
  comparison: Comparison | null;
  /** of W, if asked for */
  heatmap: Matrix | null;
  /** the core's sentences on what each route cost (the one-hot product's: "The lookup copied
   * n·d = 15 floats; the one-hot product did n·V·d = 60 multiply-adds, 45 of them by zero."),
   * as the CLI prints them; empty for the bags' (embeddingBag's notes say it) and a heatmap's */
  notes: string[];
}

/** startProduct()'s run: the lookup's rows at once, the product when done. */
export interface ProductRun extends Run<ProductResult> {
  /** the lookup's rows (startBagProduct: the bags' output; startHeatmap: null) */
  readonly expected: Matrix | null;
}

/** startBackward()'s run: the lookup's gradient (a scatter-add) at once, onehot^T G when done. */
/** notes: the core's sentences on the result (padding_idx, repeated ids, the work of each
 * route), as the CLI prints them. */
export interface GradientRun extends Run<{
  gemm: GradientView;
  comparison: Comparison;
  notes: string[];
}> {
  readonly scatter: GradientView;
}

/** What product(), bagProduct(), heatmap() and backward() return: the run's result and what it
 * had at once, or, when onProgress stopped it, only the latter with stopped = true. */
export interface Finished {
  stopped: boolean;
  progress: StreamProgress;
}

/** A table opened once and computed on where it is: its rows in WASM memory, or read through its
 * source when a computation needs them. Methods take ids and small matrices; W never crosses. */
export interface Table {
  readonly rows: number;
  readonly cols: number;
  /** how it is stored: its rows become float32 exactly as a whole conversion gives them */
  readonly dtype: 'F32' | 'F64' | 'F16' | 'BF16' | 'Q8_0' | 'Q4_0' | 'Q4_K' | 'Q6_K';
  /** the tensor's name in its .safetensors file, else null */
  readonly name: string | null;
  /** "BF16 (bfloat16), converted to float32 exactly", "F32 (float32), as stored", ... */
  readonly conversion: string;
  /** its rows are in WASM memory (else each computation reads the source) */
  readonly inMemory: boolean;
  /** the bytes its rows take in their stored dtype */
  readonly storedBytes: number;
  /** values per stored block (1, or ggml's 32 or 256) and the bytes of one */
  readonly blockValues: number;
  readonly blockBytes: number;
  /** the stored blocks decoded into float32 so far by every computation on this table */
  blocksDecoded(): number;
  /** What each route decoded, from blocksDecoded() taken around the lookup and around the
   * product, as the CLI's last line says it: "blocks decoded (Q4_K, 256 weights in 144 bytes
   * each): the lookup 32 (2 rows x 16), the product …" */
  blocksDecodedNote(lookup: number, product: number): string;
  /** The lookup: its n rows read, nothing else. */
  lookup(ids: IdsLike): Matrix;
  /** Rows [first, first + count): a window of W for a view (the rows around the selected ids). */
  rowsAt(first: number, count: number): Matrix;
  /** The one-hot product streamed through W, a block of rows per step(). */
  startProduct(ids: IdsLike, options?: StreamOptions | null): ProductRun;
  /** startProduct() run to its end (or until onProgress returns false). */
  product(
    ids: IdsLike,
    options?: (StreamOptions & Progressing) | null,
  ): Finished & Partial<ProductResult> & { lookup: Matrix };
  /** A pass over W for its heatmap alone (options.heatmap). */
  startHeatmap(options?: StreamOptions | null): ProductRun;
  heatmap(options?: (StreamOptions & Progressing) | null): Finished & Partial<ProductResult>;
  /** F.embedding_bag on the table (bag b starts at offsets[b]), the rows the bags name read
   * once, with the core's notes on the bags (padding_idx, mode 'max', the work of each route),
   * as the CLI prints them. */
  embeddingBag(
    ids: IdsLike,
    offsets: IdsLike,
    options?: BagOptions | null,
  ): BagResult & { notes: string[] };
  /** The multi-hot matrix M (B, V) whose product with the table gives the sum or mean bags
   * (an error for mode 'max'), held whole. */
  bagMatrix(ids: IdsLike, offsets: IdsLike, options?: BagOptions | null): Matrix;
  /** The bags' output at once (expected), and M W streamed (mode sum or mean). */
  startBagProduct(
    ids: IdsLike,
    offsets: IdsLike,
    options?: BagOptions | null,
    streamOptions?: StreamOptions | null,
  ): ProductRun;
  bagProduct(
    ids: IdsLike,
    offsets: IdsLike,
    options?: BagOptions | null,
    streamOptions?: (StreamOptions & Progressing) | null,
  ): Finished & Partial<ProductResult> & { bags: Matrix };
  /** The lookup's gradient for G (n, d) at once (scatter), and onehot^T G streamed (V, d). */
  startBackward(
    ids: IdsLike,
    G: MatrixLike,
    options?: EmbeddingOptions | null,
    view?: GradientViewOptions | null,
  ): GradientRun;
  backward(
    ids: IdsLike,
    G: MatrixLike,
    options?: EmbeddingOptions | null,
    view?: (GradientViewOptions & Progressing) | null,
  ): Finished & { scatter: GradientView; gemm?: GradientView; comparison?: Comparison };
  /** The bags' gradient as a view; forward is embeddingBag()'s result for the same input. */
  bagBackward(
    ids: IdsLike,
    offsets: IdsLike,
    G: MatrixLike,
    forward: BagResult,
    options?: BagOptions | null,
    view?: GradientViewOptions | null,
  ): GradientView;
  /** nn.Embedding(max_norm)'s renormalisation: a new table with the rows scaled; this one stays. */
  renorm(
    ids: IdsLike,
    maxNorm: number,
    normType?: number,
  ): { table: Table; scaledRows: Float64Array };
  /** Frees its WASM memory (runs already started keep theirs); a table not deleted is freed when
   * collected. */
  delete(): void;
}

/** An optimizer's name as the API takes it. */
export type OptimizerName = 'sgd' | 'adam' | 'adamw' | 'adagrad' | 'rmsprop' | 'sparse-adam';

/** One hyperparameter an optimizer's constructor takes, with PyTorch's default. */
export interface OptimizerArgument {
  /** as torch.optim names it: 'lr', 'momentum', 'weight_decay', 'betas', 'nesterov', ... */
  name: EmbedlabArgument;
  /** a number (lr=0.1), a flag (nesterov=True) or a pair (betas=(0.9, 0.999)) */
  form: 'number' | 'flag' | 'pair';
  /** PyTorch's default: a number, a boolean, or [beta1, beta2] */
  default: number | boolean | [number, number];
  /** the default as Python writes it: "0.001", "1e-08", "False", "0.9, 0.999" */
  text: string;
}

export interface OptimizerInfo {
  name: OptimizerName;
  /** the class in torch.optim: 'SGD', 'Adam', 'AdamW', 'Adagrad', 'RMSprop', 'SparseAdam' */
  className: string;
  /** the keyword arguments its constructor takes besides params, in its signature's order */
  arguments: readonly OptimizerArgument[];
}

/** An optimizer and the hyperparameters that differ from PyTorch's defaults (null or left out:
 * the default), named as torch.optim names them. */
export interface OptimizerOptions {
  name: OptimizerName;
  lr?: number | null;
  momentum?: number | null;
  dampening?: number | null;
  weight_decay?: number | null;
  nesterov?: boolean | null;
  maximize?: boolean | null;
  betas?: [number, number] | null;
  eps?: number | null;
  amsgrad?: boolean | null;
  lr_decay?: number | null;
  initial_accumulator_value?: number | null;
  alpha?: number | null;
  centered?: boolean | null;
}

export interface TrainingOptions {
  optimizer: OptimizerOptions;
  /** nn.Embedding(..., sparse=True): the embedding's gradient is sparse. Default: false. */
  sparse?: boolean;
  /** nn.Embedding's padding_idx, in [-V, V): its row gets no gradient. Default: null. */
  paddingIdx?: number | null;
}

/** Why a row of embedding.weight changed in a step, in the core's order: the first that applies. */
export interface RowCause {
  name: 'batch' | 'weight_decay' | 'momentum' | 'optimizer_state' | 'head';
  /** "in the batch", "weight decay", "momentum", "optimizer state", "the tied head" */
  text: string;
}

/** One step of both routes. */
export interface TrainingStep {
  /** 1 for the first */
  step: number;
  batch: Float64Array;
  /** G = torch.randn(len(batch), d): (n, d) */
  upstream: Matrix;
  /** embedding.weight after the step: (V, d) */
  embeddingWeight: Matrix;
  /** linear.weight.T after the step, or null where the Linear route cannot follow */
  linearWeight: Matrix | null;
  /** embedding.weight's rows whose bits changed, ascending, and why: causes[i] indexes
   * rowCauses (roles: all 'none' here) */
  changed: { rows: Float64Array; causes: Uint8Array; roles: Uint8Array };
  /** linear.weight.T's rows whose bits changed, or null */
  linearChanged: Float64Array | null;
  /** embedding.weight against linear.weight.T, graded ('training' or 'sparse_training'), or null */
  verdict: Comparison | null;
}

/** optimizer.state[embedding.weight] for one row of W. */
export interface RowState {
  /** the steps taken */
  step: number;
  /** each piece the optimizer has made so far ('momentum_buffer', 'exp_avg', 'exp_avg_sq',
   * 'max_exp_avg_sq', 'sum', 'square_avg', 'grad_avg'), that row of it: (1, d), or for SGD's
   * sparse momentum buffer one row per entry it holds for the row */
  state: { name: string; values: Matrix }[];
}

/** nn.Embedding and nn.Linear(V, d, bias=False) on one-hot rows, trained side by side in WASM
 * memory; delete() frees it (or it is freed when collected). */
export interface Training {
  readonly vocab: number;
  readonly dim: number;
  /** embedding.weight before the first step: (V, d) */
  readonly weight: Matrix;
  /** padding_idx as a row in [0, V), or null */
  readonly paddingRow: number | null;
  /** PyTorch's reason the Linear route cannot be stepped (SparseAdam refuses its dense
   * gradient), or null */
  readonly linearRefusal: string | null;
  /** steps taken */
  readonly steps: number;
  /** Draws G = torch.randn(len(batch), d) and steps both routes. A batch the core refuses
   * changes nothing. */
  step(batch: IdsLike): TrainingStep;
  rowState(row: number): RowState;
  delete(): void;
}

/** PositionsHandle.embed's result: a (rows, length) batch's embeddings, row-major. */
export interface PositionEmbeddings {
  rows: number;
  length: number;
  /** token_embedding_layer(inputs), (rows * length, d). */
  tokenEmbeddings: Matrix;
  /** pos_embedding_layer(torch.arange(length)), (length, d). */
  posEmbeddings: Matrix;
  /** one_hot(arange(length), contextLength).float() @ P: the same rows by a product. */
  positionProduct: Matrix;
  /** posEmbeddings against positionProduct, graded. */
  comparison: Comparison;
  /** The core's sentence on what each route cost, as `embedlab positions` prints it. */
  notes: string[];
  /** tokenEmbeddings + posEmbeddings, broadcast over the rows: (rows * length, d). */
  inputEmbeddings: Matrix;
}

/** One of the largest logits of a position. */
export interface TopLogit {
  id: number;
  logit: number;
}

/** PositionsHandle.head's result: the tied output layer, logits = inputEmbeddings @ W.T. */
export interface TiedHead {
  rows: number;
  length: number;
  /** Each position's largest logits, largest first (rows * length of them). */
  top: TopLogit[][];
  /** The vocabulary columns PyTorch's print of the logits shows, ascending. */
  columns: Float64Array;
  /** The logits of those columns: (rows * length, columns.length). */
  logits: Matrix;
  /** Rows of W the input lookup read: rows * length. */
  rowsLookedUp: number;
  /** n * V * d: the output product reads all V rows, none wasted. */
  multiplyAdds: number;
  /** The core's sentences on the two reads of W, the input lookup's then the output layer's,
   * as `embedlab head` prints them. */
  notes: [string, string];
}

/** A token table (vocab, dim) and a position table (contextLength, dim). */
/** Where a checkpoint's tables came from, and whether its output layer is the token table. */
export interface CheckpointTables {
  tokenTensor: string;
  positionTensor: string;
  /** No lm_head.weight or output.weight in the file, or its config.json's tie_word_embeddings. */
  tied: boolean;
  /** Why, in one sentence. */
  tyingReason: string;
}

export interface Positions {
  readonly vocab: number;
  readonly dim: number;
  readonly contextLength: number;
  /** null for seeded tables */
  readonly checkpoint: CheckpointTables | null;
  /** A batch as typed, one row per semicolon ("40,367; 1807,3619"). Errors: ragged rows, an id
   * outside the table, a row longer than contextLength (PyTorch's IndexError, and why). */
  embed(batch: string): PositionEmbeddings;
  /** The same batch through the tied head, W streamed a block of rows at a time; topK (default
   * min(5, V)) a whole number in [0, V]. */
  head(batch: string, options?: { topK?: number } | null): TiedHead;
  delete(): void;
}

/** A NextTokenTraining's step: F.cross_entropy(head(embedding(seq[:-1])), seq[1:]). */
export interface NextTokenStep {
  step: number;
  inputs: Float64Array;
  targets: Float64Array;
  /** loss.item() before the update (the core's float32; PyTorch's up to rounding) */
  loss: number;
  embeddingWeight: Matrix;
  /** head.weight after the step: the embedding's own when tied */
  headWeight: Matrix;
  /** embedding.weight's rows whose bits changed; causes index lab.rowCauses ('head': tied),
   * roles lab.batchRoles (a batch row named by the inputs, and tied by the targets) */
  changed: { rows: Float64Array; causes: Uint8Array; roles: Uint8Array };
  /** untied: head.weight's rows whose bits changed; null when tied */
  headChanged: Float64Array | null;
  /** embedding.weight.grad (V, d): the lookup's gradient, plus headGrad when tied */
  grad: Matrix;
  /** the head's own gradient dlogits.T @ embedding(seq[:-1]) (V, d), dense */
  headGrad: Matrix;
  /** optimizer.state[embedding.weight] after the step, each piece whole (V, d) */
  state: { name: string; values: Matrix }[];
}

/** Next-token prediction through nn.Linear(d, V, bias=False), tied to the embedding or not. */
export interface NextTokenTraining {
  readonly vocab: number;
  readonly dim: number;
  readonly head: 'tied' | 'untied';
  /** embedding.weight and head.weight as drawn */
  readonly weight: Matrix;
  readonly headWeight: Matrix;
  /** One sequence of at least 2 ids. */
  step(sequence: ArrayLike<number>): NextTokenStep;
  delete(): void;
}

/** What the chapter's loader takes: GPTDatasetV1's windows of maxLength ids every stride
 * (default: maxLength), DataLoader(batch_size=batchSize (default 1), shuffle, drop_last=True). */
export interface LoaderOptions {
  maxLength: number;
  stride?: number;
  batchSize?: number;
  shuffle?: boolean;
}

/** A WindowTraining's step: the loader's next batch, and one optimizer step on it. */
export interface WindowStep {
  step: number;
  /** its epoch, and its batch within the epoch, from 1 */
  epoch: number;
  batch: number;
  /** the dataset's indices of its windows, in DataLoader's order */
  windows: Float64Array;
  /** B; x and y, (B, maxLength) each, row-major */
  rows: number;
  inputs: Float64Array;
  targets: Float64Array;
  /** loss.item() before the update */
  loss: number;
  changed: { rows: Float64Array; causes: Uint8Array; roles: Uint8Array };
  positionChanged: Float64Array;
  headChanged: Float64Array | null;
  /** With details (the default): tok.weight, pos.weight (or null), head.weight after the step,
   * tok.weight.grad, the head's own gradient and optimizer.state[tok.weight], whole. */
  embeddingWeight?: Matrix;
  positionWeight?: Matrix | null;
  headWeight?: Matrix;
  grad?: Matrix;
  headGrad?: Matrix;
  state?: { name: string; values: Matrix }[];
}

/** The chapter's loop on one sequence's windows, stepped batch by batch, epoch after epoch. */
export interface WindowTraining {
  readonly vocab: number;
  readonly dim: number;
  readonly head: 'tied' | 'untied';
  /** maxLength with positions, else 0 */
  readonly contextLength: number;
  readonly windows: number;
  readonly batchesPerEpoch: number;
  /** tok.weight, pos.weight (or null) and head.weight as drawn */
  readonly weight: Matrix;
  readonly positionWeight: Matrix | null;
  readonly headWeight: Matrix;
  step(options?: { details?: boolean }): WindowStep;
  /** Every window position's k likeliest next tokens (default 3), row i's j-th at i * k + j. */
  predict(k?: number): {
    positions: number;
    k: number;
    ids: Float64Array;
    logits: Float32Array;
    probabilities: Float32Array;
  };
  delete(): void;
}

export interface Limits {
  maxIds: number;
  maxVocab: number;
  maxDim: number;
  maxElements: number;
  /** The bytes of a config.json the core parses (1 MiB): read at most one more of the file. */
  maxConfigBytes: number;
}

export interface Embedlab {
  /** "2, 3, 1", "2 3 1", "[2, 3, 1]", "(2, 3, 1)", "tensor([2, 3, 1])". */
  parseIds(text: string): Float64Array;
  /** max(ids) + 1 */
  defaultVocab(ids: IdsLike): number;
  /** Throws "index out of range in self: ..." for an id outside [0, vocab). */
  checkIds(ids: IdsLike, vocab: number): void;
  /** torch.manual_seed(seed); torch.randn(rows, cols). */
  randn(seed: number, rows: number, cols: number): Matrix;
  /** torch.manual_seed(seed); nn.Linear(inFeatures, outFeatures, bias)'s parameters. */
  linearInit(seed: number, inFeatures: number, outFeatures: number, bias?: boolean): LinearParams;
  /** expected (the lookup) vs actual (the one-hot product), element by element and bit by bit,
   *  graded with the reasons of `pair` (default 'lookup'). */
  compare(expected: MatrixLike, actual: MatrixLike, pair?: RoutePair): Comparison;
  /** PyTorch's printing of a tensor: "tensor([[ 0.3374, -0.1778], ...])". M may also be the
   *  cells of a tensor not held whole, whose at(i, j) is called for the printed elements only. */
  formatTensor(M: MatrixLike | Cells, options?: FormatOptions | null): string;
  /** Each of values as PyTorch prints an element of a tensor whose shown elements are `shown`
   *  (they choose fixed, integer-valued or scientific notation), without padding. */
  formatElements(
    shown: IdsLike,
    values?: IdsLike,
    options?: { integer?: boolean } | null,
  ): string[];
  /** per_sample_weights as typed: "1, 0.5, 2" or "[1, 0.5, 2]"; empty text gives no weights. */
  parseSampleWeights(weightsText: string): SampleWeights;
  /** Throws if a request for n ids into a (V, d) table handle would make a matrix over the
   * limits: the table, held whole when `held` (default true: a seeded or TensorFlow table; a
   * file's is read where it lies), the one-hot by its entries (never held: the product streams
   * the table) and the results. vocabFromIds: V is max(ids) + 1, so V's errors are errors of
   * 'ids'. Cheap: run it before any work is announced. */
  checkSizes(n: number, vocab: number, dim: number, vocabFromIds?: boolean, held?: boolean): void;
  /** Throws, in the core's words, if n ids are more than one request takes (limits.maxIds): for
   * ids that come from elsewhere, a tokenizer's, before anything is made of them. */
  checkIdCount(n: number): void;
  /** Throws, in the core's words, if padding_idx (null: none) lies outside [-vocab, vocab), as
   * nn.Embedding(vocab, d, padding_idx) would refuse it. */
  checkPaddingIdx(paddingIdx: number | null, vocab: number): void;
  /** Whether a file's first bytes (6 are enough) start as every .npy file does, "\x93NUMPY":
   * how to tell a .npy file from a .safetensors one. */
  hasNpyMagic(firstBytes: Uint8Array | ArrayBuffer | ArrayBufferView): boolean;
  /** 8 + N, the bytes of a .safetensors file that hold its header, from its first 8 bytes and
   * its size in bytes. */
  safetensorsHeaderSize(
    firstBytes: Uint8Array | ArrayBuffer | ArrayBufferView,
    fileSize: number,
  ): number;
  /** A .safetensors file's header (its first safetensorsHeaderSize bytes; more are ignored):
   * every tensor's name, dtype, shape and bytes, checked, and the embedding table it would pick:
   * the tensor called name, or without one the one its names point to. */
  safetensorsHeader(
    headerBytes: Uint8Array | ArrayBuffer | ArrayBufferView,
    fileSize: number,
    name?: string,
  ): SafetensorsHeader;
  /** A table drawn as torch.manual_seed(seed); nn.Embedding(vocab, dim) draws it, held in memory. */
  openSeededTable(seed: number, vocab: number, dim: number): Table;
  /** torch.manual_seed(seed); nn.Embedding(vocab, dim); nn.Embedding(contextLength, dim): both
   * tables from one generator, in the book's order, held in memory. */
  openSeededPositions(seed: number, vocab: number, dim: number, contextLength: number): Positions;
  /** A .safetensors checkpoint's token table and its one position table (GPT-2's wte.weight and
   * wpe.weight), read where they lie; configText: its config.json's text, or '' for none. */
  openCheckpointPositions(source: TableSource, configText?: string): Positions;
  /** Token (V, d) and position (contextLength, d) tables given whole: a training's, as they
   * stand. */
  openPositionTables(token: MatrixLike, position: MatrixLike): Positions;
  /** The TensorFlow notebook's table (row i = 0.11 * i), held in memory. */
  openTfTable(vocab: number, dim: number): Table;
  /** A .npy file's table from its bytes, kept in its stored dtype. */
  openNpyTable(bytes: Uint8Array | ArrayBuffer | ArrayBufferView): Table;
  /** A .safetensors file's table (the tensor called name, or the one the names point to), its
   * header read through the source now, its rows when a computation needs them (held in memory
   * when they take at most 16 MiB). */
  openSafetensorsTable(source: TableSource, name?: string): Table;
  /** A GGUF file's table (token_embd.weight, or the tensor called name) over its stored blocks:
   * F32, F16, BF16, Q8_0, Q4_0, Q4_K or Q6_K, dequantized as ggml's dequantize_row_* does. */
  openGgufTable(source: TableSource, name?: string): Table;
  /** Whether a file starts with "GGUF". */
  hasGgufMagic(firstBytes: Uint8Array | ArrayBuffer | ArrayBufferView): boolean;
  /** A GGUF file's header from its first bytes, or how many first bytes it needs (ask again). */
  ggufHeader(
    firstBytes: Uint8Array | ArrayBuffer | ArrayBufferView,
    fileSize: number,
    name?: string,
  ): GgufHeaderAnswer;
  /** A sharded checkpoint's model.safetensors.index.json (its text): each tensor's shard, and the
   * table's, the tensor called name or the one named like an embedding table; open that shard's
   * file with openSafetensorsTable(source, table.tensor). Errors: text that is not an index. */
  safetensorsIndex(text: string, name?: string): SafetensorsIndex;
  /** "1,2; 3,3; 0,1" -> one Float64Array per batch (batches separated by semicolons, each read
   * as parseIds reads ids; messages begin "batch 2: "). */
  parseBatches(text: string): Float64Array[];
  /** torch.optim.<Class>(params, lr=..., every hyperparameter that differs from the default),
   * after torch.optim's constructor checks. */
  optimizerCode(optimizer: OptimizerOptions, params?: string): string;
  /** Everything a training of a (vocab, dim) table checks before it allocates: the sizes it
   * holds, the optimizer's options, padding_idx, PyTorch's refusal of the gradient's layout
   * ("Adam does not support sparse gradients, please consider SparseAdam instead"). */
  checkTraining(vocab: number, dim: number, options: TrainingOptions): void;
  /** torch.manual_seed(seed); nn.Embedding(vocab, dim, padding_idx): each step's G comes from
   * the same generator, as `embedlab train` draws it. */
  seededTraining(seed: number, vocab: number, dim: number, options: TrainingOptions): Training;
  /** torch.manual_seed(seed); nn.Embedding(vocab, dim); then nn.Linear(dim, vocab, bias=False),
   * its weight the embedding's (head 'tied', the default) or its own (head 'untied'), both in one
   * torch.optim optimizer. */
  seededNextTokenTraining(
    seed: number,
    vocab: number,
    dim: number,
    options: { head?: 'tied' | 'untied'; optimizer: OptimizerOptions },
  ): NextTokenTraining;
  /** Everything the chapter's loader checks for a sequence of n ids: each error names
   * max_length, stride or batch_size. */
  checkLoader(n: number, loader: LoaderOptions): void;
  /** The chapter's loop (`embedlab train --max-length`): torch.manual_seed(seed); tok =
   * nn.Embedding(vocab, dim); pos = nn.Embedding(maxLength, dim) with positions; head =
   * nn.Linear(dim, vocab, bias=False), tied (the default) or not; the ids' windows through
   * DataLoader, shuffled each epoch as PyTorch shuffles them. */
  windowTraining(
    seed: number,
    vocab: number,
    dim: number,
    ids: ArrayLike<number>,
    options: LoaderOptions & {
      head?: 'tied' | 'untied';
      optimizer: OptimizerOptions;
      positions?: boolean;
    },
  ): WindowTraining;
  /** nn.Embedding.from_pretrained(W, freeze=False): the first G follows
   * torch.manual_seed(gradSeed) (default 123, the notebooks'). */
  tableTraining(W: MatrixLike, options: TrainingOptions & { gradSeed?: number | null }): Training;
  /** Each optimizer, its hyperparameters and PyTorch's defaults. This and the two lists below
   * are read from the deferred file when first used: after `complete`. */
  readonly optimizers: readonly OptimizerInfo[];
  /** Why a row changes in a step: TrainingStep.changed.causes index this. */
  readonly rowCauses: readonly RowCause[];
  /** Which ids of a next-token batch named a row ('none', 'input', 'target',
   * 'input_and_target'), with the words of its mark ("in the batch: input"): changed.roles
   * index this. */
  readonly batchRoles: readonly { name: string; text: string }[];
  /** Settles once the deferred file runs: until then, with loadEmbedlab({ early: true }), its
   * functions (the file readers, training and its lists, positions, the head, EmbeddingBag)
   * throw. */
  readonly complete: Promise<void>;
  /** The size limits every function checks before allocating. */
  readonly limits: Readonly<Limits>;
  /** What the grades' words mean: { identical, value }. */
  readonly verdictDefinitions: Readonly<{ identical: string; value: string }>;
  /** Every argument name an EmbedlabError can carry, in the core's order. */
  readonly argumentNames: readonly EmbedlabArgument[];
}

/** Where the module's two files come from, read on the first load only: by default the files
 * beside the module (embedlab-core.wasm, what a first screen runs, and
 * embedlab-core.deferred.wasm, the rest); Node's entry reads them from disk. `early` is read on
 * every call. Checked on every call: another key, or a value of another type, rejects the
 * promise with an EmbedlabError. */
export interface LoadOptions {
  /** The first file's address (relative to the page), e.g. a CDN's or a bundler's asset URL. */
  wasmURL?: string | URL;
  /** The deferred file's address; by default beside wasmURL, its name ending .deferred.wasm. */
  deferredURL?: string | URL;
  /** Emscripten's hook: the address of each file by its name. */
  locateFile?: (path: string, scriptDirectory: string) => string;
  /** The files' bytes themselves. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  deferredBinary?: ArrayBuffer | Uint8Array;
  /** The files compiled, as embedlabWasmSources() gives them: instantiated without a fetch. */
  wasmModule?: WebAssembly.Module;
  deferredModule?: WebAssembly.Module;
  /** Resolve once the first file runs, without waiting for the deferred one (lab.complete). */
  early?: boolean;
}

/** The one shared instance (a cached promise): every call returns the same Embedlab. */
export function loadEmbedlab(options?: LoadOptions): Promise<Embedlab>;

/** The two files' addresses the shared instance was loaded from (workers load theirs from them). */
export function embedlabWasmURLs(): { wasmURL: string; deferredURL: string };

/** The same, with the files the shared instance has compiled so far: a page posts them to its
 * worker, whose loadEmbedlab() then neither fetches nor compiles them again. */
export function embedlabWasmSources(): {
  wasmURL: string;
  deferredURL: string;
  wasmModule?: WebAssembly.Module;
  deferredModule?: WebAssembly.Module;
};

// node split_module.mjs WASM_DIS WASM_SPLIT LINKED PRIMARY DEFERRED
// Splits the linked module (Emscripten's SPLIT_MODULE output, LINKED, with function names) in
// two with Binaryen's wasm-split: PRIMARY, what the page's first screen runs (seeded tables, both
// routes and their verdicts, the backward passes, the id scanner, formatting), and DEFERRED,
// which the loader (embedlab.mjs) fetches once PRIMARY runs. Neither output keeps the names.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [wasmDis, wasmSplit, linked, primary, deferred] = process.argv.slice(2);
if (!deferred) {
  throw new Error('usage: node split_module.mjs WASM_DIS WASM_SPLIT LINKED PRIMARY DEFERRED');
}

// What the first screen never calls, by the names the core gives it: the readers of .npy,
// .safetensors, GGUF and JSON files (GGUF's notes, ggml's blocks and half floats, tensor names,
// the bytes of a file), training and its data loader (its optimizers, their steps, checks and
// sparse gradients, the rows a step changed and why: the API reads these tables when first asked
// for), positions, batches and the output head (its softmax and top logits), EmbeddingBag and
// max_norm, nn.Linear's initialisation. The page's e2e test with the deferred part withheld is
// what shows that the first screen calls none of them.
const DEFERRED_NAMES = new RegExp(
  [
    'gguf|Gguf|ggml|blocks_decoded_note|safetensors|Safetensors|npy|Npy|nlohmann|json|Json',
    'tokenizer',
    '[Tt]raining|NextToken|SideBySide|row_state',
    'Optimizer::|OptimizerState|optimizer_code|optimizer_from_js|check_optimizer|parse_optimizer',
    'check_gradient_kind|SparseRows|sparse_(add|mask|scaled)|add_sparse_to|embedding_sparse_backward',
    'coalesce|to_dense|signed_grad|torch_sort_permutation',
    '[Ww]indow|DataLoader|[Ll]oader|randperm|random_int64',
    'PositionsHandle|CheckpointPositions|PositionTables|position_(rows|product|table)',
    'add_positions|open_checkpoint_positions|seeded_position|head_tying|StreamedHead',
    'parse_head_kind|token_batch|parse_batches|check_context',
    '[Bb]ag|renorm|sample_weights',
    'q[0-9]_[0-9k]|convert_halves|check_whole_blocks|dtype_meaning',
    'HeaderParser|Cursor::|value_text|tensor_field|ne_text|close_names|names_list',
    'named_like_embedding|file_size_from_js|bytes_from_js',
    'optimizers_js|optimizer_arguments|all_optimizers|optimizer_option|row_causes_js',
    'batch_roles_js|changed_row|RowState|Introsort|log_softmax|TopLogit|check_top_k',
    'head_cost_notes|linear_init',
  ].join('|'),
);
// Kept whatever their names: what runs when the module starts (the bindings' registrations,
// constructors), and Embind's thunks (emscripten::internal::), whose table entries its
// JavaScript reads once, at registration: a placeholder read then would stay in its hands.
const KEPT = /embind_init|GLOBAL__sub_I|__wasm_call_ctors|emscripten::internal::/;

// Binaryen's own spelling of each function's name (wasm-dis escapes what its text format cannot
// hold), which is what wasm-split matches.
const text = execFileSync(wasmDis, ['--all-features', linked], { maxBuffer: 1 << 30 }).toString();
const names = [...text.matchAll(/^ \(func \$(\S+)/gm)].map((match) => match[1]);
const split = names.filter((name) => DEFERRED_NAMES.test(name) && !KEPT.test(name));
if (split.length === 0)
  throw new Error(`no function of ${linked} is to be deferred: are its names kept?`);

const scratch = mkdtempSync(path.join(os.tmpdir(), 'embedlab-split-'));
try {
  const list = path.join(scratch, 'deferred.txt');
  writeFileSync(list, `${split.join('\n')}\n`);
  execFileSync(wasmSplit, [
    '--split',
    '--all-features',
    linked,
    `--split-funcs=@${list}`,
    '-o1',
    primary,
    '-o2',
    deferred,
  ]);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

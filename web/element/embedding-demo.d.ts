// Types of embedding-demo.mjs: the <embedding-demo> custom element (README.md in package/,
// attributes with live examples in reference.html). Importing the module defines the element.
import type { Comparison, Matrix } from '../embedlab/embedlab.js';

/** What the element shows. */
export type EmbeddingDemoView =
  | 'equation'
  | 'compare'
  | 'routes'
  | 'lookup'
  | 'onehot'
  | 'matrices'
  | 'step'
  | 'printout'
  | 'backward'
  | 'train'
  | 'bag'
  | 'positions'
  | 'head'
  | 'benchmark';

/** Where W comes from: torch.manual_seed(seed), the TensorFlow notebook's table, or src's file
 * (.npy, or .safetensors with #tensor.name to pick a tensor). */
export type EmbeddingDemoWeights = 'seed' | 'tf' | 'npy';

/** The tokenizer of the text attribute: GPT-2's, Llama 3's, Qwen 3's or Gemma 3's. */
export type EmbeddingDemoTokenizer = 'gpt2' | 'llama3' | 'qwen3' | 'gemma3';

/** Both routes for the element's inputs (compute.mjs's run()). */
export interface EmbeddingDemoResult {
  /** the token ids, as parsed */
  ids: Float64Array;
  /** V */
  vocab: number;
  /** d */
  dim: number;
  /** W: (V, d) */
  weight: Matrix;
  /** embedding(idx): (n, d) */
  lookup: Matrix;
  /** F.one_hot(idx, V).float(): (n, V) */
  onehot: Matrix;
  /** linear(onehot.float()) = onehot @ W: (n, d) */
  product: Matrix;
  /** lookup against product, element by element and bit by bit */
  comparison: Comparison;
}

export interface EmbeddingDemoRenderDetail {
  /** the result shown; while `error` is set, the last valid one (or null) */
  result: EmbeddingDemoResult | null;
  /** the message the element shows in its alert, or null */
  error: string | null;
}

export interface EmbeddingDemoEventMap extends HTMLElementEventMap {
  /** After each update has been drawn (attribute changes are batched per animation frame). */
  render: CustomEvent<EmbeddingDemoRenderDetail>;
}

/**
 * <embedding-demo ids="2, 3, 1" dim="5" seed="123" view="compare">. Every property reflects the
 * attribute of the same name (null: absent); setting one is the same as setting the attribute.
 */
export class EmbeddingDemoElement extends HTMLElement {
  static readonly observedAttributes: readonly string[];

  /** Token ids: "2, 3, 1", "[2, 3, 1]" or "tensor([2, 3, 1])". Absent: "2, 3, 1". Unused while
   * text is set. */
  ids: string | null;
  /** A text whose tokens are the ids, shown as chips (the tokenizer's files load in a Web Worker
   * from the element's folder the first time). Empty text, a lone surrogate or more tokens than
   * the core takes at once is an error. Absent: the ids attribute. */
  text: string | null;
  /** EmbeddingDemoTokenizer, for text. Absent: "gpt2". */
  tokenizer: string | null;
  /** The chips of the ids as a tokenizer elsewhere cut the text (a notebook's, through
   * embedlab.show(text=, tokenizer=)): each id's bytes in base64, separated by spaces. */
  tokens: string | null;
  /** The vocabulary size V. Absent: max id + 1, or with text the tokenizer's vocabulary size. */
  vocab: string | null;
  /** The embedding dimension d. Absent: 5, or 8 with text. */
  dim: string | null;
  /** The seed of torch.manual_seed. Absent: 123. */
  seed: string | null;
  /** EmbeddingDemoWeights. Absent: "npy" when src, table or routes is set, else "seed". */
  weights: string | null;
  /** The URL of a .npy, .safetensors or GGUF file holding W, relative to the page
   * ("model.gguf#output.weight" names a tensor). */
  src: string | null;
  /** W itself: a .safetensors file's bytes in base64, of one 2-D tensor (F32, F64, F16 or BF16),
   * read bit for bit (embedlab.show() in a notebook writes it). Wins over src. */
  table: string | null;
  /** Both routes computed elsewhere, for a W too large to send (embedlab.show()'s kernel): a
   * .safetensors file's bytes in base64 with tensors lookup and product (n, d), rows (the rows of
   * W the views draw) and heatmap (W's pixels), and metadata vocab (V), kept (the rows' ids,
   * "0,1,2,…") and table (W's name). The element's core grades the two results; views that need
   * W whole say so. Wins over table and src. */
  routes: string | null;
  /** EmbeddingDemoView. Absent: "compare". */
  view: string | null;
  /** The token to step through and mark in the tables, counted from 0. Absent: 0. */
  step: string | null;
  /** The element's title, in place of the view's. */
  label: string | null;
  /** nn.Embedding's padding_idx, where the backward and bag views' padding_idx input starts:
   * "1", or "-1" counted from the end; outside [-V, V) it is an error in any view. Absent: none.
   * An attribute spelled nearly as one of these (padding-idx, seeds) is an error too, naming
   * the one meant. */
  padding_idx: string | null;
  /** Whether the element shows inputs for idx, V, d, W and the seed (they edit the attributes). */
  controls: boolean;

  /** The result shown, or null before the first one. */
  readonly result: EmbeddingDemoResult | null;
  /** The message shown in the element's alert (role="alert"), or null. */
  readonly error: string | null;
  /** Resolves once the element shows its current attributes. */
  readonly updateComplete: Promise<void>;

  addEventListener<K extends keyof EmbeddingDemoEventMap>(
    type: K,
    listener: (this: EmbeddingDemoElement, event: EmbeddingDemoEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof EmbeddingDemoEventMap>(
    type: K,
    listener: (this: EmbeddingDemoElement, event: EmbeddingDemoEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

declare global {
  interface HTMLElementTagNameMap {
    'embedding-demo': EmbeddingDemoElement;
  }
}

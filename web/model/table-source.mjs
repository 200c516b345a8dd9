// Where W comes from, named once: the page's radio buttons, the element's `weights` attribute,
// the address's `w` parameter, the plan and the printout all use these names.
//   seed: nn.Embedding(V, d) after torch.manual_seed(seed)
//   tf:   the TensorFlow notebook's table, row i = 0.11·i
//   file: a .npy file, or a model's .safetensors file (or its index.json and shards)
export const SOURCES = Object.freeze(['seed', 'tf', 'file']);
export const DEFAULT_SOURCE = 'seed';
// Only these can be shared as a link: a file stays on the learner's machine.
export const LINKABLE_SOURCES = Object.freeze(['seed', 'tf']);

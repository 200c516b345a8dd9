// Positions and the tied output layer (positions_bindings.cpp; README.md "Positions and the tied
// head"; types in embedlab.d.ts). A positions handle holds a token table (V, d) and a position
// table (contextLength, d) in WASM memory, drawn as
//   torch.manual_seed(seed); nn.Embedding(V, d); nn.Embedding(contextLength, d)
// or read from a .safetensors checkpoint (GPT-2's wte.weight and wpe.weight) where they lie,
// through the caller's { size, read(offset, length) }, with whether its output layer is tied.
// Its methods take a batch as typed, one row per semicolon ("40,367; 1807,3619").
//
// positionsApi(core, checks) gives the function embedlab.mjs's API spreads in.

// A handle nobody deleted frees its WASM memory when it is collected.
const abandoned = new FinalizationRegistry((handle) => handle.delete());

export function positionsApi(core, checks) {
  const { EmbedlabError, unwrap, number, string, options, byteSource } = checks;

  function positions(handle) {
    const info = handle.info();
    let open = true;
    const call = (method, ...args) => {
      if (!open) {
        throw new EmbedlabError(`positions: ${method}() after delete(): open them again`, null);
      }
      return unwrap(handle[method](...args));
    };
    const self = {
      ...info,
      embed: (batch) => call('embed', string('embed', 'ids', batch)),
      head: (batch, opts) => {
        const { topK = 5 } = options('head', opts);
        return call('head', string('head', 'ids', batch), number('head', 'topK', topK));
      },
      delete: () => {
        if (!open) return;
        open = false;
        abandoned.unregister(self);
        handle.delete();
      },
    };
    Object.freeze(self);
    abandoned.register(self, handle, self);
    return self;
  }

  return {
    openSeededPositions: (seed, vocab, dim, contextLength) =>
      positions(
        unwrap(
          core.openSeededPositions(
            number('openSeededPositions', 'seed', seed),
            number('openSeededPositions', 'vocab', vocab),
            number('openSeededPositions', 'dim', dim),
            number('openSeededPositions', 'contextLength', contextLength),
          ),
        ),
      ),
    openCheckpointPositions: (source, configText = '') =>
      positions(
        unwrap(
          core.openCheckpointPositions(
            byteSource('openCheckpointPositions', source),
            string('openCheckpointPositions', 'configText', configText),
          ),
        ),
      ),
  };
}

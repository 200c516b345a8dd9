// Positions and the tied output layer (positions_bindings.cpp; README.md "Positions and the tied
// head"; types in embedlab.d.ts). A positions handle holds a token table (V, d) and a position
// table (contextLength, d) in WASM memory, drawn as
//   torch.manual_seed(seed); nn.Embedding(V, d); nn.Embedding(contextLength, d)
// or read from a .safetensors checkpoint (GPT-2's wte.weight and wpe.weight) where they lie,
// through the caller's { size, read(offset, length) }, with whether its output layer is tied, or
// given whole (openPositionTables: a training's tables as they stand).
// Its methods take a batch as typed, one row per semicolon ("40,367; 1807,3619").
//
// positionsApi(core, checks) gives the function embedlab.mjs's API spreads in.

import { handleLife } from './handles.mjs';

export function positionsApi(core, checks) {
  const { unwrap, number, string, options, OPTIONS, byteSource, matrix } = checks;

  const { owned, register } = handleLife(checks);

  function positions(handle) {
    const own = owned(handle, 'positions', 'open them again');
    const self = Object.freeze({
      ...handle.info(),
      embed: (batch) => own.call('embed', string('embed', 'ids', batch)),
      head: (batch, opts) => {
        const { topK } = options('head', opts, OPTIONS.head);
        return own.call('head', string('head', 'ids', batch), topK);
      },
      delete: () => own.delete(self),
    });
    return register(self, handle);
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
    openPositionTables: (token, position) =>
      positions(
        unwrap(
          core.openPositionTables(
            matrix('openPositionTables', 'token', token),
            matrix('openPositionTables', 'position', position),
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

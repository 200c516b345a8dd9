// What views are built with before the WebAssembly module runs, while it downloads.
//
// moduleStandIn(loading): an object that takes on the module's every property once it runs.
// Nothing may call it before `loaded` resolves; every result comes from a session, which starts
// then. loading: loadEmbedlab()'s promise. Returns { lab, loaded: a promise of lab, filled in }.
export function moduleStandIn(loading) {
  const lab = {};
  const loaded = loading.then((module) =>
    Object.defineProperties(lab, Object.getOwnPropertyDescriptors(module)),
  );
  return { lab, loaded };
}

// The session's calls a view's context holds (views/registry.mjs), each made on the session
// session() returns when called: the one started once the module runs. stop() before it does
// has nothing to stop.
export const laterSessionCalls = (session) => ({
  computeView: (...args) => session().computeView(...args),
  computePositions: (...args) => session().computePositions(...args),
  computeTraining: (...args) => session().computeTraining(...args),
  stop: () => session()?.stop(),
});

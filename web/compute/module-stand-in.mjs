// The WebAssembly module before it runs: an object views can be built with while it downloads,
// which takes on the module's every property once it runs. Nothing may call it before `loaded`
// resolves; every result comes from a session, which starts then.
// loading: loadEmbedlab()'s promise. Returns { lab, loaded: a promise of lab, filled in }.
export function moduleStandIn(loading) {
  const lab = {};
  const loaded = loading.then((module) =>
    Object.defineProperties(lab, Object.getOwnPropertyDescriptors(module)),
  );
  return { lab, loaded };
}

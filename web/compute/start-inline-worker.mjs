// startModuleWorker (start-worker.mjs) for a bundle that carries its workers' code inside it
// (the notebook bundle: scripts/build-site.mjs puts this module in start-worker.mjs's place and
// supplies 'inline:workers'): the worker starts from a Blob of that code. A host that refuses
// Blob workers (some VS Code webviews) makes it throw or fail to load; the callers then work
// without one (worker-client.mjs computes on the page's thread).
import WORKERS from 'inline:workers';

export function startModuleWorker(start, name) {
  const source = WORKERS[name];
  if (source === undefined) throw new Error(`${name} is not part of this bundle`);
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  return new Worker(url, { type: 'module' });
}

// Starts a module Web Worker that sits beside the calling module. A module worker must come from
// the page's own origin: where the calling module was itself loaded from another one (a CDN),
// the browser refuses it (SecurityError), and the worker is then a same-origin Blob whose one
// line imports the real one, which the other origin must allow (Access-Control-Allow-Origin, as
// jsDelivr and unpkg send it).
//   start: () => new Worker(new URL('./x.mjs', import.meta.url), { type: 'module' }), written
//          out by the caller: the one form Vite and webpack recognise and bundle as a worker;
//   name, base: './x.mjs' and the caller's import.meta.url, for the Blob's import.
export function startModuleWorker(start, name, base) {
  try {
    return start();
  } catch (error) {
    if (error?.name !== 'SecurityError') throw error;
    const source = `import ${JSON.stringify(new URL(name, base).href)};`;
    return new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })), {
      type: 'module',
    });
  }
}

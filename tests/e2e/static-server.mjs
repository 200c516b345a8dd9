// A static file server on 127.0.0.1 and a free port, for the site folder. Serves .mjs as
// JavaScript and .wasm as application/wasm (what module imports and streaming compile need),
// gzipped where the browser accepts it.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { createGzip } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.ts': 'text/plain; charset=utf-8',
};
const COMPRESSED = new Set([
  '.html',
  '.css',
  '.js',
  '.mjs',
  '.json',
  '.wasm',
  '.svg',
  '.map',
  '.ts',
]);

async function fileFor(root, urlPath) {
  const relative = decodeURIComponent(urlPath.split('?')[0]);
  const file = path.resolve(root, `.${relative}`);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    const info = await stat(file);
    if (info.isDirectory()) return fileFor(root, path.posix.join(relative, 'index.html'));
    return info.isFile() ? file : null;
  } catch {
    return null;
  }
}

// Resolves to { url, close() } once listening. cors: answer every origin, as a CDN does
// (Access-Control-Allow-Origin: *). pages: { '/name.html': markup } served beside the folder's
// files, as an author's page beside the site's modules (scripts/page-perf.mjs's host page).
export function serveDirectory(directory, { cors = false, pages = {} } = {}) {
  const root = path.resolve(directory);
  const server = createServer(async (request, response) => {
    const page = pages[request.url.split('?')[0]];
    if (page !== undefined) {
      response.writeHead(200, { 'content-type': TYPES['.html'], 'cache-control': 'no-store' });
      response.end(page);
      return;
    }
    const file = await fileFor(root, request.url);
    if (!file) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    // Compressed as any real host serves it, so that a timing at an emulated bandwidth
    // (scripts/page-perf.mjs) counts the bytes a learner would download.
    const gzip =
      COMPRESSED.has(path.extname(file)) &&
      /\bgzip\b/.test(request.headers['accept-encoding'] ?? '');
    response.writeHead(200, {
      'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
      'cache-control': 'no-store',
      ...(cors ? { 'access-control-allow-origin': '*' } : {}),
      ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}),
    });
    const body = createReadStream(file);
    (gzip ? body.pipe(createGzip()) : body).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${server.address().port}/`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(done);
          }),
      });
    });
  });
}

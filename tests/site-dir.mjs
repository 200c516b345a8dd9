// The site folder of a wasm build, for every JavaScript test folder (wasm, e2e, package): ctest
// passes EMBEDLAB_WASM_SITE (set once in tests/CMakeLists.txt); run by hand, build/wasm/site.
import { fileURLToPath } from 'node:url';

export const siteDir =
  process.env.EMBEDLAB_WASM_SITE || fileURLToPath(new URL('../build/wasm/site', import.meta.url));

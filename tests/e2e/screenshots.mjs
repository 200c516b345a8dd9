// Screenshots of a part of the page: saved to EMBEDLAB_SCREENSHOT_DIR (the build tree), and with
// EMBEDLAB_UPDATE_SCREENSHOTS=1 also to docs/screenshots/, where the docs show them.
import { copyFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const shotsDir = process.env.EMBEDLAB_SCREENSHOT_DIR || path.join(os.tmpdir(), 'embedlab-screenshots');
const docsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../docs/screenshots');

// locator: what to photograph (a playwright Locator); name: e.g. 'backward.png'.
export async function saveScreenshot(locator, name) {
  mkdirSync(shotsDir, { recursive: true });
  const file = path.join(shotsDir, name);
  await locator.screenshot({ path: file });
  if (process.env.EMBEDLAB_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(docsDir, { recursive: true });
    copyFileSync(file, path.join(docsDir, name));
  }
  return file;
}

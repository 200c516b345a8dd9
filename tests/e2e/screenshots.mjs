// Screenshots of the page or a part of it: saved to EMBEDLAB_SCREENSHOT_DIR (the build tree), and
// with EMBEDLAB_UPDATE_SCREENSHOTS=1 also to docs/screenshots/, where the docs show them.
import { copyFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const shotsDir =
  process.env.EMBEDLAB_SCREENSHOT_DIR || path.join(os.tmpdir(), 'embedlab-screenshots');
const docsDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../docs/screenshots',
);

// target: what to photograph (a playwright Page or Locator); name: e.g. 'backward.png';
// fullPage: the whole page, not just the viewport (a Page only); publish: false keeps a
// screenshot that is only for looking at out of docs/.
export async function saveScreenshot(target, name, { fullPage = false, publish = true } = {}) {
  mkdirSync(shotsDir, { recursive: true });
  const file = path.join(shotsDir, name);
  // Transitions under way (the picture's glows sliding to a newly selected token) end first: a
  // screenshot shows what the reader sees once the page is at rest.
  const page = typeof target.page === 'function' ? target.page() : target;
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => {})),
    ),
  );
  await target.screenshot(fullPage ? { path: file, fullPage } : { path: file });
  if (publish && process.env.EMBEDLAB_UPDATE_SCREENSHOTS === '1') {
    mkdirSync(docsDir, { recursive: true });
    copyFileSync(file, path.join(docsDir, name));
  }
  return file;
}

// The programs the JavaScript tests run, as tests/CMakeLists.txt found them (find_program),
// passed in the environment; run by hand, found on the PATH the same way. The site is
// site-dir.mjs's.
import { execFileSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

// Every file called one of `names` on the PATH, in the PATH's order.
function onPath(...names) {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  return dirs
    .flatMap((dir) => names.map((name) => path.join(dir, name)))
    .filter((file) => {
      try {
        accessSync(file, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

function first(found, what) {
  if (found === undefined) throw new Error(`no ${what} on the PATH`);
  return found;
}

// Chromium, for playwright-core (it downloads no browser of its own).
export const chromiumPath =
  process.env.EMBEDLAB_CHROMIUM || first(onPath('chromium', 'chromium-browser')[0], 'chromium');

// The oracle: the first Python that imports torch (a Python of one's own may come first).
export const pythonPath =
  process.env.EMBEDLAB_PYTHON ||
  first(
    onPath('python3').find((python) => {
      try {
        execFileSync(python, ['-c', 'import torch, numpy'], { stdio: 'ignore' });
        return true;
      } catch {
        return false;
      }
    }),
    'python3 that imports torch',
  );

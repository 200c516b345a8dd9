// The programs the JavaScript tests run, as tests/CMakeLists.txt found them (find_program),
// passed in the environment; run by hand, what the PATH offers. The site is site-dir.mjs's.
import { execFileSync } from 'node:child_process';

// The first of names on the PATH, as `command -v` finds it.
function onPath(...names) {
  for (const name of names) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // not there: try the next name
    }
  }
  throw new Error(`none of ${names.join(', ')} is on the PATH`);
}

// Chromium, for playwright-core (it downloads no browser of its own).
export const chromiumPath = process.env.EMBEDLAB_CHROMIUM || onPath('chromium', 'chromium-browser');
// The Python that has torch: the oracle.
export const pythonPath = process.env.EMBEDLAB_PYTHON || onPath('python3');

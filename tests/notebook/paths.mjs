// Where the notebook tests' files are, as tests/notebook/CMakeLists.txt passes them: the venv
// (setup-venv.sh), the work folder (execute.py's executed notebook and export), the screenshots.
import { mkdirSync } from 'node:fs';
import path from 'node:path';

function required(name) {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the notebook tests through ctest`);
  return value;
}

export const notebookVenv = required('EMBEDLAB_NOTEBOOK_VENV');
export const notebookWork = required('EMBEDLAB_NOTEBOOK_WORK');
const screenshots = process.env.EMBEDLAB_SCREENSHOT_DIR;

// A screenshot of the page, where EMBEDLAB_SCREENSHOT_DIR names a folder.
export async function saveScreenshot(page, name) {
  if (!screenshots) return;
  mkdirSync(screenshots, { recursive: true });
  await page.screenshot({ path: path.join(screenshots, name) });
}

// The resident memory of a headless Chromium, read from /proc (Linux): every process whose
// command line names the browser's profile folder (the browser, the page's renderer, which runs
// its workers too, and the GPU and utility processes). The page cannot see this itself:
// performance.measureUserAgentSpecificMemory needs cross-origin isolation, and a worker's
// WebAssembly memory is in no page-visible heap.
import { readdirSync, readFileSync } from 'node:fs';

// A forked child's command line is one string, its arguments joined by spaces.
function browserPids(profile) {
  const flag = `--user-data-dir=${profile}`;
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split(/[\0 ]/).includes(flag);
      } catch {
        return false; // it ended meanwhile
      }
    });
}

// A line of /proc/PID/status in bytes ('VmRSS', 'VmHWM'), or 0 for a process that has ended.
function statusBytes(pid, field) {
  try {
    const line = readFileSync(`/proc/${pid}/status`, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(`${field}:`));
    return line ? Number(line.split(/\s+/)[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

// The browser's resident bytes, all processes together.
export function residentBytes(profile) {
  return browserPids(profile).reduce((sum, pid) => sum + statusBytes(pid, 'VmRSS'), 0);
}

// Samples residentBytes every `everyMs` until stop(), which returns { baseline, peak }: the bytes
// at the start and the most seen. Each process's own high-water mark (VmHWM) is read at stop()
// too: `bound` sums, over the processes, how far each rose above its resident bytes at the
// start, a bound on the growth that no sampling gap can miss.
export function sampleMemory(profile, everyMs = 20) {
  const start = new Map(browserPids(profile).map((pid) => [pid, statusBytes(pid, 'VmRSS')]));
  const baseline = [...start.values()].reduce((a, b) => a + b, 0);
  let peak = baseline;
  const timer = setInterval(() => {
    peak = Math.max(peak, residentBytes(profile));
  }, everyMs);
  return {
    stop() {
      clearInterval(timer);
      peak = Math.max(peak, residentBytes(profile));
      const bound = browserPids(profile).reduce(
        (sum, pid) => sum + Math.max(0, statusBytes(pid, 'VmHWM') - (start.get(pid) ?? 0)),
        0,
      );
      return { baseline, peak, bound };
    },
  };
}

// Writes tests/durations.json from the last run's report (test-results/vitest.json): every suite that took 3 s or
// more, in seconds. The sequencer (tests/sequencer.ts) starts those first, longest first; refresh the file when
// suites are added or change a lot (`npm run test:durations` after `npm test`).
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const report = JSON.parse(readFileSync(path.join(root, 'test-results/vitest.json'), 'utf8')) as {
  testResults: { name: string; startTime: number; endTime: number }[];
};
const durations = Object.fromEntries(
  report.testResults
    // From `tests/` on, so a report written by another checkout (a clean clone) gives the same names.
    .map(
      (file) =>
        [
          file.name.slice(file.name.lastIndexOf('/tests/') + 1),
          Math.round((file.endTime - file.startTime) / 1000),
        ] as const,
    )
    .filter(([, seconds]) => seconds >= 3)
    .sort(([a], [b]) => (a < b ? -1 : 1)),
);
writeFileSync(path.join(root, 'tests/durations.json'), `${JSON.stringify(durations, null, 2)}\n`);
console.log(`tests/durations.json: ${Object.keys(durations).length} suites of 3 s or more`);

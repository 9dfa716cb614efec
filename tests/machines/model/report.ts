import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { coverageDir, MIN_STATE_COVERAGE, MIN_TRANSITION_COVERAGE, readCoverage } from './harness.ts';
import { MIN_UI_TRANSITION_COVERAGE } from '../../components/support/threshold.ts';

// Vitest global setup: names this run's model-coverage directory and prints its totals after the run.
// Each machine's model test fails on its own below the thresholds; this only reports.

export function setup(): void {
  // The test workers start after this and inherit the variable.
  process.env.MODEL_COVERAGE_RUN = randomUUID();
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '100.0%' : `${((part / whole) * 100).toFixed(1)}%`;
}

export function teardown(): void {
  const directory = coverageDir();
  if (!existsSync(directory)) return;
  const rows = readdirSync(directory)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .map((file) => readCoverage(path.join(directory, file)));
  rmSync(directory, { recursive: true, force: true });
  if (rows.length === 0) return;
  const lines = [
    '',
    `Model-based coverage (generated paths; required: states ${MIN_STATE_COVERAGE * 100}%, transitions ${MIN_TRANSITION_COVERAGE * 100}%;`,
    `  "(UI)": what the rendered components drove, tests/components; required: transitions ${MIN_UI_TRANSITION_COVERAGE * 100}%)`,
    `${'machine'.padEnd(20)} ${'paths'.padStart(6)} ${'states'.padStart(16)} ${'transitions'.padStart(18)}`,
  ];
  let paths = 0;
  for (const row of rows) {
    paths += row.paths;
    const states = `${row.states.covered.length}/${row.states.total.length} ${percent(row.states.covered.length, row.states.total.length)}`;
    const transitions = `${row.transitions.covered.length}/${row.transitions.total.length} ${percent(row.transitions.covered.length, row.transitions.total.length)}`;
    lines.push(
      `${row.machine.padEnd(20)} ${String(row.paths).padStart(6)} ${states.padStart(16)} ${transitions.padStart(18)}`,
    );
  }
  lines.push(`${'total'.padEnd(20)} ${String(paths).padStart(6)}`, '');
  console.log(lines.join('\n'));
}

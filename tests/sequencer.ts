import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Longest suites first, so the last minutes of a run are not one long suite on one core while the others idle.
// Vitest orders by the durations of the previous run on this checkout, which a clean clone (CI) has none of, and
// then by file size; tests/durations.json holds the suites of 3 s or more as a run measured them
// (`npm run test:durations`). The server project goes first: its suites are the long ones, and the client's short
// ones fill the end. A suite the file does not name keeps Vitest's order after the named ones of its project.
const root = path.resolve(import.meta.dirname, '..');
const durations = JSON.parse(readFileSync(path.join(root, 'tests/durations.json'), 'utf8')) as Record<
  string,
  number
>;

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const position = new Map(base.map((spec, index) => [spec, index]));
    const seconds = (spec: TestSpecification) =>
      durations[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? 0;
    const projectRank = (spec: TestSpecification) => (spec.project.name === 'server' ? 0 : 1);
    return [...base].sort(
      (a, b) =>
        projectRank(a) - projectRank(b) || seconds(b) - seconds(a) || position.get(a)! - position.get(b)!,
    );
  }
}

import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

// The contract passes both common OpenAPI linters with zero errors: Redocly's recommended rules (redocly.yaml
// says why a rule is off) and Spectral's `spectral:oas` (.spectral.yaml).

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

async function lint(command: string, args: string[]) {
  try {
    const { stdout, stderr } = await run(bin(command), args, {
      cwd: root,
      maxBuffer: 10 * 1024 * 1024,
      // No network here, and a test must not phone home.
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? 1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

describe('the contract under the OpenAPI linters', () => {
  it('has no Redocly error (recommended rules)', async () => {
    const result = await lint('redocly', ['lint', 'openapi/openapi.yaml', '--format=stylish']);
    expect(result.output).not.toMatch(/\berror\b/);
    expect(result.code, result.output).toBe(0);
  }, 120_000);

  it('has no Spectral error (spectral:oas)', async () => {
    const result = await lint('spectral', ['lint', 'openapi/openapi.yaml', '--fail-severity=error']);
    expect(result.output).not.toMatch(/\d+:\d+\s+error\b/);
    expect(result.code, result.output).toBe(0);
  }, 120_000);
});

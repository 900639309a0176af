import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

/** The project's own lint rules, run on a snippet as if it were a file of the repository. */
async function problems(code: string): Promise<{ line: number; ruleId: string | null }[]> {
  const eslint = new ESLint({ cwd: root });
  const [result] = await eslint.lintText(code, { filePath: path.join(root, 'shared', 'lint-probe.ts') });
  return (result?.messages ?? []).map((m) => ({ line: m.line, ruleId: m.ruleId }));
}

describe('eslint.config.js', () => {
  it('refuses a compound assignment of an await, and leaves the safe forms alone', async () => {
    const code = [
      'let total = 0;',
      'export async function lane(n: () => Promise<number>, o: () => Promise<{ n: number } | null>): Promise<void> {',
      '  total += await n();',
      '  total -= (await o())?.n ?? 0;',
      '  const held = await n();',
      '  total += held;',
      '  total += 1;',
      '}',
      'export const read = (): number => total;',
      '',
    ].join('\n');
    const found = await problems(code);
    expect(found.filter((p) => p.ruleId === 'no-restricted-syntax').map((p) => p.line)).toEqual([3, 4]);
    expect(found.filter((p) => p.ruleId !== 'no-restricted-syntax')).toEqual([]);
  }, 60_000);
});

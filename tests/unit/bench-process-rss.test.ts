import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { processTreeResident } from '../../bench/ingest-latency.ts';
import { groupResidentMb, residentMb, sumHwmMb } from '../../bench/ingest-stats.ts';

const processTreeHwmMb = (pid: number) => sumHwmMb(processTreeResident(pid));

describe.skipIf(process.platform !== 'linux')('peak RSS of a process tree', () => {
  it('adds the peak of every child to its parent', async () => {
    const own = () => residentMb(readFileSync(`/proc/${process.pid}/status`, 'utf8')).hwm;
    // A Node child holding a 64 MB buffer: its peak alone is well above 64 MB.
    const child = spawn(process.execPath, ['-e', "const b = Buffer.alloc(64 * 1024 * 1024, 1); process.stdout.write('ready'); setTimeout(() => b.length, 30000)"], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    try {
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
      const tree = processTreeHwmMb(process.pid);
      expect(tree - own()).toBeGreaterThanOrEqual(64);
      expect(processTreeHwmMb(child.pid as number)).toBeGreaterThanOrEqual(64);
      // The child's buffer is its own memory; the node binary both map is counted once.
      const [self, ...children] = processTreeResident(process.pid);
      expect(children.map((c) => c.anon).some((mb) => mb >= 64)).toBe(true);
      const group = groupResidentMb([self!, ...children]);
      expect(group).toBeGreaterThanOrEqual(Math.round(self!.anon + 64));
      expect(group).toBeLessThan(tree);
    } finally {
      child.kill('SIGKILL');
    }
  }, 20_000);
  it('is 0 for a process that is gone', () => {
    expect(processTreeHwmMb(2 ** 22 + 7)).toBe(0);
    expect(processTreeResident(2 ** 22 + 7)).toEqual([]);
  });
});

import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration suites start their own redis-server; two cores run two files at a time.
    maxWorkers: 2,
    fileParallelism: true,
  },
});

/**
 * A real S3-compatible server for tests: s3rver (the S3 REST API over a temp directory) on a free
 * loopback port, with the buckets asked for, and the client settings to reach it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import type { S3Settings } from '../../shared/config/bucket-url.ts';

export interface TestS3 {
  settings: S3Settings;
  /** The same settings as Quarry's environment variables. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startTestS3(buckets: string[]): Promise<TestS3> {
  // The SDK warns once that releases after January 2027 will need Node 22; the pinned one does not.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const directory = mkdtempSync(path.join(tmpdir(), 'quarry-s3rver-'));
  const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory, configureBuckets: buckets.map((name) => ({ name })) });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any credentials whose signature it can check: these are its defaults.
  const settings: S3Settings = { endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  return {
    settings,
    env: { S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

import { mkdirSync, realpathSync } from 'node:fs';
import { rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DeleteObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe } from 'vitest';
import { createS3Client } from '../../shared/s3/s3.ts';
import { createFolderBucket } from '../../shared/sources/folder-bucket.ts';
import { createS3Bucket } from '../../shared/s3/s3-bucket.ts';
import { startTestS3, type TestS3 } from '../helpers/s3.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { runSourceBucketContract } from './source-bucket.contract.ts';

const tempDir = tempDirs('quarry-source-bucket-');

// Each write moves the file's modification time on by a second: two writes within the clock's
// resolution must still give two tags, as two uploads give two ETags.
let clock = Date.now() / 1000;

runSourceBucketContract('watched folder', async () => {
  const root = realpathSync(tempDir());
  const file = (name: string) => path.join(root, ...name.split('/'));
  return {
    bucket: createFolderBucket(root),
    key: (name) => name,
    async put(name, bytes) {
      mkdirSync(path.dirname(file(name)), { recursive: true });
      await writeFile(file(name), bytes);
      clock += 1;
      await utimes(file(name), clock, clock);
    },
    remove: (name) => rm(file(name)),
  };
});

describe('S3 source bucket (s3rver)', () => {
  const BUCKET = 'quarry-inbox';
  let s3: TestS3;
  let n = 0;
  beforeAll(async () => {
    s3 = await startTestS3([BUCKET]);
  });
  afterAll(async () => {
    await s3?.stop();
  });
  // Each fixture gets a prefix of its own in the one bucket, as a watched prefix would.
  runSourceBucketContract('S3-compatible bucket', async () => {
    const client = createS3Client(s3.settings);
    const prefix = `run-${++n}/`;
    return {
      bucket: createS3Bucket(client, { bucket: BUCKET, prefix }),
      key: (name) => prefix + name,
      async put(name, bytes) {
        await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: prefix + name, Body: bytes }));
      },
      async remove(name) {
        await client.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: prefix + name }));
      },
    };
  });
});

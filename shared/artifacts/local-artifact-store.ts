import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DocId, Version } from '../domain/index.ts';
import { artifactMissing, checkArtifactRef, parseArtifactJson, type ArtifactName, type ArtifactStore } from './artifact-store.ts';

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && (err as { code: unknown }).code === 'ENOENT';
}

/**
 * ArtifactStore on a local directory. Writes go to a temp file and are renamed into place, so a
 * reader (or a worker restarted after SIGKILL) never sees half an artifact.
 */
export function createLocalArtifactStore(opts: { dir: string }): ArtifactStore {
  const root = path.resolve(opts.dir);

  function fileOf(docId: string, version: string, name: ArtifactName): string {
    checkArtifactRef(docId, version, name);
    return path.join(root, docId, version, name);
  }

  /**
   * Writes a temp file and renames it into place. The folder is made only when the write finds it
   * missing (the first artifact of a version): one call fewer for every other artifact.
   */
  async function atomicWrite(file: string, data: Uint8Array | string): Promise<void> {
    const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(tmp, data);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(tmp, data);
    }
    try {
      await rename(tmp, file);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  async function read(docId: string, version: string, name: ArtifactName): Promise<Buffer> {
    try {
      return await readFile(fileOf(docId, version, name));
    } catch (err) {
      if (isNotFound(err)) throw artifactMissing(docId, version, name);
      throw err;
    }
  }

  return {
    async putBytes(docId, version, name, bytes) {
      await atomicWrite(fileOf(docId, version, name), bytes);
    },
    async getBytes(docId, version, name) {
      const buf = await read(docId, version, name);
      return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    },
    async putJson(docId, version, name, value) {
      await atomicWrite(fileOf(docId, version, name), JSON.stringify(value));
    },
    async getJson(docId, version, name) {
      return parseArtifactJson((await read(docId, version, name)).toString('utf8'), docId, name);
    },
    async exists(docId, version, name) {
      try {
        await stat(fileOf(docId, version, name));
        return true;
      } catch (err) {
        if (isNotFound(err)) return false;
        throw err;
      }
    },
    async listVersions(docId) {
      DocId.parse(docId);
      try {
        const entries = await readdir(path.join(root, docId), { withFileTypes: true });
        return entries.filter((e) => e.isDirectory() && Version.safeParse(e.name).success).map((e) => e.name).sort();
      } catch (err) {
        if (isNotFound(err)) return [];
        throw err;
      }
    },
    async deleteDoc(docId, opts) {
      DocId.parse(docId);
      if (!opts?.exceptVersion) {
        await rm(path.join(root, docId), { recursive: true, force: true });
        return;
      }
      for (const v of await this.listVersions(docId)) {
        if (v !== opts.exceptVersion) await rm(path.join(root, docId, v), { recursive: true, force: true });
      }
    },
  };
}

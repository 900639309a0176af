/**
 * Source keys: how a document's source is named, whichever way it came in. The key decides the
 * doc_id (`docIdForSource`), so these prefixes never change.
 */
import { createFolderBucket } from '../../shared/sources/index.ts';

/** Source keys of files found in the watched folder (`dir:<relative/path.pdf>`); CLI registrations use `file:`. */
export const DIR_KEY_PREFIX = 'dir:';

/** Source keys of objects found in a watched bucket: `s3:<bucket>/<key>`. */
export const S3_KEY_PREFIX = 's3:';

/**
 * Source keys of every PDF in the watched folder, as the folder watcher names them, for the
 * reconciler to find files with no status record. Reads directory entries only, never a file's
 * bytes. A link named `*.pdf` is listed (the watcher records it, refused, under this key) but a
 * linked directory is never entered: nothing outside the folder is looked at.
 */
export async function listFolderSourceKeys(dir: string): Promise<string[]> {
  const objects = await createFolderBucket(dir).list();
  return objects.filter((o) => /\.pdf$/i.test(o.key)).map((o) => DIR_KEY_PREFIX + o.key).sort();
}

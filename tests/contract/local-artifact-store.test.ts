import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createLocalArtifactStore } from '../../shared/artifacts/local-artifact-store.ts';
import { runArtifactStoreContract } from './artifact-store.contract.ts';

runArtifactStoreContract('local directory', async () => createLocalArtifactStore({ dir: mkdtempSync(path.join(tmpdir(), 'quarry-artifacts-')) }));

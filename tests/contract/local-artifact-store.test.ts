import { createLocalArtifactStore } from '../../shared/artifacts/local-artifact-store.ts';
import { tempDirs } from '../helpers/temp-dirs.ts';
import { runArtifactStoreContract } from './artifact-store.contract.ts';

const tempDir = tempDirs('quarry-artifacts-');

runArtifactStoreContract('local directory', async () => createLocalArtifactStore({ dir: tempDir() }));

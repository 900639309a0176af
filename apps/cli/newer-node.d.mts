// Types of newer-node.mjs, which stays plain JavaScript so it runs on any Node before tsx loads.
export declare const MIN_NODE_MAJOR: number;
export declare function bundledNode(rootUrl: URL | string): string | null;
export declare function runOnNewerNode(entryUrl: URL | string, rootUrl: URL | string): boolean;

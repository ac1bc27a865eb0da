/**
 * The recorded conformance cases where LocalCluster still answers differently from kube-apiserver
 * v1.36.2, by `area/case`, with the reason (docs/testing.md's "Known limitations" states each).
 */
export const KNOWN_DIFFERENCES: Record<string, string> = {};

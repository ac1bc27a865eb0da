/**
 * The Kubernetes release LocalCluster emulates, as kube-apiserver v1.36.2 answers `/version`
 * (the vendored `kube-openapi-1.36/version.json`, written out here so that `/version` needs no
 * file read).
 */
export const EMULATED_VERSION = {
  major: "1",
  minor: "36",
  gitVersion: "v1.36.2",
  gitCommit: "98b35193b2ac7a23a673325f5e9b830ecd5ba406",
  gitTreeState: "clean",
  buildDate: "1970-01-01T00:00:00Z",
  goVersion: "go1.26.11",
  compiler: "gc",
  platform: "linux/amd64",
} as const;

/**
 * A fresh self-signed TLS certificate for LocalCluster's HTTPS listener in authorization mode
 * (kubectl sends a kubeconfig's credentials only to `https` servers). Built with `node:crypto`
 * alone (`src/util/x509.ts`): an EC P-256 key and a minimal X.509 v3 certificate for `127.0.0.1`
 * and `localhost`, signed with ECDSA-SHA256. It is its own CA, so a kubeconfig can trust it
 * through `certificate-authority-data` instead of skipping verification.
 */
import { generateCertificateAuthority } from "../../util/x509.ts";

/** A PEM certificate and its PEM private key. */
export interface SelfSignedCertificate {
  readonly cert: string;
  readonly key: string;
}

/**
 * A new key and a certificate valid from an hour ago for ten years, for the subject
 * `CN=localcluster` with the subject alternative names `127.0.0.1` and `localhost`.
 *
 * @example
 * ```ts
 * import { createServer } from "node:https";
 *
 * const { cert, key } = selfSignedCertificate();
 * createServer({ cert, key }, (req, res) => res.end("ok")).listen(0, "127.0.0.1");
 * ```
 */
export function selfSignedCertificate(): SelfSignedCertificate {
  return generateCertificateAuthority({ commonName: "localcluster", validityDays: 3650, dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] });
}

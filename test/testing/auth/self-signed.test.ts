/**
 * LocalCluster's self-signed certificate (authorization mode) is valid DER every time: OpenSSL
 * parses it and it verifies with its own key. A serial whose first byte came out zero used to be
 * padded, which OpenSSL refuses (about 1 start in 256 failed).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { X509Certificate, createPublicKey } from "node:crypto";
import { selfSignedCertificate } from "../../../src/testing/auth/self-signed.ts";

describe("selfSignedCertificate", () => {
  it("makes certificates OpenSSL parses and verifies, with positive minimal serials, 2,000 times over", () => {
    for (let i = 0; i < 2000; i++) {
      const { cert, key } = selfSignedCertificate();
      const x509 = new X509Certificate(cert);
      assert.ok(x509.verify(createPublicKey(key)), `certificate ${i} verifies with its key`);
      assert.match(x509.serialNumber, /^[4-7][0-9A-F]{31}$/, `serial ${x509.serialNumber}`);
      assert.ok(x509.checkIP("127.0.0.1"));
    }
  });
});

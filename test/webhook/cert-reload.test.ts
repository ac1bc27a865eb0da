/**
 * Serving certificates from a directory (a mounted TLS Secret): read at start, reloaded on
 * rotation (files rewritten, or kubelet's `..data` symlink swap), a broken new pair kept out.
 */
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { X509Certificate } from "node:crypto";
import { WebhookServer } from "../../src/webhook/server.ts";
import type { CertificateReloadEvent } from "../../src/webhook/server.ts";
import { admissionRegistrations } from "../../src/webhook/registration.ts";
import { generateCertificateAuthority, generateServingCertificate } from "../../src/util/x509.ts";
import { createLogger } from "../../src/log/logger.ts";
import type { LogRecord } from "../../src/log/logger.ts";
import { greeting, post, review } from "./support.ts";
import { within } from "../support/wait.ts";

const Greeting = { apiVersion: "example.com/v1", kind: "Greeting" };

describe("webhook server: certificates from certDir", () => {
  const dir = mkdtempSync(join(tmpdir(), "webhook-certs-"));
  const ca = generateCertificateAuthority({ commonName: "test-webhook-ca" });
  const caBundle = Buffer.from(ca.cert).toString("base64");
  const serving = () => generateServingCertificate(ca, { dnsNames: ["localhost"], ipAddresses: ["127.0.0.1"] });
  const events: CertificateReloadEvent[] = [];
  const waiters: ((e: CertificateReloadEvent) => void)[] = [];
  const nextEvent = () => new Promise<CertificateReloadEvent>((resolve) => waiters.push(resolve));
  const logs: LogRecord[] = [];
  let server: WebhookServer;
  const first = serving();

  /** Lays the pair out as kubelet does: files are symlinks into `..data`, itself a symlink to a timestamped directory, swapped atomically. */
  let generation = 0;
  function writeSecret(pair: { cert: string; key: string }): void {
    const version = `..2026_${++generation}`;
    mkdirSync(join(dir, version));
    writeFileSync(join(dir, version, "tls.crt"), pair.cert);
    writeFileSync(join(dir, version, "tls.key"), pair.key);
    writeFileSync(join(dir, version, "ca.crt"), ca.cert);
    symlinkSync(version, join(dir, "..data_tmp"));
    renameSync(join(dir, "..data_tmp"), join(dir, "..data"));
    if (generation === 1) for (const f of ["tls.crt", "tls.key", "ca.crt"]) symlinkSync(join("..data", f), join(dir, f));
  }

  before(async () => {
    writeSecret(first);
    server = new WebhookServer({
      port: 0, host: "127.0.0.1", certDir: dir, certPollIntervalMs: 250, // the poll backs up fs.watch
      logger: createLogger({ sink: (r) => logs.push(r) }),
      onCertificateReload: (e) => {
        events.push(e);
        waiters.shift()?.(e);
      },
    });
    for (const reg of admissionRegistrations("test", Greeting, { validate: () => undefined })) server.register(reg);
    await server.start(AbortSignal.timeout(10_000));
  });
  after(async () => {
    await within(server.stop(), "server.stop()");
    rmSync(dir, { recursive: true, force: true });
  });

  const serial = (pem: string) => new X509Certificate(pem).serialNumber;
  const presented = async () => {
    const res = await post(`${server.url}/validate-example-com-v1-greeting`, caBundle, review({ object: greeting({ name: "Ada" }) }));
    assert.equal(res.body.response.allowed, true);
    return res.peer.serialNumber.toUpperCase();
  };

  it("serves the pair of certDir and takes caBundle from its ca.crt", async () => {
    assert.equal(server.caBundle, caBundle);
    assert.equal(await presented(), serial(first.cert));
  });

  it("presents a rotated pair at the next handshake (kubelet's ..data symlink swap)", async () => {
    const second = serving();
    const loaded = nextEvent();
    writeSecret(second);
    assert.deepEqual(await within(loaded, "the reload after the symlink swap", 10_000), { status: "loaded" });
    assert.equal(await presented(), serial(second.cert));
  });

  it("presents a pair rewritten in place", async () => {
    const third = serving();
    const loaded = nextEvent();
    const data = join(dir, `..2026_${generation}`);
    writeFileSync(join(data, "tls.key"), third.key);
    writeFileSync(join(data, "tls.crt"), third.cert);
    // The watcher sees the directory, not the files behind its symlinks: the poll or a call picks them up.
    await server.reloadCertificates();
    assert.equal((await within(loaded, "the reload")).status, "loaded");
    assert.equal(await presented(), serial(third.cert));
  });

  it("keeps the current pair when the new one is broken, and logs an error", async () => {
    const current = await presented();
    const rejected = nextEvent();
    writeSecret({ cert: serving().cert, key: serving().key }); // a key that is not the certificate's
    const e = await within(rejected, "the rejection of the broken pair", 10_000);
    assert.equal(e.status, "rejected");
    assert.match(e.error!.message, /key values mismatch|mismatch/i);
    assert.ok(logs.some((l) => l.level === "error" && /keeping the current one/.test(l.msg)), JSON.stringify(logs));
    assert.equal(await presented(), current);
  });

  it("fails start() with the directory and the fix when the pair is missing", async () => {
    const empty = mkdtempSync(join(tmpdir(), "webhook-nocerts-"));
    try {
      const s = new WebhookServer({ port: 0, certDir: empty });
      await assert.rejects(s.start(AbortSignal.timeout(5000)), (err: Error) => {
        assert.match(err.message, new RegExp(`cannot read the serving certificate from certDir ${empty}: .*ENOENT.*Fix: mount the webhook's TLS Secret there`));
        return true;
      });
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

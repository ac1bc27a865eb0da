/**
 * Test helper: protobuf request bodies as Kubernetes clients send them, encoded with protobufjs
 * and the `generated.proto` messages LocalCluster vendors.
 */
import { UNKNOWN_MESSAGE, messageNamed } from "../../src/testing/protobuf/schema.ts";

/** `k8s\0`, the prefix of every Kubernetes protobuf document. */
export const MAGIC = Uint8Array.from([0x6b, 0x38, 0x73, 0x00]);

/** Encodes `object` (protobufjs field names) with `message`, wrapped in the `runtime.Unknown` envelope. */
export function encodeBody(message: string, object: Record<string, unknown>, typeMeta: { apiVersion: string; kind: string }): Uint8Array {
  const type = messageNamed(message);
  const raw = type.encode(type.fromObject(object)).finish();
  return envelope({ typeMeta, raw });
}

/** The prefix and a `runtime.Unknown` with the given fields. */
export function envelope(fields: Record<string, unknown>): Uint8Array {
  const unknown = messageNamed(UNKNOWN_MESSAGE);
  return Buffer.concat([MAGIC, unknown.encode(unknown.fromObject(fields)).finish()]);
}

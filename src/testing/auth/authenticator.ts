/**
 * Bearer-token authentication: LocalCluster hands out a token per identity (in the kubeconfigs it
 * writes) and maps `Authorization: Bearer <token>` back to it. Unknown or missing tokens are not
 * authenticated (kube-apiserver with `--anonymous-auth=false` answers them 401).
 */
import type { IncomingMessage } from "node:http";
import { randomBytes } from "node:crypto";
import type { UserInfo } from "./user-info.ts";

/** Tokens and the identities they stand for. */
export class TokenAuthenticator {
  readonly #users = new Map<string, UserInfo>();

  /** A fresh random token for `user`. */
  issue(user: UserInfo): string {
    const token = randomBytes(24).toString("base64url");
    this.#users.set(token, user);
    return token;
  }

  /** The identity of a request's bearer token, or undefined (no token, or not one of ours). */
  authenticate(req: IncomingMessage): UserInfo | undefined {
    const header = req.headers.authorization?.trim();
    if (!header) return undefined;
    const [scheme, token] = header.split(" ", 3);
    if (scheme?.toLowerCase() !== "bearer" || !token) return undefined;
    return this.#users.get(token);
  }
}

/**
 * The kubeconfigs LocalCluster writes for identities other than its admin, in authorization
 * mode: each with a fresh bearer token standing for one user (or service account) and its groups.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KubeConfig } from "@kubernetes/client-node";
import type { AccessControl } from "./auth/access-control.ts";
import type { UserInfo } from "./auth/user-info.ts";
import { authenticated, serviceAccountGroups, serviceAccountUsername } from "./auth/user-info.ts";
import { writeKubeconfig } from "./kubeconfig-file.ts";

/**
 * A kubeconfig written for one identity by `LocalCluster.userKubeConfig` or
 * `LocalCluster.serviceAccountKubeConfig`.
 *
 * @example
 * ```ts
 * const { kubeConfig, kubeconfigPath, token, user, groups } = await cluster.serviceAccountKubeConfig("default", "op");
 * // user: "system:serviceaccount:default:op"
 * // groups: ["system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated"]
 * ```
 */
export interface UserKubeConfig {
  /** A client-node KubeConfig authenticating as the identity. */
  kubeConfig: KubeConfig;
  /** The kubeconfig file, for kubectl (`--kubeconfig`) and other tools. */
  kubeconfigPath: string;
  /** The bearer token (`Authorization: Bearer <token>`) standing for the identity. */
  token: string;
  /** The user name requests with the token act as (the request log's `user`). */
  user: string;
  /** Its groups, `system:authenticated` included. */
  groups: string[];
}

/** Writes user kubeconfigs into the cluster's temporary folder (or one of their own) and removes them at the end. */
export class UserKubeconfigs {
  readonly #access: AccessControl | undefined;
  readonly #url: string;
  readonly #caCertificate: string | undefined;
  /** The cluster's temporary folder, when it has one. */
  readonly #clusterDir: string | undefined;
  /** A folder of their own (when the cluster's kubeconfig path was given), made on first use. */
  #ownDir: string | undefined;
  #written = 0;

  constructor(init: { access: AccessControl | undefined; url: string; caCertificate: string | undefined; clusterDir: string | undefined }) {
    this.#access = init.access;
    this.#url = init.url;
    this.#caCertificate = init.caCertificate;
    this.#clusterDir = init.clusterDir;
  }

  /** A kubeconfig for a user in `groups` (plus `system:authenticated`); TypeError on a bad name or group. */
  forUser(user: { name: string; groups?: string[] }): Promise<UserKubeConfig> {
    const groups = user?.groups ?? [];
    if (typeof user?.name !== "string" || user.name === "") {
      throw new TypeError('cluster.userKubeConfig: name must be a non-empty user name, e.g. { name: "alice" }');
    }
    if (!Array.isArray(groups) || groups.some((g) => typeof g !== "string" || g === "")) {
      throw new TypeError(`cluster.userKubeConfig: groups must be an array of non-empty group names, got ${JSON.stringify(user.groups)}`);
    }
    return this.#write(authenticated(user.name, groups), "default", "userKubeConfig");
  }

  /** A kubeconfig for the service account `namespace/name`; TypeError on an empty name or one with `:`. */
  forServiceAccount(namespace: string, name: string): Promise<UserKubeConfig> {
    for (const [field, value] of [["namespace", namespace], ["name", name]] as const) {
      if (typeof value !== "string" || value === "" || value.includes(":")) {
        throw new TypeError(`cluster.serviceAccountKubeConfig: ${field} must be a non-empty name without ":", got ${JSON.stringify(value)}`);
      }
    }
    return this.#write(authenticated(serviceAccountUsername(namespace, name), serviceAccountGroups(namespace)), namespace, "serviceAccountKubeConfig");
  }

  /** Removes the folder of their own, if one was made. */
  async cleanup(): Promise<void> {
    if (this.#ownDir) await rm(this.#ownDir, { recursive: true, force: true });
  }

  async #write(user: UserInfo, namespace: string, method: string): Promise<UserKubeConfig> {
    if (!this.#access) {
      throw new TypeError(`cluster.${method}: this cluster allows every request whatever its token; start it with LocalCluster.start({ authorization: true }) to authenticate users and enforce RBAC`);
    }
    const token = this.#access.tokens.issue(user);
    const dir = this.#clusterDir ?? (this.#ownDir ??= await mkdtemp(join(tmpdir(), "localcluster-users-")));
    const kubeconfigPath = join(dir, `kubeconfig-${++this.#written}-${user.name.replace(/[^A-Za-z0-9._-]/g, "_")}`);
    const kubeConfig = await writeKubeconfig(kubeconfigPath, this.#url, { user: user.name, token, namespace }, this.#caCertificate);
    return { kubeConfig, kubeconfigPath, token, user: user.name, groups: [...user.groups] };
  }
}

/**
 * The Greeting and Person custom resources (`greeting.example.com/v1`): typed kind handles, their
 * object types, and the CRDs and samples from this folder's YAML files.
 */
import { defineKind } from "../../src/index.ts";
import type { Condition } from "../../src/index.ts";
import type { ObjectOf } from "../../src/entries/client.ts";
import { loadYamlFolder } from "../example.ts";

/** What a Greeting asks for: exactly one of `name` (one person) and `surname` (a family). */
export interface GreetingSpec {
  name?: string;
  surname?: string;
}

/** What the operators report on a Greeting. */
export interface GreetingStatus {
  message?: string;
  /** The names of the Person objects a family greeting greets, sorted by their first names. */
  people?: string[];
  observedGeneration?: number;
  conditions?: Condition[];
}

/** A Person: both fields are required by the CRD's schema. */
export interface PersonSpec {
  firstName: string;
  surname: string;
}

/** The Greeting kind handle. */
export const Greeting = defineKind<GreetingSpec, GreetingStatus>({ apiVersion: "greeting.example.com/v1", kind: "Greeting" });
/** A Greeting object. */
export type Greeting = ObjectOf<typeof Greeting>;

/** The Person kind handle. */
export const Person = defineKind<PersonSpec>({ apiVersion: "greeting.example.com/v1", kind: "Person" });
/** A Person object. */
export type Person = ObjectOf<typeof Person>;

/** The finalizer that keeps a Person while a Greeting greets it. */
export const PERSON_FINALIZER = "greeting.example.com/greeted";

/** The Greeting and Person CRDs (`crds/*.yaml`). */
export const crds = loadYamlFolder(new URL("./crds/", import.meta.url));

/** The samples (`samples/*.yaml`): the Doe family, a simple and a family greeting. */
export const samples = loadYamlFolder(new URL("./samples/", import.meta.url));

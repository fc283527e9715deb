import type { IConstruct } from 'constructs';
import type { Problems } from '../core/problems';
import type { DeliveryTarget, ObjectPlace } from './output-layout';

/** One rendered object on its way out, placed by the layout, not yet checked or serialized. */
export interface PlacedObject extends ObjectPlace {
  /** The rendered object: the delivery may add annotations and labels (it is the synth's own copy). */
  readonly json: any;
  /** The construct that made it; for an object a delivery makes itself (an ACM Policy), the chart of its folder. */
  readonly construct: IConstruct;
}

/** A file the delivery placed an object in, as finish() sees it. */
export interface DeliveredFile {
  /** '/'-separated, under the output root. */
  readonly path: string;
  /** The object's apiVersion. */
  readonly apiVersion: string;
  /** The object's kind. */
  readonly kind: string;
  /** The object's name. */
  readonly name: string;
  /** The object's namespace. @default - none: cluster-scoped */
  readonly namespace?: string;
  /** The cluster the object is applied to. */
  readonly target: DeliveryTarget;
  /** The folder the delivery put the file in. */
  readonly folder: string;
  /**
   * The resource name (plural) that RBAC rules use for the kind, as the CRD the app checked the
   * object against names it (HcpApp's `crds` included).
   * @default - the bundled CRD's plural, or the kind's English plural as Kubernetes forms it
   */
  readonly resource?: string;
}

/** An object a delivery adds (an Argo CD Application, a Flux Kustomization, ...), checked like every other object. */
export interface DeliveryObject {
  /** The file's path under the output root, '/'-separated. */
  readonly path: string;
  /** The object, as JSON data. */
  readonly json: any;
  /** Named in problems, like a construct path: e.g. `delivery/hub/Application`. */
  readonly source: string;
}

/** What a delivery adds once every object is placed. */
export interface DeliveryAdditions {
  /** Objects of the engine, checked against their CRDs and written as YAML. */
  readonly objects: readonly DeliveryObject[];
  /** Other files, written as they are: kustomization.yaml and the like. */
  readonly files: readonly {
    /** The file's path under the output root. */
    readonly path: string;
    /** The file's text. */
    readonly text: string;
  }[];
}

/**
 * The output of the synth before this one, as a delivery reads it: what each folder held, which is
 * what each engine applied from it and still tracks (a Flux Kustomization's inventory, the objects
 * an Argo CD Application tracks). `PreviousOutput` is one.
 */
export interface PreviousDeliveredOutput {
  /** Every file's '/'-separated path under the output root. */
  paths(): readonly string[];
  /** The object `file` held, parsed, or undefined. */
  object(file: string): unknown;
}

/**
 * How synthesized objects reach their clusters: the files and folders they are written to, the
 * order they are applied in (file ranks, sync waves, `dependsOn`), the engine's protection of
 * what must never be pruned, the per-folder manifests, and the engine objects that deliver each
 * folder. `HcpApp` renders and checks the objects; the delivery decides everything after that.
 * Modeled on aws-cdk's stack synthesizers: one class per mode, chosen with `HcpAppProps.delivery`.
 */
export interface IDelivery {
  /**
   * Called once per object, in construct-tree order: annotates `object.json` as the engine needs
   * and returns the file it goes to, '/'-separated under the output root; or undefined when the
   * delivery carries the object inside one of its own (an ACM Policy): the object is then still
   * checked against its CRD, but not written as a file of its own.
   */
  place(object: PlacedObject, problems: Problems): string | undefined;
  /**
   * Called once every object is placed, with all of their files: the engine objects and files the
   * mode adds. `previous` is the output of the synth before, when there is one: what the engines
   * applied and still track, so that the engine objects can let them prune it, or adopt it.
   */
  finish(files: readonly DeliveredFile[], problems: Problems, previous?: PreviousDeliveredOutput): DeliveryAdditions;
}

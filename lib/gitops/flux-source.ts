import { Duration } from 'cdk8s';
import * as git from '../../imports/gitrepository-source.toolkit.fluxcd.io';
import { durationProblem, toGoDuration } from '../core/go-duration';
import { DNS1123_LABEL_RULE, DNS1123_SUBDOMAIN_RULE, isDns1123Label, isDns1123Subdomain } from '../core/names';
import { Problems, show } from '../core/problems';

/** The Flux namespace `flux install` and `flux bootstrap` create. */
export const FLUX_NAMESPACE = 'flux-system';

/** The Git reference a GitRepository follows: the fields of its `spec.ref`, most specific first. */
export interface FluxGitReference {
  /** A commit SHA; takes precedence over every other field. @default - none */
  readonly commit?: string;
  /** A full Git reference such as `refs/heads/main`; precedes branch, tag and semver. @default - none */
  readonly name?: string;
  /** A semver range of tags, e.g. `>=1.0.0`; precedes tag. @default - none */
  readonly semver?: string;
  /** A tag. @default - none */
  readonly tag?: string;
  /** A branch. @default - none */
  readonly branch?: string;
}

/** Props of `FluxSource.gitRepository`. */
export interface FluxGitRepositoryProps {
  /** `metadata.name` of the GitRepository, e.g. `flux-system` (the one `flux bootstrap` makes). */
  readonly name: string;
  /**
   * Its namespace; Kustomizations in other namespaces (the guests') reference it across namespaces.
   * @default 'flux-system'
   */
  readonly namespace?: string;
  /**
   * The repository the output is pushed to (`http://`, `https://` or `ssh://`). With it, the delivery
   * writes the GitRepository into each management cluster's bootstrap folder; without it, the
   * Kustomizations reference a GitRepository that already exists (e.g. `flux bootstrap`'s).
   * @default - reference an existing GitRepository
   */
  readonly url?: string;
  /**
   * The branch to follow, with `url`.
   * @default 'main'
   */
  readonly branch?: string;
  /**
   * The reference to follow instead of a branch (a tag, semver range, commit or full ref), with `url`.
   * @default - the branch
   */
  readonly ref?: FluxGitReference;
  /**
   * How often source-controller looks for new commits, with `url`.
   * @default Duration.minutes(1)
   */
  readonly interval?: Duration;
  /**
   * The Secret (in `namespace`) with the credentials: `username`/`password` or `bearerToken` for
   * HTTPS, `identity` and `known_hosts` for SSH. Create it outside Git, e.g. `flux create secret git`.
   * @default - none: a public repository
   */
  readonly secretName?: string;
}

/** A `spec.sourceRef` of a Flux Kustomization. */
export interface FluxSourceReference {
  /** The source's kind, e.g. `GitRepository`. */
  readonly kind: string;
  /** The source's name. */
  readonly name: string;
  /** The source's namespace. */
  readonly namespace: string;
}

/**
 * Where Flux fetches the synthesized folders from: `FluxSource.gitRepository()`, either written by
 * the delivery (with a URL) or one that exists on the management clusters.
 */
export abstract class FluxSource {
  /** A `GitRepository` (source.toolkit.fluxcd.io/v1). */
  public static gitRepository(props: FluxGitRepositoryProps): FluxSource {
    return new GitRepositorySource(props);
  }

  /** What the Kustomizations name in `spec.sourceRef`. */
  public abstract readonly reference: FluxSourceReference;

  /** Records the problems of the props, each `<field> (<value>) <expectation>`. */
  public abstract check(problems: Problems): void;

  /** The source object the delivery writes to each management cluster, if it owns one. */
  public abstract render(): any;
}

/** What a GitRepository URL must look like (the CRD's own pattern, with a host). */
const GIT_URL = /^(https?|ssh):\/\/[^\s/]+(\/\S*)?$/;
const GIT_URL_RULE = 'must be an http://, https:// or ssh:// URL of a Git repository; Flux reads no scp-like "git@host:path", write ssh://git@host/path';
const REFERENCE_FIELDS: readonly (keyof FluxGitReference)[] = ['commit', 'name', 'semver', 'tag', 'branch'];

class GitRepositorySource extends FluxSource {
  public readonly reference: FluxSourceReference;

  constructor(private readonly props: FluxGitRepositoryProps) {
    super();
    this.reference = { kind: git.GitRepository.GVK.kind, name: props?.name, namespace: props?.namespace ?? FLUX_NAMESPACE };
  }

  public check(problems: Problems): void {
    const props = this.props ?? ({} as FluxGitRepositoryProps);
    problems.require(typeof props.name === 'string' && isDns1123Subdomain(props.name), 'name', props.name, DNS1123_SUBDOMAIN_RULE);
    problems.require(isDns1123Label(this.reference.namespace), 'namespace', this.reference.namespace, DNS1123_LABEL_RULE);
    if (props.url === undefined) {
      // Only a GitRepository the delivery writes has these; an existing one has its own.
      for (const field of ['branch', 'ref', 'interval', 'secretName'] as const) {
        if (props[field] !== undefined)
          problems.add(`${field} (${showProp(props[field])}) is only used with url: the delivery writes no GitRepository without one, the existing ${show(props.name)} keeps its own`);
      }
      return;
    }
    problems.require(typeof props.url === 'string' && GIT_URL.test(props.url), 'url', props.url, GIT_URL_RULE);
    if (props.branch !== undefined && props.ref !== undefined) problems.add(`branch (${show(props.branch)}) and ref (${showProp(props.ref)}) exclude each other: give one`);
    if (props.branch !== undefined) problems.require(props.branch.trim() !== '', 'branch', props.branch, 'must name a branch');
    if (props.ref !== undefined) {
      const given = REFERENCE_FIELDS.filter((field) => props.ref![field] !== undefined && props.ref![field] !== '');
      problems.require(given.length > 0, 'ref', props.ref, `must name one of ${REFERENCE_FIELDS.join(', ')}`);
    }
    const interval = props.interval === undefined ? undefined : durationProblem('interval', props.interval, { example: 'Duration.minutes(1)', least: 1 });
    if (interval) problems.add(interval);
    if (props.secretName !== undefined) problems.require(isDns1123Subdomain(props.secretName), 'secretName', props.secretName, DNS1123_SUBDOMAIN_RULE);
  }

  public render(): any {
    const props = this.props;
    if (props.url === undefined) return undefined;
    const spec: git.GitRepositorySpec = {
      url: props.url,
      ref: props.ref ?? { branch: props.branch ?? 'main' },
      interval: toGoDuration(props.interval ?? Duration.minutes(1)),
      secretRef: props.secretName === undefined ? undefined : { name: props.secretName },
    };
    return { ...git.GitRepository.GVK, metadata: { name: this.reference.name, namespace: this.reference.namespace }, spec: git.toJson_GitRepositorySpec(spec) };
  }
}

/** A prop as the user wrote it: a Duration by its Go form, the rest as JSON. */
function showProp(value: unknown): string {
  return show(value instanceof Duration ? toGoDuration(value) : value);
}

import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as K8s from '@kubernetes/client-node';
import { PlanInputError } from '../output-snapshot';

/** The management cluster could not be read: no kubeconfig, an unknown context, a server out of reach, a read refused. */
export class LiveReadError extends PlanInputError {
  constructor(message: string) {
    super(message);
    this.name = 'LiveReadError';
  }
}

/** Which cluster to read, as kubectl picks it. */
export interface KubeconfigOptions {
  /**
   * The kubeconfig file.
   * @default - the files KUBECONFIG names (merged as kubectl merges them), else ~/.kube/config
   */
  readonly kubeconfig?: string;
  /**
   * The context of the kubeconfig to use.
   * @default - the kubeconfig's current context
   */
  readonly context?: string;
  /**
   * How long one request may take, in milliseconds.
   * @default 15000
   */
  readonly timeoutMs?: number;
}

/** A kind, by its apiVersion and kind. */
export interface KindIdentity {
  /** The kind's apiVersion. */
  readonly apiVersion: string;
  /** The kind. */
  readonly kind: string;
}

/** How many objects one page of a list asks for (`limit`): kubectl's default chunk size. */
export const DEFAULT_LIST_PAGE_SIZE = 500;

/** What plan --live needs to read objects by get, said when a read is refused. */
const GET_NEEDED = 'plan --live needs get on every kind of the output but Secrets, which it does not read';

/** An object by what names it. */
export interface ObjectIdentity {
  /** The object's apiVersion. */
  readonly apiVersion: string;
  /** The object's kind. */
  readonly kind: string;
  /** The object's namespace. @default - none: cluster-scoped */
  readonly namespace?: string;
  /** The object's name. */
  readonly name: string;
}

/**
 * A Kubernetes API server read through a kubeconfig context, and only read: it has no method that
 * writes, and its transport refuses any request but GET before it is sent, so nothing this
 * process does through it (discovery, a library call, a bug) can change the cluster.
 * @kubernetes/client-node does the kubeconfig (files, contexts, tokens, certificates, exec
 * plugins, OIDC); it is loaded when the first ReadOnlyCluster is made, not with hcp-cdk.
 */
export class ReadOnlyCluster {
  /** Reads the kubeconfig and picks the context; throws LiveReadError with one line when it cannot. */
  public static connect(options: KubeconfigOptions = {}): ReadOnlyCluster {
    const k8s = clientNode();
    const { config, source } = loadKubeconfig(k8s, options.kubeconfig);
    const contexts = config.getContexts().map((c) => c.name);
    const known = contexts.length > 0 ? `its contexts: ${contexts.join(', ')}` : 'it has no context';
    const name = options.context ?? config.getCurrentContext();
    if (!name) throw new LiveReadError(`${source} names no current context (${known}); give one with --context`);
    const context = config.getContextObject(name);
    if (!context) {
      throw new LiveReadError(
        `context ${JSON.stringify(name)} is not in ${source}${options.context === undefined ? ', though it is the current context' : ''} (${known}); give one of them with --context`,
      );
    }
    config.setCurrentContext(name);
    const cluster = config.getCurrentCluster();
    if (!cluster?.server) throw new LiveReadError(`context ${JSON.stringify(name)} of ${source} names cluster ${JSON.stringify(context.cluster)}, which ${source} does not hold`);
    return new ReadOnlyCluster(k8s, config, name, cluster.server, context.user, options.timeoutMs ?? 15000);
  }

  /** The contexts of a kubeconfig (found as `connect` finds it) and its current one; throws LiveReadError as `connect` does. */
  public static contexts(kubeconfig?: string): {
    /** The contexts' names. */
    readonly names: readonly string[];
    /** The current context. @default - none */
    readonly current?: string;
    /** Where the kubeconfig was read, for messages. */
    readonly source: string;
  } {
    const { config, source } = loadKubeconfig(clientNode(), kubeconfig);
    const current = config.getCurrentContext();
    return { names: config.getContexts().map((c) => c.name), ...(current ? { current } : {}), source };
  }

  private readonly api: K8s.KubernetesObjectApi & {
    served(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined>;
    listPage(kind: KindIdentity, namespace: string | undefined, limit: number, token: string | undefined): Promise<any>;
  };
  private readonly discovery = new Map<string, Promise<K8s.V1APIResource | undefined>>();
  private readonly k8s: typeof K8s;

  private constructor(
    k8s: typeof K8s,
    config: K8s.KubeConfig,
    /** The kubeconfig context it reads through. */
    public readonly context: string,
    /** The API server's URL. */
    public readonly server: string,
    private readonly user: string,
    timeoutMs: number,
  ) {
    this.k8s = k8s;
    const configuration = k8s.createConfiguration({
      baseServer: new k8s.ServerConfiguration(server, {}),
      authMethods: { default: config },
      httpApi: new ReadOnlyHttp(new k8s.IsomorphicFetchHttpLibrary(), k8s, timeoutMs),
    });
    // resource() (discovery) is protected: a subclass makes it callable, to tell a kind the server does not serve from an object it does not hold.
    const Api = class extends k8s.KubernetesObjectApi {
      public served(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined> {
        return this.resource(apiVersion, kind);
      }

      /**
       * One page of a list, as the server's JSON. The library's own list() turns the answer of a
       * kind it has no model for into an object whose metadata is an object's, which drops the
       * list's `continue` token; this sends the same GET through the same transport and reads the body.
       */
      public async listPage(kind: KindIdentity, namespace: string | undefined, limit: number, token: string | undefined): Promise<any> {
        const path = await this.specUriPath({ apiVersion: kind.apiVersion, kind: kind.kind, metadata: { namespace } }, 'list');
        const request = this.configuration.baseServer.makeRequestContext(path, k8s.HttpMethod.GET);
        request.setHeaderParam('Accept', 'application/json');
        request.setQueryParam('limit', String(limit));
        if (token !== undefined) request.setQueryParam('continue', token);
        await this.configuration.authMethods.default?.applySecurityAuthentication(request);
        const response = await this.configuration.httpApi.send(request).toPromise();
        const body = await response.body.text();
        if (response.httpStatusCode < 200 || response.httpStatusCode > 299) throw new k8s.ApiException(response.httpStatusCode, 'Unsuccessful HTTP Request', body, response.headers);
        return JSON.parse(body);
      }
    };
    this.api = new Api(configuration);
  }

  /**
   * The object as the server holds it (`object` undefined when it holds none), and whether the
   * server serves its kind at all (a CRD not installed). Throws LiveReadError when the server
   * cannot be reached or refuses the read.
   */
  public async get(object: ObjectIdentity): Promise<{
    /** Whether the cluster serves the kind. */
    readonly served: boolean;
    /** The object, when it exists. */
    readonly object?: any;
  }> {
    const what = `read ${describe(object)}`;
    const served = await this.request(what, GET_NEEDED, () => this.served(object.apiVersion, object.kind));
    if (!served) return { served: false };
    try {
      return {
        served: true,
        object: await this.request(what, GET_NEEDED, () => this.api.read({ apiVersion: object.apiVersion, kind: object.kind, metadata: { name: object.name, namespace: object.namespace } })),
      };
    } catch (error) {
      if (error instanceof NotFound) return { served: true };
      throw error;
    }
  }

  /**
   * Every object of a kind in a namespace (every namespace when none is given), read by list a page
   * at a time (`limit`, then `continue` until the server gives no token), as kubectl reads in
   * chunks: the server never builds one answer of thousands of objects, and the reader holds one
   * page at a time. A continue token the server no longer holds (410 Gone, its compaction passed it)
   * starts the list again once. `served` is false when the server does not serve the kind at all.
   * Throws LiveReadError when the server cannot be reached or refuses the list; `needed` says what
   * the reader needs, for the 403 message.
   */
  public async list(
    kind: KindIdentity,
    namespace: string | undefined,
    options: {
      /** Objects per page. @default DEFAULT_LIST_PAGE_SIZE */
      readonly pageSize?: number;
      /** What the reader needs, said when the list is refused (403). @default - that it needs list on the kind */
      readonly needed?: string;
    } = {},
  ): Promise<{
    /** Whether the cluster serves the kind. */
    readonly served: boolean;
    /** The objects. */
    readonly items: readonly any[];
    /** How many pages it took. */
    readonly pages: number;
  }> {
    const where = namespace ? ` in namespace ${namespace}` : '';
    const what = `list ${kind.kind} objects${where}`;
    const needed = options.needed ?? `the reader needs list on ${kind.kind} objects${where}`;
    const served = await this.request(what, needed, () => this.served(kind.apiVersion, kind.kind));
    if (!served) return { served: false, items: [], pages: 0 };
    const limit = options.pageSize ?? DEFAULT_LIST_PAGE_SIZE;
    for (let attempt = 1; ; attempt++) {
      const items: any[] = [];
      let pages = 0;
      let token: string | undefined;
      try {
        do {
          const page = await this.request(what, needed, () => this.api.listPage(kind, namespace, limit, token));
          pages++;
          for (const item of Array.isArray(page?.items) ? page.items : []) items.push(item);
          token = typeof page?.metadata?.continue === 'string' && page.metadata.continue !== '' ? page.metadata.continue : undefined;
        } while (token !== undefined);
        return { served: true, items, pages };
      } catch (error) {
        if (!(error instanceof Expired) || attempt === 2) throw error instanceof Expired ? new LiveReadError(`${error.message}, twice`) : error;
      }
    }
  }

  /** The served resource of a kind, once per kind; undefined when the server does not serve it. */
  private served(apiVersion: string, kind: string): Promise<K8s.V1APIResource | undefined> {
    const key = `${apiVersion}|${kind}`;
    let found = this.discovery.get(key);
    if (!found) {
      found = this.api.served(apiVersion, kind).catch((error) => {
        if (error instanceof this.k8s.ApiException && error.code === 404) return undefined;
        throw error;
      });
      this.discovery.set(key, found);
    }
    return found;
  }

  /**
   * Runs one read, turning the client's errors into one-line LiveReadErrors (a 404 into NotFound, a
   * 410 into Expired). `what` is the read (`read HostedCluster clusters/prod`), `needed` what the
   * reader needs, said on a 403.
   */
  private async request<T>(what: string, needed: string, read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if (error instanceof this.k8s.ApiException) {
        if (error.code === 404) throw new NotFound();
        const status = statusMessage(error.body) ?? `HTTP ${error.code}`;
        if (error.code === 410)
          throw new Expired(`the management cluster at ${this.server} (context ${this.context}) no longer holds the list it was asked to continue (${what}: 410 Gone: ${status})`);
        if (error.code === 401) {
          throw new LiveReadError(
            `the management cluster at ${this.server} (context ${this.context}) does not accept the credentials of user ${JSON.stringify(this.user)} (401 Unauthorized: ${status}); log in again or fix the kubeconfig`,
          );
        }
        if (error.code === 403) {
          throw new LiveReadError(`the management cluster at ${this.server} (context ${this.context}) refuses to let user ${JSON.stringify(this.user)} ${what} (403 Forbidden: ${status}); ${needed}`);
        }
        throw new LiveReadError(`the management cluster at ${this.server} (context ${this.context}) answered the request to ${what} with ${error.code}: ${status}`);
      }
      if (error instanceof LiveReadError) throw error;
      throw new LiveReadError(`cannot reach the management cluster at ${this.server} (context ${this.context}): ${reason(error)}`);
    }
  }
}

/** The transport, refusing every request but GET before it is sent, and ending any that outlasts the timeout. */
class ReadOnlyHttp implements K8s.HttpLibrary {
  constructor(
    private readonly inner: K8s.HttpLibrary,
    private readonly k8s: typeof K8s,
    private readonly timeoutMs: number,
  ) {}

  public send(request: K8s.RequestContext): K8s.Observable<K8s.ResponseContext> {
    const method = request.getHttpMethod();
    if (method !== this.k8s.HttpMethod.GET) {
      return new this.k8s.Observable(
        Promise.reject(
          new LiveReadError(`hcp-cdk only reads management clusters (plan --live, rollout status and advance): a ${method} request to ${request.getUrl()} was refused before it was sent`),
        ),
      );
    }
    if (!request.getSignal()) request.setSignal(AbortSignal.timeout(this.timeoutMs));
    return this.inner.send(request);
  }
}

class NotFound extends Error {}

/** A list's continue token the server no longer holds. */
class Expired extends Error {}

let loaded: typeof K8s | undefined;

/**
 * @kubernetes/client-node, loaded on first use: it takes about half a second, which a plan without
 * --live does not pay. It is ES-module only; node >= 20.19 loads it with require().
 */
function clientNode(): typeof K8s {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use and synchronously, which import() is not
  loaded ??= require('@kubernetes/client-node') as typeof K8s;
  return loaded;
}

/** The kubeconfig as kubectl finds it: the file given, else KUBECONFIG's files merged (first one wins), else ~/.kube/config. */
function loadKubeconfig(k8s: typeof K8s, file: string | undefined): { config: K8s.KubeConfig; source: string } {
  let files: string[];
  let source: string;
  if (file !== undefined) {
    if (!fs.existsSync(file)) throw new LiveReadError(`--kubeconfig ${file}: no such file`);
    files = [file];
    source = file;
  } else if (process.env.KUBECONFIG) {
    const named = process.env.KUBECONFIG.split(path.delimiter).filter((f) => f !== '');
    files = named.filter((f) => fs.existsSync(f));
    if (files.length === 0) throw new LiveReadError(`no kubeconfig: KUBECONFIG names ${named.join(', ')}, and none of them exists; give --kubeconfig <file>`);
    source = files.length === 1 ? files[0] : `the kubeconfig files of KUBECONFIG (${files.join(', ')})`;
  } else {
    const home = path.join(os.homedir(), '.kube', 'config');
    if (!fs.existsSync(home)) throw new LiveReadError(`no kubeconfig: KUBECONFIG is not set and ${home} does not exist; give --kubeconfig <file> (plan --live reads the management cluster with it)`);
    files = [home];
    source = home;
  }
  const configs = files.map((each) => {
    const one = new k8s.KubeConfig();
    try {
      one.loadFromFile(each);
    } catch (error) {
      throw new LiveReadError(`${each} is not a kubeconfig: ${reason(error)}`);
    }
    return one;
  });
  // As kubectl merges KUBECONFIG's files: the first to name a cluster, user or context, or to set the current context, wins.
  const firstByName = <T extends { name: string }>(lists: T[][]): T[] => {
    const byName = new Map<string, T>();
    for (const item of lists.flat()) if (!byName.has(item.name)) byName.set(item.name, item);
    return [...byName.values()];
  };
  const config = new k8s.KubeConfig();
  config.loadFromOptions({
    clusters: firstByName(configs.map((c) => c.clusters)),
    users: firstByName(configs.map((c) => c.users)),
    contexts: firstByName(configs.map((c) => c.contexts)),
    currentContext: configs.map((c) => c.currentContext).find((c) => !!c) ?? '',
  });
  return { config, source };
}

function describe(object: ObjectIdentity): string {
  return `${object.kind} ${object.namespace ? `${object.namespace}/` : ''}${object.name}`;
}

/** A Status body's message. */
function statusMessage(body: unknown): string | undefined {
  let parsed: any = body;
  if (typeof body === 'string') {
    try {
      parsed = JSON.parse(body);
    } catch {
      return body.trim() === '' ? undefined : body.trim().split('\n')[0];
    }
  }
  return typeof parsed?.message === 'string' ? parsed.message : undefined;
}

/** The first line of an error's message (errors of the client come from another realm under jest: no instanceof Error). */
function reason(error: unknown): string {
  const message = typeof (error as any)?.message === 'string' ? (error as any).message : String(error);
  const code = (error as any)?.code;
  if ((error as any)?.name === 'AbortError' || (error as any)?.name === 'TimeoutError') return 'no answer in time (timed out)';
  const first = message.split('\n')[0];
  return typeof code === 'string' && !first.includes(code) ? `${first} (${code})` : first;
}

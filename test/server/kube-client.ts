// A small Kubernetes API client for the server tests: plain https with the server's CA, every answer
// returned as status code and parsed body (never thrown), so that a test can assert a 403 as easily
// as a 201. Resource paths come from the server's discovery, so any served kind works.
import * as fs from 'fs';
import * as https from 'https';
import * as YAML from 'yaml';

/** How to reach a server (see KubeApiServer). */
export interface ServerConnection {
  /** `https://127.0.0.1:<port>`. */
  readonly url: string;
  /** The server's self-signed serving certificate, trusted as the CA. */
  readonly caFile: string;
  /** A bearer token of user `admin` in group `system:masters`, which RBAC lets do anything, impersonation included. */
  readonly token: string;
}

/** Any manifest, or just what names an object. */
export interface ObjectReference {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name?: string; readonly namespace?: string; readonly [key: string]: unknown };
  readonly [key: string]: unknown;
}

/** The server's answer. */
export interface ApiResponse {
  /** The HTTP status: 200/201 accepted, 403 forbidden, 404 not found, 409 conflict, 422 invalid, ... */
  readonly status: number;
  /** The parsed JSON body (the object, or a `Status` on failure), or the text of a non-JSON answer. */
  readonly body: any;
  /** The `Status` message of a failure, else ''. */
  readonly message: string;
}

/** Who a request is made as, through the `Impersonate-User` and `Impersonate-Group` headers. */
export interface ImpersonatedUser {
  readonly user: string;
  /** @default - none of its own (the server adds `system:authenticated`) */
  readonly groups?: readonly string[];
}

/** The users tests make requests as. */
export class Impersonation {
  /** A user in `groups`. */
  public static user(user: string, groups: readonly string[] = []): ImpersonatedUser {
    return { user, groups };
  }

  /** A ServiceAccount, with the groups its token carries on a cluster. */
  public static serviceAccount(namespace: string, name: string): ImpersonatedUser {
    return {
      user: `system:serviceaccount:${namespace}:${name}`,
      groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, 'system:authenticated'],
    };
  }

  private constructor() {}
}

export interface RequestOptions {
  /** @default - the admin of the connection's token (system:masters) */
  readonly impersonate?: ImpersonatedUser;
}

export interface WriteOptions extends RequestOptions {
  /** Send with `dryRun=All`: the server checks everything and stores nothing. @default false */
  readonly dryRun?: boolean;
}

export interface DeleteOptions extends WriteOptions {
  /** `propagationPolicy` of the DeleteOptions body: `Foreground`, `Background` or `Orphan`. @default - the kind's default */
  readonly propagationPolicy?: 'Foreground' | 'Background' | 'Orphan';
}

export interface ApplyOptions extends WriteOptions {
  /** The server-side apply field manager. @default 'hcp-cdk' */
  readonly fieldManager?: string;
}

/** One event of a watch. */
export interface WatchEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  readonly object: any;
}

interface ServedResource {
  readonly name: string;
  readonly namespaced: boolean;
}

export class KubeClient {
  /** The server that jest's globalSetup of the `server` project started (see global-setup.ts). */
  public static fromEnvironment(): KubeClient {
    const file = process.env[CONNECTION_FILE_VARIABLE];
    if (!file) {
      throw new Error(`${CONNECTION_FILE_VARIABLE} is not set: the server tests run in the jest project \`server\`, whose globalSetup starts the kube-apiserver (jest --selectProjects server)`);
    }
    return new KubeClient(JSON.parse(fs.readFileSync(file, 'utf8')));
  }

  private readonly agent: https.Agent;
  private readonly discovery = new Map<string, Promise<Map<string, ServedResource>>>();

  constructor(public readonly connection: ServerConnection) {
    this.agent = new https.Agent({ ca: fs.readFileSync(connection.caFile), keepAlive: true, maxSockets: 16 });
  }

  /**
   * Server-side apply (`fieldValidation=Strict`, `force=true`): creates the object or updates the
   * fields the field manager owns. YAML text is sent as it is, for the server's YAML reader (the
   * one `kubectl apply --server-side` and the GitOps engines' readers follow) to read.
   */
  public async apply(object: ObjectReference | string, options: ApplyOptions = {}): Promise<ApiResponse> {
    const query = { fieldManager: options.fieldManager ?? 'hcp-cdk', fieldValidation: 'Strict', force: 'true', ...dryRun(options) };
    const target: ObjectReference = typeof object === 'string' ? YAML.parse(object) : object;
    return this.request('PATCH', await this.objectPath(target, { named: true }), {
      query,
      body: typeof object === 'string' ? object : JSON.stringify(object),
      contentType: 'application/apply-patch+yaml',
      impersonate: options.impersonate,
    });
  }

  /** POST to the object's collection (`fieldValidation=Strict`). */
  public async create(object: ObjectReference, options: WriteOptions = {}): Promise<ApiResponse> {
    return this.request('POST', await this.objectPath(object, { named: false }), {
      query: { fieldValidation: 'Strict', ...dryRun(options) },
      body: JSON.stringify(object),
      impersonate: options.impersonate,
    });
  }

  public async get(object: ObjectReference, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request('GET', await this.objectPath(object, { named: true }), options);
  }

  /** The objects of `kind` in `namespace`, or in every namespace when none is given. */
  public async list(apiVersion: string, kind: string, namespace?: string, options: RequestOptions = {}): Promise<ApiResponse> {
    return this.request('GET', await this.collectionPath(apiVersion, kind, namespace), options);
  }

  /**
   * `list`, asked again while the server answers 429: a CRD's watch cache does while it initializes,
   * and a controller's informer retries.
   */
  public async listSettled(apiVersion: string, kind: string, namespace?: string, options: RequestOptions = {}): Promise<ApiResponse> {
    let listed = await this.list(apiVersion, kind, namespace, options);
    for (let attempt = 1; listed.status === 429 && attempt <= 20; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      listed = await this.list(apiVersion, kind, namespace, options);
    }
    return listed;
  }

  /**
   * PUT to the status subresource (RBAC verb `update` on `<resource>/status`). Without
   * `metadata.resourceVersion`, the object's current one is read first, as the same user.
   */
  public async updateStatus(object: ObjectReference, options: WriteOptions = {}): Promise<ApiResponse> {
    let body = object;
    if (object.metadata.resourceVersion === undefined) {
      const current = await this.get(object, options);
      if (current.status !== 200) return current;
      body = { ...object, metadata: { ...object.metadata, resourceVersion: current.body.metadata.resourceVersion } };
    }
    return this.request('PUT', `${await this.objectPath(object, { named: true })}/status`, {
      query: { fieldValidation: 'Strict', ...dryRun(options) },
      body: JSON.stringify(body),
      impersonate: options.impersonate,
    });
  }

  public async delete(object: ObjectReference, options: DeleteOptions = {}): Promise<ApiResponse> {
    const body = options.propagationPolicy ? JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: options.propagationPolicy }) : undefined;
    return this.request('DELETE', await this.objectPath(object, { named: true }), { query: dryRun(options), body, impersonate: options.impersonate });
  }

  /** The resource (plural) that serves `kind` in `apiVersion`, as RBAC rules name it, and whether it is namespaced. */
  public async resource(apiVersion: string, kind: string): Promise<{ readonly name: string; readonly namespaced: boolean }> {
    return this.served(apiVersion, kind);
  }

  /**
   * Watches `kind` (in `namespace`, or everywhere) until `done` returns true for an event (true), or
   * until the server ends the watch (false), which it may do at any time, e.g. when the watcher reads
   * the events slower than they come. A watch starts with an ADDED event for each object there is.
   * Rejects after `timeoutMs`.
   */
  public async watch(apiVersion: string, kind: string, namespace: string | undefined, done: (event: WatchEvent) => boolean, timeoutMs: number): Promise<boolean> {
    const path = await this.collectionPath(apiVersion, kind, namespace);
    const url = new URL(`${this.connection.url}${path}?watch=true`);
    return new Promise<boolean>((resolve, reject) => {
      const finish = (error?: Error, awaited = false): void => {
        clearTimeout(timer);
        request.destroy();
        if (error) reject(error);
        else resolve(awaited);
      };
      const request = https.request(url, { method: 'GET', agent: this.agent, headers: this.headers() }, (response) => {
        if (response.statusCode !== 200) {
          finish(new Error(`watch ${path}: status ${response.statusCode}`));
          return;
        }
        let pending = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          pending += chunk;
          let end: number;
          while ((end = pending.indexOf('\n')) >= 0) {
            const line = pending.slice(0, end);
            pending = pending.slice(end + 1);
            if (line.trim() && done(JSON.parse(line))) {
              finish(undefined, true);
              return;
            }
          }
        });
        response.on('end', () => finish());
      });
      const timer = setTimeout(() => finish(new Error(`watch ${path}: the awaited event did not come within ${timeoutMs} ms`)), timeoutMs);
      request.on('error', (error) => finish(error));
      request.end();
    });
  }

  /** One request to `path` (e.g. `/readyz`), with the admin's token or as `impersonate`. */
  public request(
    method: string,
    path: string,
    options: {
      readonly query?: Record<string, string>;
      readonly body?: string;
      readonly contentType?: string;
      readonly impersonate?: ImpersonatedUser;
    } = {},
  ): Promise<ApiResponse> {
    const url = new URL(`${this.connection.url}${path}`);
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value);
    const headers = this.headers(options.impersonate);
    if (options.body !== undefined) headers['Content-Type'] = options.contentType ?? 'application/json';
    return new Promise((resolve, reject) => {
      const request = https.request(url, { method, agent: this.agent, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const body = /json/.test(response.headers['content-type'] ?? '') ? parseJson(text) : text;
          const message = body?.kind === 'Status' && body.status !== 'Success' ? String(body.message ?? '') : '';
          resolve({ status: response.statusCode ?? 0, body, message });
        });
        response.on('error', reject);
      });
      request.on('error', reject);
      request.end(options.body);
    });
  }

  /** The path of the object's collection, or of the object itself when `named`. */
  public async objectPath(object: ObjectReference, options: { readonly named: boolean }): Promise<string> {
    const { name, namespace } = object.metadata;
    const collection = await this.collectionPath(object.apiVersion, object.kind, namespace, { requireNamespace: true });
    if (!options.named) return collection;
    if (!name) throw new Error(`${object.kind}: metadata.name is missing; a request for one object needs it`);
    return `${collection}/${encodeURIComponent(name)}`;
  }

  /** Closes the kept-alive connections. */
  public close(): void {
    this.agent.destroy();
  }

  private async collectionPath(apiVersion: string, kind: string, namespace: string | undefined, options: { readonly requireNamespace?: boolean } = {}): Promise<string> {
    const resource = await this.served(apiVersion, kind);
    const base = apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`;
    if (!resource.namespaced || (namespace === undefined && !options.requireNamespace)) return `${base}/${resource.name}`;
    if (!namespace) throw new Error(`${kind} (${apiVersion}) is namespaced: metadata.namespace is missing`);
    return `${base}/namespaces/${encodeURIComponent(namespace)}/${resource.name}`;
  }

  /** The resource that serves `kind`, from the group version's discovery (read again once when the kind is not in it, as a CRD may have come since). */
  private async served(apiVersion: string, kind: string): Promise<ServedResource> {
    for (const fresh of [false, true]) {
      if (fresh || !this.discovery.has(apiVersion)) this.discovery.set(apiVersion, this.discover(apiVersion));
      const resources = await this.discovery.get(apiVersion)!.catch((error) => {
        this.discovery.delete(apiVersion);
        throw error;
      });
      const resource = resources.get(kind);
      if (resource) return resource;
    }
    const known = [...(await this.discovery.get(apiVersion)!).keys()].join(', ') || 'none';
    throw new Error(`${kind}: the server serves no such kind in ${apiVersion} (it serves ${known})`);
  }

  private async discover(apiVersion: string): Promise<Map<string, ServedResource>> {
    const response = await this.request('GET', apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
    if (response.status !== 200) {
      throw new Error(`${apiVersion}: the server does not serve this API version (discovery answered ${response.status}); is its CRD installed and Established?`);
    }
    const resources = new Map<string, ServedResource>();
    // Subresources (`hostedclusters/status`) share the kind: only the resources themselves.
    for (const r of response.body.resources as any[]) if (!r.name.includes('/')) resources.set(r.kind, { name: r.name, namespaced: r.namespaced });
    return resources;
  }

  private headers(impersonate?: ImpersonatedUser): Record<string, string | string[]> {
    const headers: Record<string, string | string[]> = { Authorization: `Bearer ${this.connection.token}`, Accept: 'application/json' };
    if (impersonate) {
      headers['Impersonate-User'] = impersonate.user;
      if (impersonate.groups?.length) headers['Impersonate-Group'] = [...impersonate.groups];
    }
    return headers;
  }
}

/** The environment variable that names the connection file of jest's server (see global-setup.ts). */
export const CONNECTION_FILE_VARIABLE = 'HCP_CDK_TEST_APISERVER';

/** The parsed JSON, or the text when it is not JSON after all. */
function parseJson(text: string): any {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function dryRun(options: WriteOptions): Record<string, string> {
  return options.dryRun ? { dryRun: 'All' } : {};
}

// jest globalTeardown of the `server` project: stops the server global-setup.ts started.
import { SERVER_GLOBAL } from './global-setup';
import type { KubeApiServer } from './kube-apiserver';

export default async function globalTeardown(): Promise<void> {
  await ((globalThis as Record<string, unknown>)[SERVER_GLOBAL] as KubeApiServer | undefined)?.stop();
}

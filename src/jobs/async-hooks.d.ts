// workerd's AsyncLocalStorage (nodejs_compat), the one Node API the jobs use (durable-names.ts): typed
// here so the Workers program needs no Node types. Host programs that have @types/node never include it.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}

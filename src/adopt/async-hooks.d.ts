// workerd's AsyncLocalStorage (nodejs_compat, which `agents` requires): the part scope.ts uses.
// Node's own types stay out of src (tsconfig.json), so the module is declared here.
declare module "node:async_hooks" {
  export class AsyncLocalStorage<T> {
    getStore(): T | undefined;
    run<R>(store: T, callback: () => R): R;
  }
}

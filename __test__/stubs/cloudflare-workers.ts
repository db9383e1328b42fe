// Stand-in for the Workers runtime module `cloudflare:workers`, which Node cannot load.
// `@cloudflare/codemode` 0.5.6 imports it from its `/ai` entry (for `ToolSetConnector`, via
// `CodemodeConnector extends WorkerEntrypoint`) and its root entry; `createCodeTool` itself
// never touches these classes. vitest.config.ts aliases the module here for codemode.spec.ts.
export class WorkerEntrypoint {
  constructor(
    public ctx?: unknown,
    public env?: unknown,
  ) {}
}
export class RpcTarget {}
export class DurableObject {
  constructor(
    public ctx?: unknown,
    public env?: unknown,
  ) {}
}

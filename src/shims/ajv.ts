/**
 * Stands in for ajv in the Worker bundle (wrangler.toml `[alias]`). The SDK 1.x `Server` imports
 * its default validator, ajv, statically; workerd cannot run ajv (it compiles validators with
 * `new Function`), and our Server always gets the cfworker validator instead. See docs/bundle.md.
 */
export default class Ajv {
  constructor() {
    throw new Error(
      "ajv cannot run in workerd (it compiles validators from strings) and is left out of this Worker's bundle. " +
        "Pass jsonSchemaValidator: new CfWorkerJsonSchemaValidator() (@modelcontextprotocol/sdk/validation/cfworker) to the SDK's Server or Client.",
    );
  }
}

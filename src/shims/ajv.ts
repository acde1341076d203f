/**
 * Stands in for ajv in the Worker bundle (wrangler `alias`). The SDK 1.x `Server` builds ajv as its
 * default validator (`options?.jsonSchemaValidator ?? new AjvJsonSchemaValidator()`), so a server
 * written as the SDK's own examples write it, `new McpServer({ name, version })`, constructs one;
 * workerd cannot run ajv (it compiles validators from strings). This stand-in keeps such a server
 * working: the part of ajv's API the SDK's AjvJsonSchemaValidator calls (`compile`, `getSchema`,
 * `errorsText`), over @cfworker/json-schema, which is what CfWorkerJsonSchemaValidator uses. See docs/bundle.md.
 */
import { Validator, type OutputUnit, type Schema } from "@cfworker/json-schema";

/** An ajv validate function: the verdict, with the last input's errors beside it. */
export type ValidateFunction = ((input: unknown) => boolean) & { errors: OutputUnit[] | null };

export default class Ajv {
  compile(schema: Schema | boolean): ValidateFunction {
    // As CfWorkerJsonSchemaValidator's defaults: draft 2020-12, stop at the first error.
    const validator = new Validator(schema, "2020-12", true);
    const validate: ValidateFunction = Object.assign(
      (input: unknown): boolean => {
        const result = validator.validate(input);
        validate.errors = result.valid ? null : result.errors;
        return result.valid;
      },
      { errors: null },
    );
    return validate;
  }

  /** ajv's cache of schemas by `$id`: this stand-in keeps none, so the SDK compiles each schema. */
  getSchema(_id: string): ValidateFunction | undefined {
    return undefined;
  }

  errorsText(errors?: OutputUnit[] | null): string {
    if (!errors || errors.length === 0) return "No errors";
    return errors.map((unit) => `${unit.instanceLocation} ${unit.error}`).join(", ");
  }
}

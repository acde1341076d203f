// Breaks template-through-the-package: a tool reaches into the engine instead of the package's face.
import { PermanentError } from "../jobs/context";

export const refuse = (): never => {
  throw new PermanentError("no");
};

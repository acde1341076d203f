// Breaks template-imports-the-package-by-name: the face by a relative path, not by "mcp-task-worker".
import { PermanentError } from "../package/index";

export const fail = (): Error => new PermanentError("no");

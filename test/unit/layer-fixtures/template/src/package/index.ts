export { PermanentError } from "../jobs/context";

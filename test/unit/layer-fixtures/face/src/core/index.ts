export { id } from "./model/ids";
